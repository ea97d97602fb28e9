// The virtual clock: timers and modes, display links, transactions and animations.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// A display link target whose tick method is added at run time, from a closure, as
/// WRNavigationBar adds `wr_displayLinkTick:` by swizzling.
final class TickRecorder: ObjCObject {
  var ticks: [TimeInterval] = []
}

extension UIKitModelTests {
  @MainActor
  @Suite("VirtualRunLoop")
  struct RunLoopTests {
    @Test("timers and perform-after fire at their virtual times, in order")
    func timers() {
      freshModel()
      let runLoop = VirtualRunLoop.main
      var fired: [String] = []
      runLoop.perform(after: 0.5) { fired.append("half at \(runLoop.currentTime)") }
      runLoop.perform(after: 0.1) { fired.append("tenth at \(runLoop.currentTime)") }
      let timer = runLoop.scheduledTimer(withTimeInterval: 0.25, repeats: true) { _ in
        fired.append("tick at \(runLoop.currentTime)")
      }
      runLoop.advance(by: 0.6)
      timer.invalidate()
      runLoop.advance(by: 1)
      #expect(
        fired == [
          "tenth at 0.1", "tick at 0.25", "half at 0.5", "tick at 0.5",
        ])
      #expect(close(runLoop.currentTime, 1.6))
    }

    @Test("a default-mode timer waits while tracking; a common-mode one does not")
    func modes() {
      freshModel()
      let runLoop = VirtualRunLoop.main
      var fired: [String] = []
      runLoop.perform(after: 0.1) { fired.append("default") }
      runLoop.perform(after: 0.1, inModes: [.common]) { fired.append("common") }
      runLoop.currentMode = .tracking
      runLoop.advance(by: 0.5)
      #expect(fired == ["common"])
      runLoop.currentMode = .default
      runLoop.advance(by: 0.1)
      #expect(fired == ["common", "default"])
    }

