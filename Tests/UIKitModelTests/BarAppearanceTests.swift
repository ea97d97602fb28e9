// UINavigationBarAppearance: iOS 13's standard appearance, and iOS 15's scroll-edge rule that
// turned bars drawn from their legacy properties transparent at the top.
import Foundation
import Testing
import UIKitModel

extension UIKitModelTests {
  @MainActor
  @Suite("UINavigationBarAppearance")
  struct BarAppearanceTests {
    private func opaque(_ color: UIColor) -> UINavigationBarAppearance {
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = color
      return appearance
    }

    @Test("iOS 13: the standard appearance draws the bar; the scroll-edge one waits for iOS 15")
    func standard() {
      let session = NavigationSession(root: UIViewController(), systemVersion: "13.0")
      let bar = session.navigationController.navigationBar
      bar.standardAppearance = opaque(.blue)
      bar.scrollEdgeAppearance = opaque(.red)
      let seen = bar.asSeen(over: .white)
      #expect(seen.backgroundColor == UIColorComponents(.blue) && seen.backgroundOpacity == 1)
    }

    @Test("iOS 15: a bar with only legacy properties is transparent at the top, tinted below it")
    func legacyAtTheEdge() {
      let page = ScrollingPage()
      let session = NavigationSession(root: page, systemVersion: "15.0")
      let bar = session.navigationController.navigationBar
      bar.barTintColor = .blue
      #expect(bar.isAtScrollEdge)
      #expect(bar.asSeen(over: .white).backgroundOpacity == 0, "transparent at the top")
      #expect(!bar.asSeen(over: .white).shadowVisible)
      page.scrollView.contentOffset = CGPoint(x: 0, y: 120)
      #expect(!bar.isAtScrollEdge)
      #expect(bar.asSeen(over: .white).backgroundOpacity > 0.8, "the tint, scrolled")
      page.scrollView.contentOffset = .zero
      #expect(bar.asSeen(over: .white).backgroundOpacity == 0)
    }

    /// infinum/ios-loggie issue 22: "this happens only when building with new iOS sdk, included
    /// in Xcode 13"; Apple developer forums thread 682420. The scroll-edge appearance for every
    /// bar came with the iOS 15 SDK; an app built with the iOS 14 SDK keeps the old bar.
    @Test("iOS 15 with an app built with the iOS 14 SDK: the legacy bar keeps its tint at the top")
    func linkedAgainstOlderSDK() {
      UIDevice.current.linkedSDKVersion = "14.0"
      let page = ScrollingPage()
      let session = NavigationSession(root: page, systemVersion: "15.0")
      let bar = session.navigationController.navigationBar
      bar.barTintColor = .blue
      #expect(UIDevice.current.linkedMajorVersion == 14)
      #expect(bar.asSeen(over: .white).backgroundOpacity > 0.8, "tinted at the top")
      page.scrollView.contentOffset = CGPoint(x: 0, y: 120)
      page.scrollView.contentOffset = .zero
      #expect(bar.asSeen(over: .white).backgroundOpacity > 0.8)
      UIDevice.current.linkedSDKVersion = "16.0"
      #expect(UIDevice.current.linkedMajorVersion == 15, "a newer SDK counts as the running one")
      UIDevice.current.linkedSDKVersion = "fourteen"
      #expect(UIDevice.current.linkedSDKVersion == "16.0", "refused, kept")
      #expect(UIKitModelIssues.all.contains { "\($0)".contains("\"fourteen\"") })
      UIApplication.resetModel()
      #expect(UIDevice.current.linkedSDKVersion == nil)
    }

    @Test("iOS 15: a page without a scroll view is always at the edge; the fix sets both")
    func fixBothAppearances() {
      let session = NavigationSession(root: UIViewController(), systemVersion: "17.0")
      let bar = session.navigationController.navigationBar
      bar.standardAppearance = opaque(.blue)
      #expect(bar.asSeen(over: .white).backgroundOpacity == 0, "standard alone: clear")
      bar.scrollEdgeAppearance = opaque(.blue)
      #expect(bar.asSeen(over: .white).backgroundColor == UIColorComponents(.blue))
    }

    @Test("the appearance's title attributes win over the bar's; iOS 10 ignores appearances")
    func titleAndOldVersions() {
      let session = NavigationSession(root: UIViewController(), systemVersion: "13.0")
      let bar = session.navigationController.navigationBar
      let appearance = opaque(.blue)
      appearance.titleTextAttributes = [.foregroundColor: UIColor.red]
      bar.titleTextAttributes = [.foregroundColor: UIColor.green]
      bar.standardAppearance = appearance
      #expect(bar.asSeen().titleColor == UIColorComponents(.red))
      freshModel()
      let old = NavigationSession(root: UIViewController(), systemVersion: "10.3")
      let oldBar = old.navigationController.navigationBar
      let before = oldBar.asSeen()
      oldBar.standardAppearance = opaque(.blue)
      oldBar.scrollEdgeAppearance = opaque(.blue)
      #expect(oldBar.asSeen() == before)
    }

    @Test("a bar keeps a copy: changing the appearance afterwards changes nothing")
    func copies() {
      let session = NavigationSession(root: UIViewController(), systemVersion: "13.0")
      let bar = session.navigationController.navigationBar
      let appearance = opaque(.blue)
      bar.standardAppearance = appearance
      appearance.backgroundColor = .red
      #expect(bar.asSeen(over: .white).backgroundColor == UIColorComponents(.blue))
    }
  }
}

extension UIKitModelTests.BarAppearanceTests {
  @Test("the profiles by the names users give them, each a version the model runs")
  func profiles() {
    #expect(IOSProfile.all.map(\.name) == ["10", "11", "12", "13", "15", "17", "18", "26"])
    #expect(IOSProfile.named("15/sdk14") == .ios15sdk14)
    #expect(IOSProfile.running("15.0", sdk: "14.0") == .ios15sdk14)
    #expect(IOSProfile.running("15.0", sdk: nil) == .ios15)
    #expect(IOSProfile.names(linkedFrom: 15) == ["15", "17", "18", "26"])
    #expect(IOSProfile.names(from: 15) == ["15/sdk14", "15", "17", "18", "26"])
    #expect(IOSProfile.named("15")?.systemVersion == "15.0")
    #expect(IOSProfile.named("13.0") == .ios13)
    #expect(IOSProfile.named("14") == nil)
    for profile in IOSProfile.all {
      freshModel()
      UIDevice.current.systemVersion = profile.systemVersion
      let bar = UINavigationBar()
      #expect(bar.usesLegacyHierarchy == (profile == .ios10), "\(profile)")
    }
  }
}

extension UIKitModelTests.BarAppearanceTests {
  @Test("an iPad's bar is 50 points tall from iOS 12, 44 before and on iPhones")
  func iPadHeight() {
    for (device, version, height) in [
      (DeviceProfile.iPadAir, "13.0", CGFloat(50)), (.iPadAir, "11.0", 44), (.iPhoneX, "13.0", 44),
    ] {
      freshModel()
      let session = NavigationSession(
        root: UIViewController(), device: device, systemVersion: version)
      let bar = session.navigationController.navigationBar
      #expect(bar.frame.height == height && bar.barHeight == height, "\(device) \(version)")
      #expect(bar.subviews.first?.frame.height == height + device.statusBarHeight)
    }
  }
}
