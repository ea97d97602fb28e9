// The plugin: the NavigationInteractiveTransition article's custom pop gesture, or
// FDFullscreenPopGesture's hijack of the system's, for every navigation controller.
import Foundation
public import Hooks
import ObjCRuntime
import Synchronization
import UIKitModel

/// Which technique replaces the system's swipe-back.
public enum PopTechnique: String, Sendable, CaseIterable {
  /// The NavigationInteractiveTransition article as written: a pan of its own on the navigation
  /// controller's view, a delegate object returning a `PopAnimation` driven by a
  /// percent-driven transition, and the article's bugs (the gesture flag set before deciding,
  /// one stored alpha for every transparent page).
  case articleSeed = "article-seed"
  /// The article's technique with its bugs fixed: the flag is set only when the gesture
  /// begins (and reset however it ends), each transparent page keeps its own alpha.
  case article
  /// FDFullscreenPopGesture as written: a full-screen pan whose target is the system gesture's
  /// own private target (read through `value(forKey: "targets")`), with the private action
  /// `handleNavigationTransition:`, so the system's transition runs, with its coordinator; and
  /// its per-page bar (`fdPrefersNavigationBarHidden`) with its bugs: the root's first
  /// appearance is left alone (FDFullscreenPopGesture issue 129), and every page that never
  /// said gets the bar shown, over the app's own `setNavigationBarHidden` (issue 5).
  case hijackSeed = "hijack-seed"
  /// FDFullscreenPopGesture's hijack with the per-page bar fixed: every page of the
  /// controller is served, the root included, and a page that never set
  /// `fdPrefersNavigationBarHidden` leaves the bar to the app (pull request 207); and a scroll
  /// view whose content is at its left edge lets the full-screen pan recognize with its own,
  /// the category FDFullscreenPopGesture's README gives for issues 27 and 61.
  case hijack
}

/// A custom pop gesture for every navigation controller, one of two ways (``PopTechnique``):
/// the article's (a delegate and an animator of its own, the bar faded by hand) or
/// FDFullscreenPopGesture's (the system's own transition, driven from anywhere on the screen).
///
/// ```swift
/// FullscreenPopPlugin.technique.value = .hijack
/// _ = FullscreenPopPlugin.installation
/// ```
///
/// The article's technique takes each controller's delegate (set after `viewDidLoad`); the
/// hijack leaves the delegate alone and adds its pan at the first push, as FDFullscreenPopGesture
/// did from its swizzled `pushViewController:animated:`. Both turn the system's swipe-back off.
public struct FullscreenPopPlugin: DiscoverablePlugin {
  /// `swizzlekit.fullscreen-pop`.
  public let identifier = "swizzlekit.fullscreen-pop"
  /// One line.
  public let summary =
    "The custom pop gesture: the NavigationInteractiveTransition article's pan and animator,"
    + " or FDFullscreenPopGesture's full-screen hijack of the system's private target"

  /// A plugin value.
  public init() {}

  /// Installs the plugin once, however many threads ask.
  public static let installation = PluginRegistry.shared.installOnce(FullscreenPopPlugin())

  /// The technique used for controllers set up from now on; ``PopTechnique/article`` until
  /// set. Any thread may set it.
  public static let technique = PluginSetting(PopTechnique.article)

  /// Hooks `-[UINavigationController viewDidLoad]` (the article's set-up),
  /// `-[UINavigationController pushViewController:animated:]` (the hijack's, before the push,
  /// as FDFullscreenPopGesture swizzled it) and `-[UIViewController viewWillAppear:]` and
  /// `viewWillDisappear:` (FDFullscreenPopGesture's per-page bar, after the originals); adds
  /// `-[UIScrollView gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:]`
  /// (the README's scroll-view category, answering only in the fixed hijack).
  public func install() throws {
    ScrollViewYield.install()
    // The fixed article technique sets up once per navigation controller; the seed's page B
    // (`ArticlePopPage`) sets up in its own viewDidLoad, as the article's does.
    try UINavigationController.hook(after: "viewDidLoad") { (navigation: UINavigationController) in
      MainThread.assumeIsolated {
        guard FullscreenPopPlugin.technique.value == .article else { return }
        ArticlePop.setUp(navigation, fixed: true)
      }
    }
    try UINavigationController.hook(before: "pushViewController:animated:") {
      (navigation: UINavigationController, page: UIViewController?, _: Bool) in
      MainThread.assumeIsolated {
        let technique = FullscreenPopPlugin.technique.value
        guard technique == .hijack || technique == .hijackSeed else { return }
        do {
          try FullscreenHijack.setUp(navigation)
        } catch {
          Diagnostics.warn("fullscreen-pop: \(error)", kind: .plugin)
        }
        FDBarAppearance.pushing(page, on: navigation)
      }
    }
    try UIViewController.hook(after: "viewWillAppear:") {
      (page: UIViewController, animated: Bool) in
      MainThread.assumeIsolated {
        FDBarAppearance.willAppear(page, animated: animated)
      }
    }
    try UIViewController.hook(after: "viewWillDisappear:") { (page: UIViewController, _: Bool) in
      MainThread.assumeIsolated {
        FDBarAppearance.willDisappear(page)
      }
    }
    FullscreenPopPlugin.on.store(true, ordering: .releasing)
  }

  /// Whether the plugin is installed (set by its install and uninstall): a page B does the
  /// article's set-up only then.
  public static var isOn: Bool { on.load(ordering: .acquiring) }
  private static let on = Atomic(false)

  /// Takes the plugin's pans off and gives back the system's swipe-back and the delegates.
  public func uninstall() {
    FullscreenPopPlugin.on.store(false, ordering: .releasing)
    MainThread.assumeIsolated {
      ArticlePop.releaseAll()
      FullscreenHijack.releaseAll()
    }
  }
}
