// The plugin: ETNavBarTransparent's exchanges, installed once, woken the EM seed's way.
import Foundation
public import Hooks
import ObjCRuntime
import Synchronization
import UIKitModel

/// Which code path the plugin runs: the seeds' as written, bugs included, or the mended one.
public enum TransparentMode: String, Sendable, CaseIterable {
  /// ETNavBarTransparent and the EM article as written: the release callback registered on
  /// every update of a swipe (a swipe of N updates calls back N + 1 times); the article's
  /// `em_updateInteractiveTransition:` guard, which returns before calling the original unless
  /// the navigation controller is the app's own subclass (EMNavigationController), so a plain
  /// one's interactive pop is never updated; the article's `navigationBar:shouldPopItem:`,
  /// which pops by hand and answers YES on every version (an error from iOS 13); EM's background
  /// view with its height the wrong way round (64 points on an iPhone X, 88 on the others);
  /// the alpha set on `navigationBar.subviews.first`, whatever view that is at the time, and
  /// never on the background's image views (EM's iOS 11 variant).
  case seed
  /// The same technique, mended: one release callback per swipe, the original always called,
  /// ET's iOS 13 `shouldPopItem`, the background view as tall as the status bar and the bar,
  /// the alpha set on the whole background (image views and the plugin's own view included, so
  /// an opaque bar or one with a background image fades too) found by its class, and set again
  /// whenever the bar inserts its background (as iOS 18 does during every push and pop, and
  /// iOS 12 when a navigation controller is presented: HBDNavigationBar pull request 191,
  /// WRNavigationBar issue 153).
  case fixed
}

/// The classic swizzle as a SwizzleKit plugin: ETNavBarTransparent and EMNavigationBarTransition.
///
/// Methods with the `et_` prefix are added to `UINavigationController` at run time and
/// **exchanged** with `_updateInteractiveTransition:`, `popViewControllerAnimated:`,
/// `popToViewController:animated:` and `popToRootViewControllerAnimated:` with
/// `method_exchangeImplementations`; each replacement reaches the original by sending its own
/// `et_` selector, as an exchanged method does. `navigationBar:shouldPopItem:` and
/// `preferredStatusBarStyle` are replaced outright, as ET's extension did (category methods
/// overriding UIKit's). One line per view
/// controller sets its bar's background alpha and tint (`navBarBgAlpha`, `navBarTintColor`),
/// and EM's colour, title colour, status bar style and hairline.
///
/// ```swift
/// _ = TransparentBarPlugin.installation    // once, from any thread: the seeds' static let
/// profile.navBarBgAlpha = 0                // transparent while the profile is on top
/// ```
///
/// Installed through the registry, the exchanges are attributed to the plugin in the hook map
/// and exchanged back on uninstall, unless someone swizzled on top since (then a warning names
/// them and the methods stay as they are).
public struct TransparentBarPlugin: DiscoverablePlugin {
  /// `swizzlekit.transparent`.
  public let identifier = "swizzlekit.transparent"
  /// One line.
  public let summary =
    "ETNavBarTransparent's technique: per-controller bar alpha and tint, by exchanging"
    + " UINavigationController's methods at run time"

  /// A plugin value; install it with ``installation`` or `PluginRegistry.shared.install(_:)`.
  public init() {}

  /// Installs the plugin once, however many threads or awake() calls ask: the seeds' `static
  /// let`, which runs its initializer exactly once (`dispatch_once` in Objective-C). Exchanging
  /// twice would undo the swizzle.
  public static let installation = PluginRegistry.shared.installOnce(TransparentBarPlugin())

  /// Adds the `et_` methods and exchanges them with the originals; replaces
  /// `navigationBar:shouldPopItem:` and `preferredStatusBarStyle`, as ET's extension did.
  public func install() throws {
    try TransparentExchanges.exchange()
    do {
      try TransparentCategory.install()
      // The fixed mode's answer to a bar that inserts its background again; the registry takes
      // the hook off on uninstall, and off a failed install.
      try UINavigationBar.hook(after: "insertSubview:atIndex:") {
        (bar: UINavigationBar, view: UIView, _: Int) in
        MainThread.assumeIsolated {
          bar.transparentBackgroundInserted(view)
        }
      }
      // The fixed mode's scroll-edge look follows the bar's legacy background image, whoever
      // sets it (another plugin, the app).
      try UINavigationBar.hook(after: "setBackgroundImage:forBarMetrics:") {
        (bar: UINavigationBar, _: UIImage?, _: Int) in
        MainThread.assumeIsolated {
          bar.transparentFollowLegacyLook()
        }
      }
    } catch {
      TransparentCategory.uninstall()
      TransparentExchanges.exchangeBack()
      throw error
    }
  }