    @Test("runUntilIdle stops once nothing is pending, and reports a run that never idles")
    func idle() {
      freshModel()
      let runLoop = VirtualRunLoop.main
      var done = false
      runLoop.perform(after: 2) { done = true }
      #expect(runLoop.runUntilIdle())
      #expect(done)
      runLoop.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in
        runLoop.perform(after: 1) {}
      }
      #expect(runLoop.runUntilIdle(limit: 10))
    }
  }

  @MainActor
  @Suite("CADisplayLink")
  struct DisplayLinkTests {
    private func recorder() throws -> TickRecorder {
      let recorder = TickRecorder()
      let cls = TickRecorder.runtimeClass
      if !cls.instancesRespond(to: "wr_displayLinkTick:") {
        let tick = try imp_implementationWithBlock { (me: TickRecorder, link: ObjCObject?) in
          me.ticks.append((link as? CADisplayLink)?.timestamp ?? -1)
        }
        class_addMethod(cls, "wr_displayLinkTick:", tick, "v@:@")
      }
      return recorder
    }

    @Test("ticks at 60 Hz of virtual time through the runtime, with timestamps")
    func ticks() throws {
      freshModel()
      let target = try recorder()
      let link = CADisplayLink(target: target, selector: "wr_displayLinkTick:")
      link.add(to: .main, forMode: .common)
      VirtualRunLoop.main.advance(frames: 3)
      #expect(target.ticks.count == 3)
      #expect(zip(target.ticks, [1.0 / 60, 2.0 / 60, 3.0 / 60]).allSatisfy { close($0, $1) })
      #expect(close(link.targetTimestamp, 4.0 / 60))
      #expect(link.duration == 1.0 / 60)
      link.isPaused = true
      VirtualRunLoop.main.advance(frames: 2)
      #expect(target.ticks.count == 3)
      link.isPaused = false
      link.preferredFramesPerSecond = 30
      VirtualRunLoop.main.advance(frames: 4)
      #expect(target.ticks.count == 5, "every other frame at 30 fps")
      link.invalidate()
      VirtualRunLoop.main.advance(frames: 4)
      #expect(target.ticks.count == 5)
    }

    @Test("a default-mode link stops while tracking; adding it twice is refused")
    func modesAndTwice() throws {
      freshModel()
      let target = try recorder()
      let link = CADisplayLink(target: target, selector: "wr_displayLinkTick:")
      link.add(to: .main, forMode: .default)
      link.add(to: .main, forMode: .default)
      #expect(UIKitModelIssues.all.contains(.displayLinkAddedTwice(link.description)))
      VirtualRunLoop.main.currentMode = .tracking
      VirtualRunLoop.main.advance(frames: 2)
      #expect(target.ticks.isEmpty)
      link.invalidate()
    }
  }

  @MainActor
  @Suite("CATransaction")
  struct TransactionTests {
    @Test("a completion set before begin() fires when the transaction's animations end")
    func completionWaitsForAnimations() {
      freshModel()
      let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
      var completedAt: TimeInterval?
      CATransaction.setCompletionBlock { completedAt = CACurrentMediaTime() }
      CATransaction.begin()
      UIView.animate(withDuration: 0.25) { view.alpha = 0 }
      CATransaction.commit()
      VirtualRunLoop.main.advance(by: 0.2)
      #expect(completedAt == nil)
      VirtualRunLoop.main.advance(by: 0.1)
      #expect(completedAt.map { close($0, 15.0 / 60) } == true, "the frame at which it ended")
    }

    @Test(
      "a completion with no animation fires at the end of the turn; an unbalanced commit is refused"
    )
    func emptyAndUnbalanced() {
      freshModel()
      var fired = false
      CATransaction.begin()
      CATransaction.setCompletionBlock { fired = true }
      CATransaction.setAnimationDuration(0.4)
      #expect(CATransaction.animationDuration() == 0.4)
      CATransaction.commit()
      #expect(!fired)
      VirtualRunLoop.main.advance(frames: 1)
      #expect(fired)
      CATransaction.commit()
      #expect(UIKitModelIssues.all == [.unbalancedTransaction])
    }
  }

  @MainActor
  @Suite("UIView animation")
  struct AnimationTests {
    @Test("alpha interpolates on the virtual clock with the requested curve")
    func interpolation() {
      freshModel()
      let linear = UIView()
      let eased = UIView()
      UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) { linear.alpha = 0 }
      UIView.animate(withDuration: 1) { eased.alpha = 0 }
      #expect(linear.alpha == 0, "the model value changes at once")
      VirtualRunLoop.main.advance(by: 0.25)
      #expect(close(linear.presentationAlpha, 0.75, tolerance: 1e-6))
      #expect(eased.presentationAlpha > 0.75, "ease in-out starts slowly")
      VirtualRunLoop.main.advance(by: 0.25)
      #expect(close(eased.presentationAlpha, 0.5, tolerance: 1e-6), "and is symmetric")
      VirtualRunLoop.main.advance(by: 0.5)
      #expect(linear.presentationAlpha == 0 && eased.animatingProperties.isEmpty)
    }

    @Test("a value set to what it was starts no animation, but the completions wait as if it had")
    func unchangedValueHoldsCompletions() {
      freshModel()
      let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
      var animated: TimeInterval?
      var transaction: TimeInterval?
      CATransaction.begin()
      CATransaction.setCompletionBlock { transaction = VirtualRunLoop.main.currentTime }
      UIView.animate(
        withDuration: 0.5, animations: { view.frame = view.frame },
        completion: { _ in animated = VirtualRunLoop.main.currentTime })
      CATransaction.commit()
      #expect(view.animatingProperties.isEmpty)
      VirtualRunLoop.main.advance(by: 0.4)
      #expect(animated == nil && transaction == nil)
      VirtualRunLoop.main.runUntilIdle()
      #expect(animated.map { close($0, 0.5, tolerance: 1.0 / 60) } == true)
      #expect(transaction.map { close($0, 0.5, tolerance: 1.0 / 60) } == true)
    }

    @Test("a later animation starts from the presentation value; the first completes with false")
    func interruption() {
      freshModel()
      let view = UIView()
      var results: [Bool] = []
      UIView.animate(
        withDuration: 1, delay: 0, options: .curveLinear, animations: { view.alpha = 0 },
        completion: { results.append($0) })
      VirtualRunLoop.main.advance(by: 0.5)
      UIView.animate(
        withDuration: 1, delay: 0, options: .curveLinear, animations: { view.alpha = 1 },
        completion: { results.append($0) })
      VirtualRunLoop.main.advance(frames: 1)
      #expect(results == [false])
      #expect(view.presentationAlpha < 0.6, "from 0.5 back up, not from 0")
      VirtualRunLoop.main.runUntilIdle()
      #expect(results == [false, true])
      #expect(view.presentationAlpha == 1)
    }

    @Test("colour, frame and transform animate; performWithoutAnimation does not")
    func kinds() {
      freshModel()
      let view = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 44))
      view.backgroundColor = .white
      UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) {
        view.backgroundColor = .black
        view.frame = CGRect(x: 0, y: -44, width: 100, height: 44)
        view.transform = CGAffineTransform(translationX: 0, y: -44)
        UIView.performWithoutAnimation { view.tag = 7 }
      }
      VirtualRunLoop.main.advance(by: 0.5)
      #expect(close(view.presentationBackgroundColor?.red ?? -1, 0.5, tolerance: 1e-6))
      #expect(close(view.presentationFrame.origin.y, -22, tolerance: 1e-6))
      #expect(close(view.presentationTransform.ty, -22, tolerance: 1e-6))
      UIView.performWithoutAnimation { view.alpha = 0.5 }
      #expect(view.presentationAlpha == 0.5)
    }

    @Test("the same script twice gives the same trace")
    func determinism() throws {
      func script() -> [String] {
        freshModel()
        var trace: [String] = []
        let view = UIView()
        UIView.animate(
          withDuration: 0.3, animations: { view.alpha = 0.2 },
          completion: { finished in trace.append("done \(finished) at \(CACurrentMediaTime())") })
        VirtualRunLoop.main.perform(after: 0.1) { trace.append("alpha \(view.presentationAlpha)") }
        VirtualRunLoop.main.runUntilIdle()
        return trace
      }
      let first = script()
      #expect(first.count == 2)
      #expect(script() == first)
    }
  }
}
