// The overlay plugin on the model: the four category methods in both modes, the iOS 11 break as
// a typed error, the notch gap, the stale scroll of issue 10, the tap the first overlay
// swallowed, and bad input.
import Foundation
import Hooks
import ObjCRuntime
import OverlayBarPlugin
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

/// A session whose root page is titled `Home`, with a second page `Detail` pushed when asked.
@MainActor private func session(
  ios version: String = "13.0", device: DeviceProfile = .iPhone8, pushed: Bool = false
) -> NavigationSession {
  let home = UIViewController()
  home.title = "Home"
  let session = NavigationSession(root: home, device: device, systemVersion: version)
  if pushed {
    let detail = UIViewController()
    detail.title = "Detail"
    detail.navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Edit")
    session.push(detail)
  }
  return session
}

private let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)

@MainActor
@Suite("Overlay plugin", .uiKitModel)
struct OverlayBarPluginTests {
  @Test("lt_setBackgroundColor: an empty background image, then an inert overlay at index 0 of it")
  func backgroundColor() throws {
    for version in ["10.3", "13.0"] {
      let bar = session(ios: version).navigationController.navigationBar
      bar.lt_setBackgroundColor(blue, mode: .seed)
      let overlay = try #require(bar.lt_overlay)
      #expect(bar.subviews.first?.subviews.first === overlay, "iOS \(version)")
      #expect(!overlay.isUserInteractionEnabled)
      #expect(overlay.autoresizingMask == .flexibleWidth)
      #expect(bar.backgroundImage(for: .default)?.isEmpty == true)
      #expect(bar.asSeen(over: .white).backgroundColor == UIColorComponents(blue))
      bar.lt_setBackgroundColor(.red, mode: .seed)
      #expect(bar.lt_overlay === overlay, "one overlay, recoloured")
      #expect(bar.asSeen(over: .white).backgroundColor == UIColorComponents(.red))
    }
  }

  @Test(
    "the seed's overlay is 20 points taller than the bar: on an iPhone X its lower part is a gap")
  func notchGap() {
    for mode in OverlayMode.allCases {
      let bar = session(device: .iPhoneX).navigationController.navigationBar
      bar.lt_setBackgroundColor(blue, mode: mode)
      let seen = bar.asSeen(over: .white)
      #expect(seen.statusBarAreaColor == UIColorComponents(blue), "\(mode)")
      if mode == .seed {
        #expect(seen.backgroundColor == UIColorComponents(.white), "the gap shows what is behind")
      } else {
        #expect(seen.backgroundColor == UIColorComponents(blue))
        #expect(bar.color(at: CGPoint(x: 10, y: 43), over: .white) == blue)
        #expect(bar.color(at: CGPoint(x: 10, y: -43), over: .white) == blue)
      }
    }
  }

  @Test("lt_setTranslationY moves the bar by its transform")
  func translation() {
    let bar = session().navigationController.navigationBar
    bar.lt_setTranslationY(-30)
    #expect(bar.transform.ty == -30)
    #expect(bar.asSeen().translationY == -30)
  }

  @Test("lt_setElementsAlpha, seed, iOS 10: the private keys' views fade, the back title does not")
  func elementsAlphaSeedLegacy() throws {
    let bar = session(ios: "10.3", pushed: true).navigationController.navigationBar
    try bar.lt_setElementsAlpha(0.25, mode: .seed)
    let title = try #require(try bar.value(forKey: "_titleView") as? UIView)
    let right = try #require(try bar.value(forKey: "_rightViews") as? [UIView])
    #expect(title.alpha == 0.25 && right.map(\.alpha) == [0.25])
    #expect(bar.subviews.first { $0 is _UINavigationBarBackIndicatorView }?.alpha == 0.25)
    let backTitle = bar.subviews.first { $0 is UINavigationItemButtonView }
    #expect(backTitle?.alpha == 1, "the seed's issues 32, 55, 57: the back button stays")
    #expect(bar.asSeen().titleColor.alpha == 0.25)
  }