  /// The code path the plugin runs, ``TransparentMode/fixed`` until set. Any thread may set it;
  /// it takes effect at the next call the plugin handles.
  public static let mode = PluginSetting(TransparentMode.fixed)

  /// How many release callbacks of swipe-backs have run in this process (one per swipe; ET's
  /// code registered one per update of the swipe), for tests and tools.
  public static var releaseCallbacks: Int { releaseCount.load(ordering: .relaxed) }

  /// Counts the release callbacks.
  internal static let releaseCount = Atomic<Int>(0)

  /// Exchanges the methods back and gives back UIKit's implementations, where nobody changed
  /// them since; takes the plugin's background views off the bars.
  public func uninstall() {
    TransparentCategory.uninstall()
    TransparentExchanges.exchangeBack()
    TransparentTouchedBars.all.undoAll()
  }
}

// MARK: - The trigger

/// EMNavigationBarTransition's own `SelfAware`: a protocol of the plugin's (the seed's is
/// private), found only by walking `objc_getClassList`, never by the runtime's discovery. The
/// walk asks `UINavigationController` and its subclasses, the classes the seed made conform.
public protocol TransparentBarAware: AnyObject {
  /// Called once per class the walk finds, at the application's launch.
  static func awake()
}

/// The seed's conformance: every subclass of `UINavigationController` is `TransparentBarAware`;
/// `UINavigationController` itself returns early, and a subclass installs the plugin through
/// its `static let`.
///
/// Linking the plugin is enough, as linking EM was: the first launch of a process with a
/// `UINavigationController` subclass installs it, for the whole process. A test binary that
/// links the plugin must therefore declare no such subclass (the plugin's tests check it).
extension UINavigationController: TransparentBarAware {
  /// Installs the plugin when called on a subclass of `UINavigationController`.
  public static func awake() {
    guard self != UINavigationController.self else { return }
    _ = TransparentBarPlugin.installation
  }
}

/// The seed's `UIApplication.next` override and its `runOnce`. A Swift extension cannot
/// override here, so a `SelfAware` class of the plugin (the analogue of code compiled into the
/// app, woken before `nextResponder` is read) hooks `-[UIApplication nextResponder]` at the
/// launch; the hook's first call walks the class list and awakes every `TransparentBarAware`
/// class, then takes itself off.
package final class TransparentBarLaunch: SelfAware {
  /// Arms the hook, at an application's launch only: a discovery pass of a test or a tool
  /// wakes this class too, and must not change the process.
  package static func awake() {
    guard UIApplication.isLaunching else { return }
    do {
      let token = try UIApplication.hook(before: "nextResponder") { _ in
        MainThread.assumeIsolated {
          TransparentBarLaunch.runOnce
        }
      }
      armed.withLock { $0 = token }
    } catch {
      Diagnostics.warn(
        "transparent: the launch trigger could not be armed: \(error)", kind: .plugin)
    }
  }

  /// The hook, until its first call takes it off.
  private static let armed = RuntimeLock<HookToken?>(nil)

  /// The seed's `runOnce`: a `static let` runs its initializer once. The hook comes off first,
  /// so that nothing the awakes do can read `nextResponder` back into this initializer.
  static let runOnce: Void = {
    armed.withLock { token in
      token?.remove()
      token = nil
    }
    walkClassList()
  }()

  /// The seed's `NothingToSeeHere.harmlessFunction()`: count the classes, fill a buffer with
  /// `objc_getClassList`, and awake each class that casts to the protocol.
  ///
  /// No class is cast to the protocol: its one conformance is `UINavigationController`'s, which
  /// its subclasses inherit, and a Swift cast to a protocol scans every conformance record of
  /// the process the first time it meets a type. Casting all of the classes, as the seed did,
  /// cost about 9 million instructions here (most of a launch's installation); the cast to the
  /// navigation controller's class walks only each class's superclass chain.
  /// Returns how many classes it awoke (the benchmark measures the walk through it).
  @discardableResult
  package static func walkClassList() -> Int {
    var awoken = 0
    // The seed's buffer: optional metatypes, allocated and never initialized.
    let count = Int(objc_getClassList(nil, 0))
    let types = UnsafeMutablePointer<AnyClass?>.allocate(capacity: count)
    defer { types.deallocate() }
    let filled = Int(
      objc_getClassList(AutoreleasingUnsafeMutablePointer<AnyClass>(types), Int32(count)))
    for index in 0..<min(count, filled) {
      // A class cast walks the superclass chain; a navigation controller's class is aware
      // through UINavigationController's conformance, which it inherits.
      guard let navigation = types[index] as? UINavigationController.Type else { continue }
      let aware: any TransparentBarAware.Type = navigation
      aware.awake()
      awoken += 1
    }
    return awoken
  }
}

