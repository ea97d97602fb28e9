// Numbers at their limits (issue #30): every numeric input the model converts or accumulates is
// checked at the door, and every clock advance is bounded; nothing traps or runs for ever.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// Whether an issue whose description contains `text` was reported since the last reset.
private func reported(_ text: String) -> Bool {
  UIKitModelIssues.all.contains { $0.description.contains(text) }
}

extension UIKitModelTests {
  @MainActor
  @Suite("The virtual clock at its limits")
  struct ClockLimitTests {
    @Test("an advance of infinity, 1e300 or NaN seconds is refused at once; time stays put")
    func hugeIntervals() {
      let runLoop = VirtualRunLoop.main
      runLoop.reset()
      UIKitModelIssues.removeAll()
      for interval in [TimeInterval.infinity, 1e300, .nan, VirtualRunLoop.maximumAdvance + 1] {
        runLoop.advance(by: interval)
        #expect(runLoop.currentTime == 0, "\(interval)")
      }
      #expect(UIKitModelIssues.all.count == 4)
      #expect(reported("it advances at most 86400 s (5184000 frames) at a time"))
      runLoop.advance(by: -5)
      #expect(runLoop.currentTime == 0, "a negative interval runs nothing")
    }

    @Test("an advance of Int.max frames is refused, not an overflow")
    func hugeFrameCounts() {
      let runLoop = VirtualRunLoop.main
      runLoop.reset()
      UIKitModelIssues.removeAll()
      runLoop.advance(frames: .max)
      runLoop.advance(frames: VirtualRunLoop.maximumFrames + 1)
      #expect(runLoop.frameCount == 0)
      #expect(
        UIKitModelIssues.all == [
          .advanceRefused("\(Int.max) frames"),
          .advanceRefused("\(VirtualRunLoop.maximumFrames + 1) frames"),
        ])
      runLoop.advance(frames: 3)
      #expect(runLoop.frameCount == 3)
    }

    @Test("runUntilIdle with an infinite or NaN limit returns")
    func idleLimits() {
      let runLoop = VirtualRunLoop.main
      runLoop.reset()
      #expect(runLoop.runUntilIdle(limit: .infinity), "nothing pending: idle at once")
      var fired = 0
      runLoop.scheduledTimer(withTimeInterval: 1, repeats: true, keepsRunLoopBusy: true) { _ in
        fired += 1
      }
      #expect(!runLoop.runUntilIdle(limit: .nan), "a NaN limit is no time")
      #expect(fired == 0)
      runLoop.reset()
    }