  @Test("lt_setElementsAlpha, seed, iOS 11 and 13: a typed undefined-key error, the bar unchanged")
  func elementsAlphaSeedModern() {
    for version in ["11.0", "13.0"] {
      let bar = session(ios: version, pushed: true).navigationController.navigationBar
      let before = bar.asSeen()
      #expect(
        throws: ObjCRuntimeError.undefinedKey(className: "UINavigationBar", key: "_titleView")
      ) {
        try bar.lt_setElementsAlpha(0.5, mode: .seed)
      }
      #expect(bar.asSeen() == before, "iOS \(version): nothing faded")
    }
  }

  @Test("lt_setElementsAlpha, fixed: every element fades on every profile, the back title too")
  func elementsAlphaFixed() throws {
    for version in ["10.3", "11.0", "13.0"] {
      let bar = session(ios: version, pushed: true).navigationController.navigationBar
      bar.lt_setBackgroundColor(blue, mode: .fixed)
      try bar.lt_setElementsAlpha(0.5, mode: .fixed)
      let seen = bar.asSeen(over: .white)
      #expect(seen.titleColor.alpha == 0.5 && seen.buttonAlpha == 0.5, "iOS \(version)")
      #expect(bar.lt_overlay?.alpha == 1, "the overlay is not an element")
      #expect(seen.backgroundColor == UIColorComponents(blue))
      if version == "10.3" {
        #expect(bar.subviews.first { $0 is UINavigationItemButtonView }?.alpha == 0.5)
      }
    }
  }

  @Test("lt_reset: the overlay out, the background image back, the shadow image left alone")
  func reset() {
    let bar = session().navigationController.navigationBar
    let hairline = UIImage()
    bar.shadowImage = hairline
    let before = bar.asSeen()
    bar.lt_setBackgroundColor(blue)
    let overlay = bar.lt_overlay
    bar.lt_reset()
    #expect(bar.lt_overlay == nil && overlay?.superview == nil)
    #expect(bar.backgroundImage(for: .default) == nil)
    #expect(bar.shadowImage === hairline)
    #expect(bar.asSeen() == before)
  }

  @Test("lt_reset twice, or before any setter, changes nothing (fixed); an app's image survives")
  func resetTwice() {
    let bar = session().navigationController.navigationBar
    let image = UIImage(color: .red)
    bar.setBackgroundImage(image, for: .default)
    bar.lt_reset(mode: .fixed)
    bar.lt_reset(mode: .fixed)
    #expect(bar.backgroundImage(for: .default) === image)
    bar.lt_reset(mode: .seed)
    #expect(bar.backgroundImage(for: .default) == nil, "the seed resets it whatever was there")
  }

  @Test(
    "the seed's first bug, both ways: a touch-taking overlay swallows the back tap; LT's does not")
  func backButtonTap() {
    // LTNavigationBar's article: the overlay at index 0 of the bar, taking touches.
    let first = session(ios: "10.3", pushed: true)
    let swallowing = UIView(frame: CGRect(x: 0, y: -20, width: 375, height: 64))
    first.navigationController.navigationBar.insertSubview(swallowing, at: 0)
    first.tap(at: CGPoint(x: 30, y: 42))
    #expect(first.navigationController.viewControllers.count == 2)
    // The plugin's overlay takes none: the tap reaches the back button.
    for mode in OverlayMode.allCases {
      let session = session(ios: "10.3", pushed: true)
      session.navigationController.navigationBar.lt_setBackgroundColor(blue, mode: mode)
      session.tap(at: CGPoint(x: 30, y: 42))
      #expect(session.navigationController.viewControllers.count == 1, "\(mode)")
    }
  }

  @Test("issue 10: a page popped mid-flick repaints the next page's bar in seed mode, not fixed")
  func staleScroll() throws {
    let moments = try OverlayBarScenarios.staleScroll.run()
    let home = moments.filter { $0.name.hasSuffix("back home") }
    #expect(home.count == 2)
    let (seed, fixed) = (home[0].seenBar, home[1].seenBar)
    #expect(seed.backgroundOpacity == 1, "the popped page painted the bar")
    #expect(fixed.backgroundOpacity < 0.9, "the system's translucent bar")
    #expect(fixed.backgroundColor != seed.backgroundColor)
  }

  @Test("fixed: an update from a controller not on top, or in no navigation controller, is ignored")
  func staleUpdates() {
    let session = session(pushed: true)
    let bar = session.navigationController.navigationBar
    let root = session.navigationController.viewControllers[0]
    bar.lt_setBackgroundColor(blue, from: root, mode: .fixed)
    bar.lt_setBackgroundColor(blue, from: UIViewController(), mode: .fixed)
    #expect(bar.lt_overlay == nil)
    let top = session.navigationController.viewControllers[1]
    bar.lt_setBackgroundColor(blue, from: top, mode: .fixed)
    #expect(bar.lt_overlay != nil, "the top controller's update is applied")
    bar.lt_reset(mode: .fixed)
    bar.lt_setBackgroundColor(blue, from: root, mode: .seed)
    #expect(bar.lt_overlay != nil, "the seed applies whoever calls")
  }

  @Test("bad input: NaN translations refused, alpha clamped, the bar unchanged; NaN colours black")
  func badInput() throws {
    let bar = session(pushed: true).navigationController.navigationBar
    let before = bar.asSeen()
    bar.lt_setTranslationY(.nan)
    bar.lt_setTranslationY(.infinity)
    bar.lt_setTranslationY(-.infinity)
    try bar.lt_setElementsAlpha(.nan)
    #expect(bar.lt_overlay == nil)
    #expect(bar.asSeen() == before)
    // The model's UIColor takes a NaN component as 0 (an invalidColor issue): the overlay is
    // black, never NaN.
    bar.lt_setBackgroundColor(UIColor(red: .nan, green: 0, blue: 0, alpha: 1))
    #expect(bar.lt_overlay?.backgroundColor == UIColor(red: 0, green: 0, blue: 0, alpha: 1))
    try bar.lt_setElementsAlpha(7)
    #expect(bar.asSeen().titleColor.alpha == 1)
    try bar.lt_setElementsAlpha(-3)
    #expect(bar.asSeen().titleColor.alpha == 0)
  }

  @Test(
    "a bar outside any window works; a bar without its background gets the overlay when laid out")
  func barsNotReady() throws {
    let loose = UINavigationBar()
    loose.lt_setBackgroundColor(blue)
    #expect(loose.lt_overlay?.superview === loose.backgroundContainer)
    let bare = UINavigationBar()
    for view in bare.subviews { view.removeFromSuperview() }
    bare.lt_setBackgroundColor(blue, mode: .seed)
    #expect(bare.lt_overlay?.superview == nil, "the seed messages nil: never shown")
    bare.lt_reset(mode: .seed)
    bare.lt_setBackgroundColor(blue, mode: .fixed)
    #expect(bare.lt_overlay != nil && bare.lt_overlay?.superview == nil)
    bare.insertSubview(bare.backgroundContainer, at: 0)
    bare.setNeedsLayout()
    bare.layoutIfNeeded()
    let overlay = try #require(bare.lt_overlay)
    #expect(overlay.superview === bare.backgroundContainer)
    #expect(overlay.frame == bare.backgroundContainer.bounds)
    // The hook came off: a later layout does not insert a new overlay after a reset.
    bare.lt_reset(mode: .fixed)
    bare.setNeedsLayout()
    bare.layoutIfNeeded()
    #expect(bare.backgroundContainer.subviews.allSatisfy { $0 !== overlay })
  }

  @Test("a tap on the back button of a bar moved by lt_setTranslationY lands where it is drawn")
  func tapMovedBar() {
    let session = session(ios: "10.3", pushed: true)
    let bar = session.navigationController.navigationBar
    bar.lt_setTranslationY(-20)
    session.tap(at: CGPoint(x: 30, y: 20 + 22 + 30))
    #expect(session.navigationController.viewControllers.count == 2, "below the moved bar")
    session.tap(at: CGPoint(x: 30, y: 20 + 22 - 20))
    #expect(session.navigationController.viewControllers.count == 1)
  }

  @Test("fixed: lt_reset gives back the background image the app had set")
  func resetRestoresImage() {
    let bar = session().navigationController.navigationBar
    let image = UIImage(color: .red)
    bar.setBackgroundImage(image, for: .default)
    bar.lt_setBackgroundColor(blue, mode: .fixed)
    #expect(bar.backgroundImage(for: .default)?.isEmpty == true)
    bar.lt_reset(mode: .fixed)
    #expect(bar.backgroundImage(for: .default) === image)
  }

  @Test("fixed: leaving the scrolling demo scrolled puts the bar back for the next page")
  func scrollingDemoLeaves() throws {
    let moments = try Scenario(name: "leave-scrolled", summary: "") { context in
      let page = OverlayBarScenarios.scrollingPage(mode: .fixed)
      let session = context.start(root: page)
      page.scrollView.contentOffset = CGPoint(x: 0, y: 60)
      context.mark("scrolled")
      let next = UIViewController()
      next.title = "Next"
      session.push(next)
      context.mark("next")
    }.run(options: ScenarioOptions(plugins: []))
    let scrolled = try #require(moments.first).seenBar
    let next = try #require(moments.last).seenBar
    #expect(scrolled.translationY == -44 && scrolled.titleColor.alpha == 0)
    #expect(next.translationY == 0 && next.titleColor.alpha == 1)
  }

  @Test("installing the plugin changes no method: a category needs no swizzling")
  func installsNothing() throws {
    let registry = PluginRegistry.shared
    _ = try? registry.discover()
    let installed = try registry.install(named: "overlay")
    defer { if installed { registry.uninstall("overlay") } }
    #expect(registry.plugins.contains { $0.name == "overlay" && $0.isInstalled })
    // Other tests hook their own classes meanwhile: only what is attributed to this plugin counts.
    let mine = registry.hookMap.entries.filter { entry in
      entry.layers.contains { $0.plugin == "overlay" || $0.plugin == "swizzlekit.overlay" }
    }
    #expect(mine.isEmpty)
  }

  @Test(
    "the article's attempts: the proxy changes nothing, barTintColor shows 85 %, backgroundColor is washed out and stops at the status bar"
  )
  func firstAttempts() throws {
    let moments = try OverlayBarScenarios.firstAttempts.run()
    func seen(_ name: String) throws -> SeenBar {
      try #require(moments.first { $0.name.hasPrefix(name) }).seenBar
    }
    let start = try seen("start")
    #expect(try seen("appearance proxy") == start)
    let tint = try seen("barTintColor")
    #expect(abs(tint.backgroundOpacity - 0.85) < 0.01)
    let background = try seen("backgroundColor")
    #expect(background.backgroundColor != UIColorComponents(OverlayBarScenarios.demoBlue))
    #expect(background.statusBarAreaColor == start.backgroundColor, "the strip is not coloured")
    let overlay = try seen("lt_setBackgroundColor")
    #expect(overlay.backgroundColor == UIColorComponents(OverlayBarScenarios.demoBlue))
    #expect(overlay.statusBarAreaColor == overlay.backgroundColor)
  }

  @Test(
    "the scrolling demo's timeline on iOS 10 and 13 is the golden one", arguments: ["10", "13"])
  func scrollingGolden(ios: String) throws {
    let profile = try #require(IOSProfile.named(ios))
    let report = try #require(
      expectScenario(
        OverlayBarScenarios.scrolling,
        options: ScenarioOptions(systemVersion: profile.systemVersion),
        golden: "lt-scrolling-ios\(ios)"))
    // Scrolled past 44: the bar moved up by its height, its title faded out, and the hairline
    // left as it was (the seed never touches the shadow image).
    expectMoment(
      "fixed: offset 60", of: report.moments,
      ExpectedBar(
        titleColor: UIColor(white: 0, alpha: 0), translationY: -44, hairline: true))
  }

  @Test("the scenarios: every profile and device, golden timelines, the same twice")
  func suite() {
    expectScenarioSuite(OverlayBarScenarios.all)
  }

  @Test("the known breaks are where LTNavigationBar broke: its keys from iOS 11, the notch")
  func knownBreaks() throws {
    let keys = try OverlayBarScenarios.scrolling.check(
      options: ScenarioOptions(systemVersion: "13.0"))
    #expect(keys.hasKnownFailures)
    let notch = try OverlayBarScenarios.backgroundColor.check(
      options: ScenarioOptions(device: .iPhoneX, systemVersion: "10.3"))
    #expect(notch.hasKnownFailures)
    let plain = try OverlayBarScenarios.backgroundColor.check(
      options: ScenarioOptions(device: .iPhone8, systemVersion: "13.0"))
    #expect(!plain.hasKnownFailures && plain.checks.allSatisfy(\.held))
    let moments = keys.moments
    #expect(moments.contains { $0.name.contains("threw: undefined key _titleView") })
    #expect(!moments.contains { $0.name.hasPrefix("fixed") && $0.name.contains("threw") })
  }
}