// MARK: - What the replacements do

/// Which coordinator the release callback was registered on, held weakly: a new transition's
/// coordinator never looks like an old one. A class, so that the association holds it as an
/// object and a read is a retain, not the copy of a weak reference.
private final class Registration {
  weak var coordinator: UIViewControllerTransitionCoordinator?
  init(_ coordinator: UIViewControllerTransitionCoordinator) { self.coordinator = coordinator }
}

private let registeredKey = AssociatedKey<Registration?>()

extension UINavigationController {
  /// `et_updateInteractiveTransition:`'s work: the alpha and tint between the from- and
  /// to-controller's at `percent` (0 and system blue stand for a missing controller, as in ET),
  /// and the release callback registered once per transition. ET registered it on every update,
  /// so a swipe of 30 frames ran it 30 times at the release.
  internal func transparentUpdateInteractive(percent: CGFloat) {
    guard let coordinator = topViewController?.transitionCoordinator else { return }
    transparentRegisterRelease(on: coordinator)
    let from = coordinator.viewController(forKey: .from)
    let to = coordinator.viewController(forKey: .to)
    let fromAlpha = from?.navBarBgAlpha ?? 0
    let toAlpha = to?.navBarBgAlpha ?? 0
    transparentSetBackgroundAlpha(fromAlpha + (toAlpha - fromAlpha) * percent)
    // ET's `averageColor`: each component, alpha included, `from + (to - from) * percent`.
    navigationBar.tintColor = (from?.navBarTintColor ?? .blue)
      .interpolated(to: to?.navBarTintColor ?? .blue, fraction: percent)
  }

  /// Registers the release callback on `coordinator`, unless it was registered there already.
  internal func transparentRegisterRelease(on coordinator: UIViewControllerTransitionCoordinator) {
    // The seed registered on every update of the swipe, and at its shouldPopItem.
    guard
      TransparentBarPlugin.mode.value == .seed || self[registeredKey]?.coordinator !== coordinator
    else { return }
    self[registeredKey] = Registration(coordinator)
    coordinator.notifyWhenInteractionChanges { [weak self] context in
      self?.transparentDealInteractionChanges(context)
    }
  }

  /// A released swipe-back: back to the from-controller's values over `duration x percent`
  /// when cancelled, on to the to-controller's over `duration x (1 - percent)` when finished.
  internal func transparentDealInteractionChanges(
    _ context: any UIViewControllerTransitionCoordinatorContext
  ) {
    TransparentBarPlugin.releaseCount.add(1, ordering: .relaxed)
    let percent = Double(context.percentComplete)
    let duration =
      context.isCancelled
      ? context.transitionDuration * percent : context.transitionDuration * (1 - percent)
    guard let target = context.viewController(forKey: context.isCancelled ? .from : .to) else {
      return
    }
    UIView.animate(withDuration: duration) {
      self.transparentApply(target)
    }
  }

  /// Sets the bar to `controller`'s alpha and tint at once (the seed's snap on programmatic
  /// pops), and EM's values where the controller set them.
  internal func transparentApply(_ controller: UIViewController) {
    TransparentTouchedBars.note(navigationBar)
    transparentSetBackgroundAlpha(controller.navBarBgAlpha)
    navigationBar.tintColor = controller.navBarTintColor
    if controller.hasOwnBarBackgroundColor {
      navigationBar.transparentSetBackgroundColor(controller.navBarBgColor)
    }
  }
}

/// The bars the plugin changed, held weakly, so that uninstalling can give them back.
internal enum TransparentTouchedBars {
  // nonisolated: PluginChanges is Sendable, and uninstall() runs from any thread.
  nonisolated static let all = PluginChanges<UINavigationBar>()

  static func note(_ bar: UINavigationBar) {
    all.note(bar) { bar in MainThread.assumeIsolated { bar.transparentRemoveBackground() } }
  }
}

/// Says that the plugin leaves `method` as it is on uninstall, because something changed it
/// after the plugin did, naming the outermost layer of its chain in the hook map.
nonisolated internal func transparentWarnChangedSince(_ method: MethodReference, by change: String)
{
  let outermost = PluginRegistry.shared.hookMap.entries
    .first { $0.method == method }?.layers.first?.description
  Diagnostics.warn(
    "transparent: \(method) was changed after the plugin \(change) ("
      + (outermost ?? "by code the hook map does not know") + "); it is left as it is",
    kind: .restoreBlocked, method: method)
}