    @Test("a session's swipe to NaN, a swipe of Int.max frames, a drag of 1e300 s: refused")
    func sessionInputs() {
      let page = UIViewController()
      let scrollView = UIScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
      scrollView.contentSize = CGSize(width: 100, height: 1000)
      page.view.addSubview(scrollView)
      let session = NavigationSession(root: page)
      session.push(UIViewController())
      UIKitModelIssues.removeAll()
      session.swipeBack(to: .nan)
      session.swipeBack(to: .infinity)
      session.swipeBack(to: 0.5, frames: .max)
      session.swipeBack(to: 1e19)
      #expect(session.navigationController.viewControllers.count == 2)
      session.tapBack()
      session.scroll(scrollView, by: 10, duration: 1e300)
      session.scroll(scrollView, to: 1e300)
      session.scroll(scrollView, by: 10, duration: -1)
      #expect(scrollView.contentOffset == .zero)
      #expect(reported("a drag lasting -1.0 s"))
      #expect(UIKitModelIssues.all.count == 7)
      #expect(reported("a drag of 1e+300 s"))
    }
  }

  @MainActor
  @Suite("NSUserDefaults at its limits")
  struct UserDefaultsLimitTests {
    @Test("integers read back exactly, 2^53 + 1 and Int.max included")
    func exactIntegers() {
      let defaults = NSUserDefaults.standard
      defaults.set(Int.max, forKey: "max")
      defaults.set(9_007_199_254_740_993, forKey: "big")
      #expect(defaults.integer(forKey: "max") == .max)
      #expect(defaults.integer(forKey: "big") == 9_007_199_254_740_993)
      defaults.set(UInt8(200) as Any?, forKey: "byte")
      #expect(defaults.integer(forKey: "byte") == 200)
    }

    @Test("numbers out of Int's range are held to it, NaN is 0; nothing traps")
    func outOfRange() {
      let defaults = NSUserDefaults.standard
      defaults.set(1e300, forKey: "huge")
      defaults.set(-1e300, forKey: "tiny")
      defaults.set(Double.nan, forKey: "nan")
      defaults.set(Double.infinity, forKey: "inf")
      defaults.set(UInt64.max as Any?, forKey: "unsigned")
      #expect(defaults.integer(forKey: "huge") == .max)
      #expect(defaults.integer(forKey: "tiny") == .min)
      #expect(defaults.integer(forKey: "nan") == 0)
      #expect(defaults.integer(forKey: "inf") == .max)
      #expect(defaults.integer(forKey: "unsigned") == .max)
      #expect(defaults.double(forKey: "unsigned") == Double(UInt64.max))
      #expect(!defaults.bool(forKey: "nan"))
    }

    // Apple's -boolForKey: "automatically coerces certain 'truthy' values (such as the strings
    // "true", "YES", and "1" ...)"; -integerForKey: and -doubleForKey: read numeric strings.
    @Test("strings read as Foundation reads them: YES, true, 42, 1.5")
    func strings() {
      let defaults = NSUserDefaults.standard
      for (text, truth) in [
        ("YES", true), ("yes", true), ("true", true), ("1", true),
        ("NO", false), ("false", false), ("0", false), ("maybe", false), ("", false),
      ] {
        defaults.set(text as Any?, forKey: "flag")
        #expect(defaults.bool(forKey: "flag") == truth, "\(text)")
      }
      defaults.set("42" as Any?, forKey: "n")
      #expect(defaults.integer(forKey: "n") == 42 && defaults.double(forKey: "n") == 42)
      defaults.set("1.5" as Any?, forKey: "n")
      #expect(defaults.integer(forKey: "n") == 1 && defaults.double(forKey: "n") == 1.5)
      // NSString's integerValue and doubleValue: the leading number.
      defaults.set("1e300" as Any?, forKey: "n")
      #expect(defaults.integer(forKey: "n") == 1 && defaults.double(forKey: "n") == 1e300)
      defaults.set("42abc" as Any?, forKey: "n")
      #expect(defaults.integer(forKey: "n") == 42)
      defaults.set("forty" as Any?, forKey: "n")
      #expect(defaults.integer(forKey: "n") == 0 && defaults.double(forKey: "n") == 0)
    }

    @Test("a value that is not a property-list type is refused; the previous value stays")
    func propertyListsOnly() {
      let defaults = NSUserDefaults.standard
      UIKitModelIssues.removeAll()
      defaults.set(0.5, forKey: "_alpha")
      defaults.set(UIView() as Any?, forKey: "_alpha")
      defaults.set([1, UIView()] as Any?, forKey: "_alpha")
      #expect(defaults.double(forKey: "_alpha") == 0.5)
      #expect(UIKitModelIssues.all.count == 2)
      #expect(reported("NSUserDefaults was given a UIView for \"_alpha\""))
      defaults.set(["a": [1, "two", Data(), Date()]] as Any?, forKey: "plist")
      #expect(defaults.object(forKey: "plist") != nil)
      defaults.set(nil, forKey: "plist")
      #expect(defaults.object(forKey: "plist") == nil)
    }

    @Test("arrays nested 512 deep are kept; 20,000 deep are refused at once, not a stack overflow")
    func deepNesting() {
      let defaults = NSUserDefaults.standard
      func nested(_ depth: Int) -> Any {
        var value: Any = 1
        for _ in 0..<depth { value = [value] }
        return value
      }
      UIKitModelIssues.removeAll()
      defaults.set(nested(512), forKey: "deep")
      #expect(defaults.object(forKey: "deep") != nil)
      defaults.set(nested(20_000), forKey: "deep")
      #expect(UIKitModelIssues.all.count == 1, "refused, the 512-deep value kept")
    }
  }

  @MainActor
  @Suite("UIColor at its limits")
  struct ColorLimitTests {
    @Test("a NaN or infinite component is taken as 0 and reported; nothing reaches a snapshot")
    func nonFinite() {
      UIKitModelIssues.removeAll()
      let color = UIColor(red: .nan, green: .infinity, blue: 0.5, alpha: .nan)
      #expect(color.red == 0 && color.green == 0 && color.blue == 0.5 && color.alpha == 0)
      #expect(color.hexDescription == "#00008000")
      #expect(UIKitModelIssues.all.count == 1)
      #expect(reported("a colour was given the components (nan, inf, 0.5, nan)"))
      let extended = UIColor(red: 1.25, green: -0.25, blue: 0, alpha: 1)
      #expect(extended.red == 1.25 && extended.green == -0.25, "extended range is kept")
    }
  }
}
