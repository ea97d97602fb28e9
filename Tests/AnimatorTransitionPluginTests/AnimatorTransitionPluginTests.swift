// The animator plugin on the model: KJNavigationController's animators and edge pan as the seed
// wrote them, the plugin that adopts every navigation controller beside the app's delegate, and
// the seed's three bugs, each shown in seed mode and fixed by the plugin.
import AnimatorTransitionPlugin
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import SwizzleKitTesting
import Synchronization
import Testing
import UIKitModel

/// An app's own delegate, a plain Swift class: counts `didShow` and can hand out an animator.
final class AppDelegateOfItsOwn: UINavigationControllerDelegate {
  var shown: [String] = []
  var animator: (any UIViewControllerAnimatedTransitioning)?

  func navigationController(
    _ navigationController: UINavigationController, didShow viewController: UIViewController,
    animated: Bool
  ) { shown.append(viewController.title ?? "?") }

  func navigationController(
    _ navigationController: UINavigationController,
    animationControllerFor operation: UINavigationControllerOperation,
    from fromVC: UIViewController, to toVC: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)? { animator }
}

/// An animator of the app's: fades the coming view in over 0.1 s, and counts its runs.
final class QuickAnimator: UIViewControllerAnimatedTransitioning {
  var runs = 0
  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?)
    -> TimeInterval
  { 0.1 }
  func animateTransition(using context: any UIViewControllerContextTransitioning) {
    runs += 1
    let view = context.view(forKey: .to)
    view?.alpha = 0
    UIView.animate(
      withDuration: 0.1, animations: { view?.alpha = 1 },
      completion: { _ in context.completeTransition(true) })
  }
}

/// A session whose window shows KJNavigationController (the seed) over the home page.
@MainActor private func seedSession(device: DeviceProfile = .iPhone8) throws -> NavigationSession {
  UIScreen.main.profile = device
  let navigation = try KJNavigationController.make(
    rootViewController: AnimatorTransitionScenarios.homePage())
  return NavigationSession(navigationController: navigation, device: device)
}

/// A session on a plain navigation controller (the plugin adopts it when installed).
@MainActor private func plainSession(device: DeviceProfile = .iPhone8) -> NavigationSession {
  NavigationSession(root: AnimatorTransitionScenarios.homePage(), device: device)
}

