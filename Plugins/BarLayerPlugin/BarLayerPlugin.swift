// The plugin: the hooks that keep the bar right through every transition, installed once.
public import Foundation
public import Hooks
import ObjCRuntime
import Synchronization
public import UIKitModel

/// The WRNavigationBar technique as a SwizzleKit plugin: one line per view controller sets its
/// bar's background colour or image, background alpha, button tint, title colour, status bar
/// style and hairline, and the plugin keeps the bar right through push, pop, popTo, popToRoot
/// and the interactive swipe-back, cancelled or finished.
///
/// ```swift
/// _ = BarLayerPlugin.installation          // once, from any thread
/// profile.navBarBarTintColor = .white
/// profile.navBarBackgroundAlpha = 0        // transparent until the user scrolls
/// profile.navBarTitleColor = .white
/// profile.statusBarStyle = .lightContent
/// ```
///
/// It is built on the hook API only (see `Docs/Plugins.md`): instead hooks wrap the four stack
/// operations with a display link inside a `CATransaction`, before hooks follow the appearance
/// callbacks and `_updateInteractiveTransition:`, and an instead hook answers
/// `navigationBar:shouldPopItem:`.
///
/// It is a `ScenarioPlugin`: hosts such as `swizzle-lab` find it without naming it, under its
/// short name `bar-layer`, with the seed's demo screens as its scenarios.
public struct BarLayerPlugin: HookPlugin {
  /// `swizzlekit.bar-layer`.
  public let identifier = "swizzlekit.bar-layer"
  /// One line.
  public let summary =
    "WRNavigationBar's technique: per-controller bar colour, alpha, tint, title and status bar,"
    + " kept right through transitions"

  /// A plugin value; install it with ``installation`` or `PluginRegistry.shared.install(_:)`.
  public init() {}

  /// Installs the plugin once, however many threads ask: the seeds' `static let` idiom. A
  /// failure is reported through `Diagnostics` and kept here (`.succeeded` is then false).
  public static let installation = PluginRegistry.shared.installOnce(BarLayerPlugin())

  /// Installs the hooks.
  public func install() throws {
    try installTransitionHooks()
    try installAppearanceHooks()
    try installBarHooks()
    BarLayerPlugin.isOn.store(true, ordering: .releasing)
  }

  /// Takes the plugin's views off the bars it changed; the registry removes the hooks.
  public func uninstall() {
    BarLayerPlugin.isOn.store(false, ordering: .releasing)
    TouchedBars.all.undoAll()
  }

  /// Whether the plugin is installed: set at the end of a successful ``install()`` and at the
  /// start of ``uninstall()``, so that the one-line API changes no bar while the plugin is off.
  /// An atomic flag rather than the registry's answer, which takes its lock and hashes the
  /// identifier on every appearance callback.
  internal static let isOn = Atomic(false)

  // MARK: Transitions

  private func installTransitionHooks() throws {
    try UINavigationController.hook(instead: "pushViewController:animated:") {
      (
        original: HookOriginal<Void, UIViewController, Bool>, navigation,
        controller: UIViewController, animated: Bool
      ) in
      MainThread.assumeIsolated(with: original) { original in
        guard animated else { return original(controller, animated) }
        let duration = BarLayer.settings.value.pushDuration
        navigation.barLayerRunDisplayLink(
          duration: duration, onFinish: { controller.pushToCurrentVCFinished = true }
        ) {
          original(controller, animated)
        }
      }
    }
    try UINavigationController.hook(instead: "popViewControllerAnimated:") {
      (original: HookOriginal<ObjCObject?, Bool>, navigation, animated: Bool) -> ObjCObject? in
      MainThread.assumeIsolated(with: original) { original in
        guard animated else { return original(animated) }
        return navigation.barLayerAnimatedPop { original(animated) }
      }
    }
    try UINavigationController.hook(instead: "popToViewController:animated:") {
      (
        original: HookOriginal<ObjCObject?, UIViewController, Bool>, navigation,
        target: UIViewController, animated: Bool
      ) -> ObjCObject? in
      MainThread.assumeIsolated(with: original) { original in
        // The original sets the title colour (and WR-O the tint) at once.
        if BarLayerPluginRules.manages(target) {
          navigation.navigationBar.barLayerSetTitleColor(target.navBarTitleColor)
          navigation.navigationBar.tintColor = target.navBarTintColor
        }
        guard animated else { return original(target, animated) }
        return navigation.barLayerAnimatedPop { original(target, animated) }
      }
    }
    try UINavigationController.hook(instead: "popToRootViewControllerAnimated:") {
      (original: HookOriginal<ObjCObject?, Bool>, navigation, animated: Bool) -> ObjCObject? in
      MainThread.assumeIsolated(with: original) { original in
        guard animated else { return original(animated) }
        return navigation.barLayerAnimatedPop { original(animated) }
      }
    }
    try UINavigationController.hook(before: "_updateInteractiveTransition:") {
      (navigation, percent: Double) in
      MainThread.assumeIsolated {
        guard let coordinator = navigation.topViewController?.transitionCoordinator,
          let from = coordinator.viewController(forKey: .from),
          let to = coordinator.viewController(forKey: .to)
        else { return }
        navigation.barLayerUpdate(from: from, to: to, progress: CGFloat(percent))
      }
    }
    try UINavigationController.hook(instead: "navigationBar:shouldPopItem:") {
      (
        original: HookOriginal<Bool, UINavigationBar, UINavigationItem>, navigation,
        bar: UINavigationBar, item: UINavigationItem
      ) -> Bool in
      // The answer, or nil for the original's.
      let answer: Bool? = MainThread.assumeIsolated {
        if let coordinator = navigation.topViewController?.transitionCoordinator,
          coordinator.initiallyInteractive
        {
          coordinator.notifyWhenInteractionChanges { context in
            navigation.barLayerDealInteractionChanges(context)
          }
          return true
        }
        let controllers = navigation.viewControllers
        let n = controllers.count >= (bar.items?.count ?? 0) ? 2 : 1
        guard controllers.count >= n, controllers.count > 1 else { return nil }
        navigation.popToViewController(controllers[controllers.count - n], animated: true)
        // iOS 13 raises if this returns YES after popping by hand (WR-S crashed there; WR-O fixed
        // it in 8670850).
        return UIDevice.current.majorSystemVersion < 13
      }
      return answer ?? original(bar, item)
    }
  }

