// The transparent-bar plugin on the model: the exchange mechanism, the seed's alpha path, the
// interpolation of a swipe-back, and the bugs of the seed it fixes.
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import SwizzleKitTesting
import Testing
import TransparentBarPlugin
import UIKitModel

/// A navigation controller in a window with a transparent root (alpha 0, white tint) and an
/// opaque second screen pushed over it.
@MainActor private func twoScreens() -> (UINavigationController, UIViewController, UIViewController)
{
  let transparent = UIViewController()
  transparent.title = "Transparent"
  let opaque = UIViewController()
  opaque.title = "Opaque"
  let navigation = UINavigationController(rootViewController: transparent)
  let window = UIWindow(frame: UIScreen.main.bounds)
  window.rootViewController = navigation
  window.makeKeyAndVisible()
  VirtualRunLoop.main.runUntilIdle()
  transparent.navBarBgAlpha = 0
  transparent.navBarTintColor = .white
  navigation.pushViewController(opaque, animated: false)
  VirtualRunLoop.main.runUntilIdle()
  return (navigation, transparent, opaque)
}

/// The opacity the user sees of the bar's background.
@MainActor private func backgroundAlpha(_ bar: UINavigationBar) -> CGFloat {
  bar.asSeen().backgroundOpacity
}

/// The alpha of the bar's `_backgroundEffectView`, where ET's path puts it on a translucent bar.
@MainActor private func effectAlpha(_ bar: UINavigationBar) -> CGFloat? {
  guard let background = bar.subviews.first,
    let ivar = class_getInstanceVariable(object_getClass(background), "_backgroundEffectView")
  else { return nil }
  return (object_getIvar(background, ivar) as? UIView)?.alpha
}

private let originals: [Selector] = [
  "_updateInteractiveTransition:", "popViewControllerAnimated:",
  "popToViewController:animated:", "popToRootViewControllerAnimated:",
]

@MainActor
@Suite("Transparent-bar plugin", .uiKitModel)
struct TransparentBarPluginTests {
  @Test(
    "installing adds the et_ methods and exchanges them with the originals; uninstalling swaps back"
  )
  func exchanges() throws {
    let cls = UINavigationController.runtimeClass
    let before = originals.map { class_getInstanceMethod(cls, $0)?.implementation }
    try PluginRegistry.shared.install(TransparentBarPlugin())
    for (index, original) in originals.enumerated() {
      let name = Selector(
        ("et_" + original.name).replacingOccurrences(of: "__", with: "_"))
      let replacement = try #require(class_getInstanceMethod(cls, name))
      #expect(replacement.implementation == before[index], "\(name) holds the original")
      #expect(class_getInstanceMethod(cls, original)?.implementation != before[index])
    }
    let map = PluginRegistry.shared.hookMap
    let layer = map.entries.first { $0.method.selectorName == "popViewControllerAnimated:" }?
      .layers.first
    #expect(layer?.plugin == "transparent", "the hook map attributes the exchange")
    #expect(layer?.isHook == false, "an exchange, not a hook")
    PluginRegistry.shared.uninstall("transparent")
    #expect(originals.map { class_getInstanceMethod(cls, $0)?.implementation } == before)
  }

  @Test(
    "each replacement reaches the original by sending its own et_ selector",
    .plugins(TransparentBarPlugin()))
  func callsItself() throws {
    let (navigation, transparent, _) = twoScreens()
    let popped = navigation.popViewController(animated: false)
    VirtualRunLoop.main.runUntilIdle()
    #expect(popped != nil)
    #expect(navigation.topViewController === transparent, "the original popped")
    #expect(backgroundAlpha(navigation.navigationBar) == 0, "and the replacement applied alpha")
  }

  @Test("uninstalling gives the bars it changed their opaque background back")
  func uninstallRestores() throws {
    try PluginRegistry.shared.install(TransparentBarPlugin())
    let (navigation, transparent, _) = twoScreens()
    navigation.popToViewController(transparent, animated: false)
    VirtualRunLoop.main.runUntilIdle()
    #expect(effectAlpha(navigation.navigationBar) == 0)
    PluginRegistry.shared.uninstall("transparent")
    #expect(effectAlpha(navigation.navigationBar) == 1)
    #expect(backgroundAlpha(navigation.navigationBar) > 0.5)
  }

  @Test(
    "the navigation controller answers for the status bar with its top controller's style",
    .plugins(TransparentBarPlugin()))
  func statusBar() throws {
    let (navigation, transparent, _) = twoScreens()
    transparent.statusBarStyle = .lightContent
    #expect(navigation.preferredStatusBarStyle == .default, "the opaque screen's")
    navigation.popToViewController(transparent, animated: false)
    #expect(navigation.preferredStatusBarStyle == .lightContent)
  }

