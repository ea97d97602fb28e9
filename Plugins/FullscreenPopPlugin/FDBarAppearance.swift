// FDFullscreenPopGesture's view-controller-based bar appearance: each page says whether it
// wants the bar hidden, and the swizzled viewWillAppear: and viewWillDisappear: hide or show
// the bar around each appearance.
import Foundation
import Hooks
import ObjCRuntime
public import UIKitModel

private let prefersHiddenKey = AssociatedKey<Bool?>()
private let maxDistanceKey = AssociatedKey<CGFloat>(default: 0)
private let appearanceEnabledKey = AssociatedKey<Bool>(default: true)
/// FD's `fd_willAppearInjectBlock`: the navigation controller whose push set it, held weakly as
/// the block held it.
private let injectKey = AssociatedKey<WeakNavigation?>()

/// What FD's injected block captured: the navigation controller, weakly.
final class WeakNavigation {
  weak var navigation: UINavigationController?

  init(_ navigation: UINavigationController) { self.navigation = navigation }
}

extension UIViewController {
  /// Whether the bar is hidden while this page shows (FDFullscreenPopGesture's
  /// `fd_prefersNavigationBarHidden`); false unless set. The hijack techniques hide or show
  /// the bar as each page appears (``PopTechnique``).
  public var fdPrefersNavigationBarHidden: Bool {
    get { self[prefersHiddenKey] ?? false }
    set { self[prefersHiddenKey] = newValue }
  }

  /// Whether the page ever set ``fdPrefersNavigationBarHidden``: the fixed hijack manages the
  /// bar only for such pages (FDFullscreenPopGesture pull request 207).
  public var fdStatesNavigationBarPreference: Bool { self[prefersHiddenKey] != nil }

  /// How far from the left edge a full-screen swipe may start on this page, in points
  /// (FDFullscreenPopGesture's `fd_interactivePopMaxAllowedInitialDistanceToLeftEdge`); 0, the
  /// default, means anywhere. A negative distance is 0, as FD's `MAX(0, distance)`; NaN is
  /// refused and the value kept.
  public var fdInteractivePopMaxAllowedInitialDistanceToLeftEdge: CGFloat {
    get { self[maxDistanceKey] }
    set {
      guard !newValue.isNaN else { return }
      self[maxDistanceKey] = max(0, newValue)
    }
  }
}

extension UINavigationController {
  /// Whether the pages' ``UIKitModel/UIViewController/fdPrefersNavigationBarHidden`` decide the
  /// bar (FDFullscreenPopGesture's `fd_viewControllerBasedNavigationBarAppearanceEnabled`);
  /// true unless set.
  public var fdViewControllerBasedNavigationBarAppearanceEnabled: Bool {
    get { self[appearanceEnabledKey] }
    set { self[appearanceEnabledKey] = newValue }
  }
}

/// FDFullscreenPopGesture's bar appearance, as written (``PopTechnique/hijackSeed``) or fixed
/// (``PopTechnique/hijack``).
enum FDBarAppearance {
  /// FD's `fd_setupViewControllerBasedNavigationBarAppearanceIfNeeded:`, from its swizzled
  /// push: the appearing page gets the block, and so does the page on top unless it has one
  /// (a page that was never pushed, as the root, gets it only there). The fixed mode needs no
  /// block: it serves every page of a navigation controller.
  static func pushing(_ page: UIViewController?, on navigation: UINavigationController) {
    guard FullscreenPopPlugin.technique.value == .hijackSeed,
      navigation.fdViewControllerBasedNavigationBarAppearanceEnabled
    else { return }
    page?[injectKey] = WeakNavigation(navigation)
    if let disappearing = navigation.viewControllers.last, disappearing[injectKey] == nil {
      disappearing[injectKey] = WeakNavigation(navigation)
    }
  }

  /// FD's `fd_viewWillAppear:`, after the original: the block hides or shows the bar as the
  /// page prefers. The seed runs only where a push left the block, so the root's first
  /// appearance is left alone (FDFullscreenPopGesture issue 129); the fixed mode serves every
  /// page that states a preference, and leaves the others to the app (pull request 207).
  static func willAppear(_ page: UIViewController, animated: Bool) {
    switch FullscreenPopPlugin.technique.value {
    case .hijackSeed:
      guard let navigation = page[injectKey]?.navigation else { return }
      navigation.setNavigationBarHidden(page.fdPrefersNavigationBarHidden, animated: animated)
    case .hijack:
      guard let navigation = page.navigationController,
        navigation.fdViewControllerBasedNavigationBarAppearanceEnabled,
        page.fdStatesNavigationBarPreference
      else { return }
      let hidden = page.fdPrefersNavigationBarHidden
      navigation.setNavigationBarHidden(hidden, animated: animated)
      // UIKit can set the bar again after viewWillAppear: an active search does, from its
      // navigation controller's will-show (QMUI_iOS issue 479). The alongside animation runs
      // after that, so the page's preference is applied once more there.
      page.transitionCoordinator?.animate(alongsideTransition: { [weak page, weak navigation] _ in
        guard let page, let navigation, navigation.topViewController === page else { return }
        navigation.setNavigationBarHidden(hidden, animated: animated)
      })
    case .article, .articleSeed:
      return
    }
  }

  /// FD's `fd_viewWillDisappear:`, after the original: on the main queue's next turn, the bar is
  /// shown unless the page then on top prefers it hidden. The seed shows it for a page that
  /// never said (FDFullscreenPopGesture issue 5: a page hiding the bar in its own
  /// `viewWillDisappear:` sees it come back); the fixed mode only for a page that asked.
  static func willDisappear(_ page: UIViewController) {
    let technique = FullscreenPopPlugin.technique.value
    guard technique == .hijackSeed || technique == .hijack else { return }
    // dispatch_after(0, main queue): the next turn of the run loop, in any mode.
    VirtualRunLoop.main.perform(after: 0, inModes: [.common]) { [weak page] in
      guard let page, let navigation = page.navigationController,
        let top = navigation.viewControllers.last, !top.fdPrefersNavigationBarHidden,
        technique == .hijackSeed
          || (navigation.fdViewControllerBasedNavigationBarAppearanceEnabled
            && top.fdStatesNavigationBarPreference)
      else { return }
      navigation.setNavigationBarHidden(false, animated: false)
    }
  }
}