  // MARK: Appearance callbacks

  private func installAppearanceHooks() throws {
    try UIViewController.hook(before: "viewWillAppear:") { (controller, _: Bool) in
      MainThread.assumeIsolated {
        guard controller.canUpdateBarLayer, let bar = controller.barLayerBar else { return }
        controller.pushToNextVCFinished = false
        bar.tintColor = controller.navBarTintColor
        bar.barLayerSetTitleColor(controller.navBarTitleColor)
      }
    }
    try UIViewController.hook(before: "viewWillDisappear:") { (controller, _: Bool) in
      MainThread.assumeIsolated {
        guard controller.canUpdateBarLayer else { return }
        controller.pushToNextVCFinished = true
      }
    }
    try UIViewController.hook(before: "viewDidAppear:") { (controller, _: Bool) in
      MainThread.assumeIsolated {
        if controller.navigationController?.viewControllers.first !== controller {
          controller.pushToCurrentVCFinished = true
        }
        guard controller.canUpdateBarLayer, let bar = controller.barLayerBar else { return }
        TouchedBars.note(bar)
        controller.applyBarLayer(to: bar)
      }
    }
    // The seeds' override of -[UINavigationController preferredStatusBarStyle]: a navigation
    // controller whose bar shows answers for the status bar, with its top controller's style.
    try UINavigationController.hook(instead: "preferredStatusBarStyle") {
      (original: HookOriginal<Int>, navigation) -> Int in
      MainThread.assumeIsolated(with: original) { original in
        navigation.topViewController.map { $0.statusBarStyle.rawValue } ?? original()
      }
    }
  }

  // MARK: The bar

  private func installBarHooks() throws {
    // Keep the title colour when new attributes come without one (WR's README 2017-06-29).
    try UINavigationBar.hook(instead: "setTitleTextAttributes:") {
      (original: HookOriginal<Void, TextAttributesBox?>, bar, box: TextAttributesBox?) in
      let attributes = MainThread.assumeIsolated {
        var attributes = box?.attributes ?? [:]
        if attributes.foregroundColor == nil, let kept = bar.titleTextAttributes?.foregroundColor {
          attributes[.foregroundColor] = kept
        }
        return attributes
      }
      let merged = TextAttributesBox(attributes)
      withExtendedLifetime(merged) { original(merged) }
    }
    try UINavigationBar.hook(after: "insertSubview:atIndex:") { (bar, _: UIView?, _: Int) in
      MainThread.assumeIsolated {
        bar.barLayerKeepBackgroundAtBottom()
      }
    }
  }
}

// MARK: - Transition machinery

// nonisolated: a direct subclass of ObjCObject, which in a main-actor target Swift 6.3 cannot
// make isolated (Docs/Porting.md, section 9); its model work is marked @MainActor.
/// Drives the bar while a push or pop runs: a display link of its own per navigation controller
/// (the originals share one static counter between all of them).
nonisolated final class BarLayerTicker: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(BarLayerTicker.self) {
      ObjCMethodDeclaration("barLayerTick:", BarLayerTicker.tick)
    }
  }

  weak var navigation: UINavigationController?
  let duration: TimeInterval
  private(set) var ticks = 0
  private(set) var progresses: [CGFloat] = []
  var link: CADisplayLink?

  init(navigation: UINavigationController, duration: TimeInterval) {
    self.navigation = navigation
    self.duration = duration
    super.init()
  }

  static let tick: @convention(c) (id, SEL, id?) -> Void = { me, _, _ in
    MainThread.assumeIsolated(with: me) { me in
      guard let ticker = me.takeUnretainedObject(as: BarLayerTicker.self),
        let navigation = ticker.navigation,
        let coordinator = navigation.topViewController?.transitionCoordinator,
        let from = coordinator.viewController(forKey: .from),
        let to = coordinator.viewController(forKey: .to)
      else { return }
      ticker.ticks += 1
      let progress = BarLayer.progress(ticks: ticker.ticks, duration: ticker.duration)
      ticker.progresses.append(progress)
      navigation.barLayerUpdate(from: from, to: to, progress: progress)
    }
  }

  @MainActor func stop() {
    link?.invalidate()
    link = nil
  }
}