  @Test("installing from 8 threads installs once; exchanging twice would undo it")
  func installOnce() throws {
    let cls = UINavigationController.runtimeClass
    let before = class_getInstanceMethod(cls, "popViewControllerAnimated:")?.implementation
    let count = PluginRegistry.shared.installationCount(of: "swizzlekit.transparent")
    // Dispatch's threads, not the cooperative pool's: a pool busy with other suites' work would
    // keep the tasks (and the held main queue) waiting past the hold's patience.
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      _ = try? PluginRegistry.shared.install(TransparentBarPlugin())
    }
    defer { PluginRegistry.shared.uninstall("transparent") }
    #expect(PluginRegistry.shared.installationCount(of: "swizzlekit.transparent") == count + 1)
    #expect(class_getInstanceMethod(cls, "popViewControllerAnimated:")?.implementation != before)
  }

  @Test(
    "a swipe-back interpolates alpha and tint with the percent", .plugins(TransparentBarPlugin()))
  func interpolates() throws {
    let (navigation, _, _) = twoScreens()
    let bar = navigation.navigationBar
    let pan = try #require(navigation.interactivePopGestureRecognizer)
    let width = navigation.view.bounds.width
    GestureDriver.begin(pan)
    GestureDriver.move(pan, to: CGPoint(x: width * 0.25, y: 0))
    #expect(effectAlpha(bar).map { abs($0 - 0.75) < 1e-9 } == true, "1 + (0 - 1) x 0.25")
    let tint = UIColorComponents(bar.tintColor)
    #expect(abs(tint.red - 0.25) < 0.01, "system blue a quarter of the way to white")
    GestureDriver.end(pan)
    VirtualRunLoop.main.runUntilIdle()
  }

  @Test(
    "the release callback runs once per swipe, not once per update as in ET",
    .plugins(TransparentBarPlugin()))
  func releaseOnce() throws {
    let (navigation, transparent, _) = twoScreens()
    let pan = try #require(navigation.interactivePopGestureRecognizer)
    let width = navigation.view.bounds.width
    let before = TransparentBarPlugin.releaseCallbacks
    GestureDriver.begin(pan)
    for step in 1...30 {
      GestureDriver.move(pan, to: CGPoint(x: width * 0.02 * CGFloat(step), y: 0))
    }
    GestureDriver.end(pan)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.topViewController === transparent, "finished from 60 %")
    #expect(TransparentBarPlugin.releaseCallbacks - before == 1, "ET registered one per update")
    #expect(backgroundAlpha(navigation.navigationBar) == 0, "and it animated on to alpha 0")
  }

  /// A page that sets its bar clear only in `viewWillAppear`, as ET #13's reporter's did; it
  /// notes how many release callbacks had run each time.
  private final class ClearOnAppear: UIViewController {
    var callbacksAtAppear: [Int] = []
    override func viewWillAppear(_ animated: Bool) {
      super.viewWillAppear(animated)
      callbacksAtAppear.append(TransparentBarPlugin.releaseCallbacks)
      navBarBgAlpha = 0
    }
  }

  @Test(
    "ET #13: a page setting its alpha in viewWillAppear is clear after a swipe, finished or not",
    .plugins(TransparentBarPlugin()), arguments: [0.3, 0.7])
  func alphaSetInViewWillAppear(release: CGFloat) throws {
    let page = ClearOnAppear()
    let navigation = UINavigationController(rootViewController: page)
    let window = UIWindow(frame: UIScreen.main.bounds)
    window.rootViewController = navigation
    window.makeKeyAndVisible()
    navigation.pushViewController(UIViewController(), animated: false)
    VirtualRunLoop.main.runUntilIdle()
    #expect(backgroundAlpha(navigation.navigationBar) > 0.5)
    let pan = try #require(navigation.interactivePopGestureRecognizer)
    let before = TransparentBarPlugin.releaseCallbacks
    page.callbacksAtAppear.removeAll()
    GestureDriver.begin(pan)
    let point = CGPoint(x: navigation.view.bounds.width * release, y: 0)
    GestureDriver.move(pan, to: point)
    GestureDriver.move(pan, to: point)  // held still: released with no velocity
    GestureDriver.end(pan)
    VirtualRunLoop.main.runUntilIdle()
    // UIKit calls the destination's viewWillAppear as the swipe begins, before the release
    // callback (the order the reporter saw would be the other way round).
    #expect(page.callbacksAtAppear == [before])
    if release > 0.5 {
      #expect(navigation.topViewController === page)
      #expect(backgroundAlpha(navigation.navigationBar) == 0, "clear on arrival")
    } else {
      #expect(backgroundAlpha(navigation.navigationBar) > 0.5, "cancelled: opaque again")
    }
  }

  @Test(
    "an alpha of NaN or an infinity is refused, the stored value kept",
    arguments: [
      CGFloat.nan, .infinity, -.infinity,
    ])
  func badAlpha(value: CGFloat) {
    let controller = UIViewController()
    controller.navBarBgAlpha = 0.4
    controller.navBarBgAlpha = value
    #expect(controller.navBarBgAlpha == 0.4)
  }

  @Test("PR #4: the Swift spelling popToRootViewController is refused with the selector to use")
  func swiftSpellingSuggested() throws {
    let cls = UINavigationController.runtimeClass
    do {
      try cls.swizzleInstanceMethod(
        "popToRootViewController", with: "popToRootViewControllerAnimated:")
      Issue.record("the swizzle of a selector nothing answers went through")
    } catch {
      #expect(error.description.contains("-[UINavigationController popToRootViewController]"))
      #expect(error.description.contains("popToRootViewControllerAnimated:"), "suggested")
    }
    #expect(class_getInstanceMethod(cls, "popToRootViewController") == nil)
  }

  @Test("seed: a bar whose background lacks the ivars: those steps are skipped and said once")
  func missingIvar() throws {
    TransparentBarPlugin.mode.value = .seed
    defer { TransparentBarPlugin.mode.value = .fixed }
    let (navigation, _, _) = twoScreens()
    let bar = navigation.navigationBar
    // Something put a plain view first: it has neither `_shadowView` nor `_backgroundEffectView`.
    let plain = UIView(frame: .zero)
    bar.insertSubview(plain, at: 0)
    let (_, said) = Diagnostics.collecting(kind: .plugin) {
      navigation.transparentSetBackgroundAlpha(0.5)
      navigation.transparentSetBackgroundAlpha(0.25)
    }
    #expect(said.filter { $0.message.contains("_shadowView") }.count == 1, "said once")
  }

  @Test(
    "this test binary declares no UINavigationController subclass, or a launch would install the plugin"
  )
  func noSubclassHere() {
    // The trigger acts on the whole process, as EM's did: the end-to-end run is the
    // `transparent-launch` program's, which CI runs.
    let navigation = UINavigationController.runtimeClass
    let subclasses = objc_copyClassList().filter { cls in
      guard let swift = cls.swiftClass, swift != UINavigationController.self else { return false }
      return swift is UINavigationController.Type && cls !== navigation
    }
    let why: Comment = """
      a UINavigationController subclass in the test binary would install the transparent-bar \
      plugin at the first launch, for every later test: hook the one object instead, as \
      Tests/DocsTests/Timelines.swift does
      """
    #expect(subclasses.map(\.name) == [], why)
  }

  @Test("a launch in this binary installs nothing and leaves no nextResponder hook behind")
  func launchIsInert() {
    final class Delegate: UIApplicationDelegate {
      var window: UIWindow?
      func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [String: Any]?
      ) -> Bool { true }
    }
    UIApplication.shared.launch(delegate: Delegate())
    #expect(!PluginRegistry.shared.isInstalled("swizzlekit.transparent"))
    let hooked = PluginRegistry.shared.hookMap.entries.contains {
      $0.method.className == "UIApplication" && $0.method.selectorName == "nextResponder"
    }
    #expect(!hooked, "the nextResponder hook took itself off")
  }

  @Test("the scenarios: the header fades in, popToRoot snaps to clear, the swipe follows")
  func scenarios() throws {
    let header = try TransparentBarScenarios.header.run()
    #expect(
      header.map { ($0.seenBar.backgroundOpacity * 100).rounded() / 100 } == [
        0, 0.2, 0.6, 0.8,
      ], "alpha offset / 136 under a translucent bar's 0.8")
    #expect(header.first?.seenBar.tintColor == UIColorComponents(.white))
    #expect(
      header.last?.seenBar.tintColor == UIColorComponents(TransparentBarDefaults.tintColor))
    let pop = try TransparentBarScenarios.popToTransparent.run()
    #expect(pop.map(\.seenBar.backgroundOpacity) == [0.8, 0, 0], "snapped when called")
    let swipe = try TransparentBarScenarios.swipeBack.run()
    #expect(swipe.map(\.seenBar.backgroundOpacity) == [0.8, 0.8, 0])
    #expect(swipe.last?.seenBar.tintColor == UIColorComponents(.white))
  }

  @Test(
    "the bar asks shouldPush: a root set up before it shows, and each pushed page, apply",
    .plugins(TransparentBarPlugin()))
  func shouldPushApplies() throws {
    let root = UIViewController()
    root.navBarBgAlpha = 0
    root.navBarTintColor = .white
    let navigation = UINavigationController(rootViewController: root)
    #expect(root.navigationController === navigation)
    let window = UIWindow(frame: UIScreen.main.bounds)
    window.rootViewController = navigation
    window.makeKeyAndVisible()
    #expect(backgroundAlpha(navigation.navigationBar) == 0, "the root's values, first frame")
    #expect(navigation.navigationBar.tintColor == .white)
    let page = UIViewController()
    page.navBarBgAlpha = 0.5
    navigation.pushViewController(page, animated: true)
    #expect(effectAlpha(navigation.navigationBar) == 0.5, "applied as the push shows its item")
    #expect(navigation.navigationBar.tintColor == TransparentBarDefaults.tintColor)
    VirtualRunLoop.main.runUntilIdle()
  }

  @Test("beside the bar-layer plugin, the bar-layer writes last: ET's clear root comes back opaque")
  func besideBarLayer() throws {
    let moments = try TransparentBarScenarios.besideBarLayer.run()
    #expect(
      moments.map(\.seenBar.backgroundOpacity) == [1, 1, 0, 1],
      "ET snaps to clear as popToRoot is called; the bar-layer's animation ends on its default")
    #expect(
      moments.last?.seenBar.tintColor == UIColorComponents(TransparentBarDefaults.tintColor))
    #expect(!PluginRegistry.shared.isInstalled("swizzlekit.bar-layer"), "the companion went too")
    #expect(!PluginRegistry.shared.isInstalled("swizzlekit.transparent"))
  }

  @Test(
    "ET #14: with a barTintColor set, alpha 0 clears the bar in the fixed mode, not the seed's",
    .plugins(TransparentBarPlugin()))
  func barTintColorKeepsTransparency() throws {
    TransparentBarPlugin.mode.value = .seed
    for version in ["10.3", "13.0"] {
      UIDevice.current.systemVersion = version
      let (navigation, transparent, _) = twoScreens()
      navigation.navigationBar.barTintColor = .red
      navigation.popViewController(animated: false)
      transparent.navBarBgAlpha = 0
      #expect(abs(backgroundAlpha(navigation.navigationBar) - 0.85) < 0.01, "seed, iOS \(version)")
    }
    TransparentBarPlugin.mode.value = .fixed
    for version in ["10.3", "13.0"] {
      UIDevice.current.systemVersion = version
      let (navigation, transparent, _) = twoScreens()
      navigation.navigationBar.barTintColor = .red
      navigation.popViewController(animated: false)
      #expect(navigation.topViewController === transparent)
      transparent.navBarBgAlpha = 0
      // The seed faded `_backgroundEffectView` alone: the red stayed at 0.85 opacity.
      #expect(backgroundAlpha(navigation.navigationBar) == 0, "iOS \(version)")
      transparent.navBarBgAlpha = 1
      #expect(backgroundAlpha(navigation.navigationBar) > 0.8, "and back, red again")
      // The other order: a tint set on a bar that is already clear keeps it clear.
      navigation.navigationBar.barTintColor = nil
      transparent.navBarBgAlpha = 0
      navigation.navigationBar.barTintColor = .green
      #expect(backgroundAlpha(navigation.navigationBar) == 0, "tint after alpha, iOS \(version)")
    }
  }

  /// A page that makes its bar clear in `viewDidLoad`, as ET #33's reporter's did.
  private final class ClearOnLoad: UIViewController {
    override func viewDidLoad() {
      super.viewDidLoad()
      navBarBgAlpha = 0
    }
  }

  @Test(
    "ET #33: a presented navigation controller's page with alpha 0 shows a clear bar",
    .plugins(TransparentBarPlugin()))
  func presentedNavigationController() throws {
    let (navigation, _, opaque) = twoScreens()
    let presented = UINavigationController(rootViewController: ClearOnLoad())
    opaque.present(presented, animated: true)
    VirtualRunLoop.main.runUntilIdle()
    #expect(backgroundAlpha(presented.navigationBar) == 0, "the presented bar is clear")
    #expect(backgroundAlpha(navigation.navigationBar) > 0.5, "the presenter's bar is its own")
    presented.dismiss(animated: true)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.presentedViewController == nil)
    #expect(backgroundAlpha(navigation.navigationBar) > 0.5)
  }

  @Test("alpha is clamped to 0...1")
  func clamped() {
    let controller = UIViewController()
    controller.navBarBgAlpha = 3
    #expect(controller.navBarBgAlpha == 1)
    controller.navBarBgAlpha = -1
    #expect(controller.navBarBgAlpha == 0)
  }
}
