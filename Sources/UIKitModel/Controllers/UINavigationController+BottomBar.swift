// A navigation controller in a tab hides the tab bar while a controller of its stack has
// `hidesBottomBarWhenPushed`, sliding it out with a push and back in with a pop (interactive
// pops included, following the finger, and put back when cancelled).
import Foundation

extension UINavigationController {
  /// The tab bar this controller hides and shows: its tab bar controller's, when that
  /// controller's `_selectedViewControllerInTabBar` is this one (UIKit asks it on every push).
  var managedTabBar: UITabBar? {
    guard let tabs = tabBarController, tabs.selectedViewControllerInTabBar() === self else {
      return nil
    }
    return tabs.tabBar
  }

  /// Whether a stack of `controllers` hides the tab bar: any of them, read top to bottom,
  /// answers yes to `hidesBottomBarWhenPushed` (the root included).
  func hidesBottomBar(for controllers: [UIViewController]) -> Bool {
    controllers.reversed().contains { $0.hidesBottomBarWhenPushed }
  }

  /// The slide of the tab bar a change of the stack to `controllers` makes, if it hides or
  /// shows the bar; `push` says which way the pages move.
  func bottomBarSlide(to controllers: [UIViewController], push: Bool) -> BottomBarSlide? {
    guard let bar = managedTabBar else { return nil }
    let hides = hidesBottomBar(for: controllers)
    guard hides != bar.isHidden else { return nil }
    let width = bar.bounds.width
    // Its whole width, off to the left on a push and in from the left on a pop: what
    // EZCustomNavigation issue 11 reports with a custom animator ("UITabBar always moves the
    // full width when pushing a controller with HidesBottomBarWhenPushed"); for the default
    // push and for the finger, the model's reading (Docs/UIKitModel.md, section 7).
    return BottomBarSlide(bar: bar, hiding: hides, offscreenX: push ? -width : width)
  }
}

/// A tab bar sliding out (hiding) or in (showing) with a push or a pop.
@preconcurrency @MainActor
struct BottomBarSlide {
  let bar: UITabBar
  /// Whether the bar leaves (true) or comes back.
  let hiding: Bool
  /// Where the bar is, horizontally, when off screen for this move.
  let offscreenX: CGFloat

  /// Before the move: a bar coming back shows, off screen where it comes from.
  func start() {
    guard !hiding else { return }
    UIView.performWithoutAnimation {
      bar.isHidden = false
      bar.frame.origin.x = -offscreenX
    }
  }

  /// Places the bar `progress` of the way (0 to 1) through the move: inside an animation block,
  /// the bar animates there.
  func place(_ progress: CGFloat) {
    bar.frame.origin.x = hiding ? offscreenX * progress : -offscreenX * (1 - progress)
  }

  /// After the move: the bar hidden (back at its place, for the next time it shows) when it
  /// left, shown in place when it came back; when the move was cancelled, as it was before.
  func end(completed: Bool) {
    UIView.performWithoutAnimation {
      bar.frame.origin.x = 0
      bar.isHidden = completed == hiding
    }
  }
}