private let tickerKey = AssociatedKey<BarLayerTicker?>()

extension UINavigationController {
  /// The progress of each display-link tick of this controller's last push or pop (WRNavigationBar's
  /// formula), for tests and tools.
  public var barLayerTickProgresses: [CGFloat] { self[tickerKey]?.progresses ?? [] }

  /// Runs `operation` inside a transaction whose completion stops a display link that
  /// interpolates the bar with WRNavigationBar's progress formula.
  func barLayerRunDisplayLink(
    duration: TimeInterval, onFinish: @escaping () -> Void, _ operation: () -> Void
  ) {
    self[tickerKey]?.stop()
    let ticker = BarLayerTicker(navigation: self, duration: duration)
    let link = CADisplayLink(target: ticker, selector: "barLayerTick:")
    ticker.link = link
    self[tickerKey] = ticker
    link.add(to: .main, forMode: .common)
    CATransaction.setCompletionBlock {
      ticker.stop()
      onFinish()
    }
    CATransaction.setAnimationDuration(duration)
    CATransaction.begin()
    operation()
    CATransaction.commit()
  }

  /// Runs one of the original pops inside the plugin's display link, for the pop duration; what
  /// it popped.
  func barLayerAnimatedPop(_ pop: () -> ObjCObject?) -> ObjCObject? {
    var popped: ObjCObject?
    let duration = BarLayer.settings.value.popDuration
    barLayerRunDisplayLink(duration: duration, onFinish: {}, { popped = pop() })
    return popped
  }

  /// Sets the bar between `from`'s and `to`'s values at `progress` (colour, alpha, tint and,
  /// unlike the Swift original, the title colour).
  func barLayerUpdate(from: UIViewController, to: UIViewController, progress: CGFloat) {
    guard BarLayerPluginRules.manages(to) else { return }
    let bar = navigationBar
    TouchedBars.note(bar)
    let color = BarLayer.middleColor(
      UIColorComponents(from.navBarBarTintColor), UIColorComponents(to.navBarBarTintColor),
      progress)
    bar.barLayerSetBackgroundColor(color.color)
    bar.barLayerSetBackgroundAlpha(
      BarLayer.middleAlpha(from.navBarBackgroundAlpha, to.navBarBackgroundAlpha, progress))
    if BarLayerPluginRules.manages(from) {
      bar.tintColor =
        BarLayer.middleColor(
          UIColorComponents(from.navBarTintColor), UIColorComponents(to.navBarTintColor), progress
        ).color
    }
    bar.barLayerSetTitleColor(
      BarLayer.middleColor(
        UIColorComponents(from.navBarTitleColor), UIColorComponents(to.navBarTitleColor), progress
      ).color)
  }

  /// A released swipe-back: back to the from-controller's values over `duration x percent` on a
  /// cancel (at once with `instantCancel`), on to the to-controller's over
  /// `duration x (1 - percent)` on a finish.
  func barLayerDealInteractionChanges(_ context: any UIViewControllerTransitionCoordinatorContext) {
    guard let from = context.viewController(forKey: .from),
      let to = context.viewController(forKey: .to)
    else { return }
    let percent = Double(context.percentComplete)
    let target = context.isCancelled ? from : to
    let duration =
      context.isCancelled
      ? (BarLayer.settings.value.instantCancel ? 0 : context.transitionDuration * percent)
      : context.transitionDuration * (1 - percent)
    let bar = navigationBar
    UIView.animate(withDuration: duration, delay: 0, options: .curveLinear) {
      bar.barLayerSetBackgroundColor(target.navBarBarTintColor)
      bar.barLayerSetBackgroundAlpha(target.navBarBackgroundAlpha)
      bar.tintColor = target.navBarTintColor
    }
    bar.barLayerSetTitleColor(target.navBarTitleColor)
  }
}

/// The bars the plugin changed, held weakly, so that uninstalling can give them back: the
/// plugin's views taken off, UIKit's background given back.
enum TouchedBars {
  // nonisolated: PluginChanges is Sendable, and uninstall() runs from any thread.
  nonisolated static let all = PluginChanges<UINavigationBar>()

  static func note(_ bar: UINavigationBar) {
    all.note(bar) { bar in MainThread.assumeIsolated { bar.barLayerRemoveBackground() } }
  }
}