@MainActor
@Suite("Animator plugin", .uiKitModel)
struct AnimatorTransitionPluginTests {
  @Test("the seed's push: the bar from the home page's values to the cyan page's, linear, 0.25 s")
  func seedPush() throws {
    let session = try seedSession()
    let navigation = session.navigationController
    #expect(object_getClass(navigation)?.name == "KJNavigationController")
    #expect(navigation.delegateObject === navigation, "its own delegate")
    let home = try #require(navigation.topViewController)
    let cyan = AnimatorTransitionScenarios.cyanPage()
    navigation.pushViewController(cyan, animated: true)
    VirtualRunLoop.main.advance(by: 0.125)
    let half = navigation.navigationBar.asSeen(over: .white)
    #expect(
      half.backgroundColor == UIColorComponents(UIColor(red: 0.5, green: 1, blue: 1, alpha: 1)))
    #expect(abs(cyan.view.presentationFrame.minX - 375 / 2) < 1e-6)
    #expect(abs(home.view.presentationFrame.minX - -50) < 1e-6)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.topViewController === cyan && cyan.view.frame.minX == 0)
    #expect(navigation.navigationBar.asSeen().titleColor == UIColorComponents(.white))
  }

  @Test("the seed's pop: a shadow faded by a CABasicAnimation whose delegate is the animator")
  func seedPop() throws {
    let stops = Atomic(0)
    let token = try KJPopAnimator.hook(before: "animationDidStop:finished:") {
      (animator, _: CABasicAnimation?, finished: Bool) in
      if finished && animator.mode == .seed { stops.add(1, ordering: .relaxed) }
    }
    defer { token.remove() }
    let session = try seedSession()
    let navigation = session.navigationController
    let cyan = AnimatorTransitionScenarios.cyanPage()
    session.push(cyan)
    navigation.popViewController(animated: true)
    VirtualRunLoop.main.advance(by: 0.125)
    #expect(cyan.view.layer.shadowRadius == 8)
    let shadow = try #require(cyan.view.layer.presentation()).shadowOpacity
    #expect(abs(shadow - 0.25) < 0.01, "0.5 fading to 0, half way")
    let masks = navigation.view.subviews.filter {
      $0.presentationBackgroundColor.map { $0.red == 0 && $0.alpha > 0 } ?? false
    }
    #expect(masks.count == 1, "the black mask, fading")
    VirtualRunLoop.main.runUntilIdle()
    #expect(cyan.view.layer.shadowOpacity == 0)
    #expect(navigation.viewControllers.count == 1)
    #expect(stops.load(ordering: .relaxed) == 1, "told through the runtime, once")
  }

  @Test("seed bug: the background view is 20 points taller than the bar, short on an iPhone X")
  func notchBackground() throws {
    let seed = try seedSession(device: .iPhoneX)
    seed.push(AnimatorTransitionScenarios.cyanPage())
    let seen = seed.navigationController.navigationBar.asSeen(over: .white)
    #expect(seen.statusBarAreaColor == UIColorComponents(.cyan))
    #expect(seen.backgroundColor != UIColorComponents(.cyan), "the bar's lower part uncovered")
  }

  /// KJNavigationController's `backgroundView` getter ends with `self.backgroundColor =
  /// [UIColor clearColor]` outside its `if`: every access clears the bar's own colour.
  @Test("seed: every access to the background view clears the bar's colour; fixed: only once")
  func backgroundColorClearedOnEveryAccess() {
    let session = plainSession(device: .iPhone8)
    let bar = session.navigationController.navigationBar
    _ = bar.kj_backgroundView(mode: .seed)
    bar.backgroundColor = .red
    _ = bar.kj_backgroundView(mode: .seed)
    #expect(bar.backgroundColor == .clear)
    bar.backgroundColor = .red
    _ = bar.kj_backgroundView(mode: .fixed)
    #expect(bar.backgroundColor == .red)
  }

  @Test(
    "fixed: the background covers the notch device's whole bar",
    .plugins(AnimatorTransitionPlugin()))
  func notchBackgroundFixed() {
    let session = plainSession(device: .iPhoneX)
    session.push(AnimatorTransitionScenarios.cyanPage())
    let seen = session.navigationController.navigationBar.asSeen(over: .white)
    #expect(seen.statusBarAreaColor == UIColorComponents(.cyan))
    #expect(seen.backgroundColor == UIColorComponents(.cyan))
  }

  @Test(
    "seed bug: an edge pan on the root drives a pop that never started; the plugin's does not begin"
  )
  func rootPan() throws {
    let moments = try AnimatorTransitionScenarios.rootPan.run()
    #expect(
      moments.map(\.name) == [
        "seed: root after the pan (interaction never started)", "fixed: root after the pan",
      ])
  }

  @Test("seed bug: a cancelled swipe leaves the bar and title wrong; the plugin sets them back")
  func cancelledSwipe() throws {
    let moments = try AnimatorTransitionScenarios.swipeBack.run()
    func seen(_ name: String) throws -> SeenBar {
      try #require(moments.first { $0.name == name }).seenBar
    }
    #expect(try seen("seed: cancelled at 30 %").titleColor == UIColorComponents(.black))
    #expect(try seen("seed: cancelled at 30 %").backgroundColor == UIColorComponents(.white))
    #expect(try seen("fixed: cancelled at 30 %").titleColor == UIColorComponents(.white))
    #expect(try seen("fixed: cancelled at 30 %").backgroundColor == UIColorComponents(.cyan))
    #expect(try seen("fixed: finished from 70 %").titleColor == UIColorComponents(.black))
  }

  @Test(
    "installed: every navigation controller gets the transitions and an edge pan",
    .plugins(AnimatorTransitionPlugin()))
  func pluginAdopts() throws {
    let session = plainSession()
    let navigation = session.navigationController
    let proxy = try #require(TransitionDelegateProxy.proxy(of: navigation))
    #expect(navigation.delegateObject === proxy)
    #expect(navigation.view.gestureRecognizers?.contains { $0 === proxy.edgePan } == true)
    #expect(navigation.interactivePopGestureRecognizer?.isEnabled == false, "replaced")
    let cyan = AnimatorTransitionScenarios.cyanPage()
    navigation.pushViewController(cyan, animated: true)
    VirtualRunLoop.main.advance(by: 0.125)
    #expect(
      navigation.navigationBar.asSeen(over: .white).backgroundColor
        == UIColorComponents(UIColor(red: 0.5, green: 1, blue: 1, alpha: 1)))
    VirtualRunLoop.main.runUntilIdle()
    session.swipeBack(to: 0.7)
    #expect(navigation.viewControllers.count == 1, "the plugin's edge pan popped")
  }

  @Test(
    "an app's own delegate keeps hearing didShow, set before or after; its animator wins",
    .plugins(AnimatorTransitionPlugin()))
  func appDelegateKeepsWorking() throws {
    // Set before the view loads: the proxy takes it inside when it adopts the controller.
    let early = AppDelegateOfItsOwn()
    let adoptedLater = UINavigationController(
      rootViewController: AnimatorTransitionScenarios.homePage())
    adoptedLater.delegate = early
    let first = NavigationSession(navigationController: adoptedLater)
    #expect(TransitionDelegateProxy.proxy(of: adoptedLater)?.inner === early)
    first.push(AnimatorTransitionScenarios.cyanPage())
    #expect(early.shown == ["Cyan"])
    // Set after.
    let session = plainSession()
    let navigation = session.navigationController
    let app = AppDelegateOfItsOwn()
    navigation.delegate = app
    let proxy = try #require(TransitionDelegateProxy.proxy(of: navigation))
    #expect(navigation.delegateObject === proxy && proxy.inner === app)
    session.push(AnimatorTransitionScenarios.cyanPage()).pop()
    #expect(app.shown == ["Cyan", "Home"])
    let quick = QuickAnimator()
    app.animator = quick
    session.push(AnimatorTransitionScenarios.cyanPage())
    #expect(quick.runs == 1, "the app's animator ran, not the plugin's")
    #expect(app.shown.last == "Cyan")
  }

  @Test("uninstalled: the app's delegate and the system's swipe-back are back, the proxy freed")
  func uninstallGivesBack() throws {
    let registry = PluginRegistry.shared
    let identifier = AnimatorTransitionPlugin().identifier
    #expect(!registry.isInstalled(identifier))
    #expect(try registry.install(AnimatorTransitionPlugin()))
    let session = plainSession()
    let navigation = session.navigationController
    let app = AppDelegateOfItsOwn()
    navigation.delegate = app
    weak let proxy = TransitionDelegateProxy.proxy(of: navigation)
    weak let edgePan = proxy?.edgePan
    #expect(proxy != nil)
    registry.uninstall(identifier)
    #expect(navigation.delegateObject === app)
    #expect(navigation.interactivePopGestureRecognizer?.isEnabled == true)
    #expect(proxy == nil && edgePan == nil, "no cycle keeps the proxy or its pan")
    session.push(AnimatorTransitionScenarios.cyanPage())
    #expect(app.shown == ["Cyan"])
  }

  @Test("the seed's subclass takes the run's iOS version: on iOS 10 its bar is the old one")
  func seedHalfVersion() throws {
    let legacy = Mutex<[Bool]>([])
    let scenario = Scenario(name: "kj-version", summary: "") { context in
      AnimatorTransitionScenarios.runHalf(.seed, context) { session in
        let bar = session.navigationController.navigationBar
        legacy.withLock { $0.append(bar.usesLegacyHierarchy) }
      }
    }
    _ = try scenario.run(options: ScenarioOptions(systemVersion: "10.3", plugins: []))
    #expect(legacy.withLock { $0 } == [true])
  }

  @Test("a KJNavigationController and its stack are freed when let go")
  func seedFreed() throws {
    weak var navigation: UINavigationController?
    do {
      let session = try seedSession()
      navigation = session.navigationController
      session.push(AnimatorTransitionScenarios.cyanPage())
      UIApplication.resetModel()
    }
    #expect(navigation == nil, "the edge pan's target is held weakly")
  }

  @Test("a controller's bar values: alpha clamped to 0...1, NaN refused; defaults white, 1, black")
  func controllerValues() {
    let page = UIViewController()
    #expect(page.kj_navigationBarTintColor == .white && page.kj_navigationBarAlpha == 1)
    #expect(page.kj_navigationTitleColor == .black)
    page.kj_navigationBarAlpha = 3
    #expect(page.kj_navigationBarAlpha == 1)
    page.kj_navigationBarAlpha = .nan
    #expect(page.kj_navigationBarAlpha == 1)
    page.kj_navigationBarAlpha = -2
    #expect(page.kj_navigationBarAlpha == 0)
  }

  @Test("the scenarios: every profile and device, golden timelines, the same twice")
  func suite() {
    expectScenarioSuite(AnimatorTransitionScenarios.all)
  }

  @Test("every scenario runs its seed half, then the plugin's")
  func seedThenFixed() throws {
    for scenario in AnimatorTransitionScenarios.all {
      let moments = try scenario.run()
      #expect(moments.contains { $0.name.hasPrefix("seed: ") })
      #expect(moments.contains { $0.name.hasPrefix("fixed: ") })
    }
  }
}
