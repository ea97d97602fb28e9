// Modal presentation, full screen: `present(_:animated:completion:)` and
// `dismiss(animated:completion:)`, with UIKit's appearance callbacks, its refusals, and the
// status bar handed to the presented controller.
import Foundation
import ObjCRuntime

extension UIViewController {
  /// How long an animated presentation or dismissal takes: the view slides up from the bottom
  /// of the window, or back down (the model's figure; UIKit's cover-vertical is about as long).
  public static let presentationDuration: TimeInterval = 0.35

  /// Presents `viewControllerToPresent` over the whole window, as UIKit's full-screen modal
  /// presentation does. The presentation is made by the root of this controller's hierarchy
  /// (a child's navigation controller, for a screen of a stack), which becomes
  /// ``presentingViewController``. Callbacks, in UIKit's order: the presented view loads, then
  /// the presenter's `viewWillDisappear:`, the presented controller's `viewWillAppear:` (and its top
  /// controller's, for a navigation controller), then, after the slide, `viewDidAppear:` and the
  /// presenter's `viewDidDisappear:`, then `completion`. The presented controller decides the
  /// status bar meanwhile.
  ///
  /// Refused, with ``UIKitModelIssue/presentationRefused(presenter:presented:reason:)`` and
  /// nothing changed, as UIKit refuses with a console warning: when the presenter already
  /// presents a controller, when its view is not in a window, or when
  /// `viewControllerToPresent` is already presented or is in the presenter's hierarchy.
  public func present(
    _ viewControllerToPresent: UIViewController, animated: Bool,
    completion: (() -> Void)? = nil
  ) {
    let presenter = presentationRoot
    let presented = viewControllerToPresent
    func refuse(_ reason: String) {
      UIKitModelIssues.report(
        .presentationRefused(
          presenter: presenter.description, presented: presented.description, reason: reason))
    }
    if let current = presenter.presentedViewController {
      return refuse("which is already presenting \(current)")
    }
    if presented.presentingViewController != nil || presented.parent != nil
      || presented === presenter
    {
      return refuse("which is already presented or is in a hierarchy")
    }
    guard presenter.isViewLoaded, let window = presenter.view.window else {
      return refuse("whose view is not in the window hierarchy")
    }
    presenter.presentedViewController = presented
    presented.presentingViewController = presenter
    presented.isBeingPresented = true
    let bounds = window.bounds
    // iOS 12: a presented navigation controller's bar gets its background once in the window.
    let presentedBar = (presented as? UINavigationController)?.navigationBar
    presentedBar?.takeBackgroundOutForPresentation()
    presented.loadViewIfNeeded()
    presented.view.frame = animated ? bounds.offsetBy(dx: 0, dy: bounds.height) : bounds
    for controller in presenter.appearanceTargets { controller.viewWillDisappear(animated) }
    for controller in presented.appearanceTargets { controller.viewWillAppear(animated) }
    window.addSubview(presented.view)
    presentedBar?.putBackgroundBackForPresentation()
    window.statusBarAppearanceProvider = presented
    let finish = {
      presented.isBeingPresented = false
      for controller in presented.appearanceTargets { controller.viewDidAppear(animated) }
      for controller in presenter.appearanceTargets { controller.viewDidDisappear(animated) }
      completion?()
    }
    guard animated else { return finish() }
    UIView.animate(
      withDuration: UIViewController.presentationDuration, delay: 0, options: .curveEaseInOut,
      animations: { presented.view.frame = bounds }, completion: { _ in finish() })
  }

  /// Dismisses the controller this one presents, or, when it presents none, this controller
  /// from its presenter (UIKit asks the presenter either way). Callbacks in UIKit's order: the
  /// presented controller's `viewWillDisappear:`, the presenter's `viewWillAppear:`, then, after
  /// the slide down, the presenter's `viewDidAppear:`, the presented controller's
  /// `viewDidDisappear:`, then `completion`. Nothing presented: nothing happens and `completion`
  /// runs, as in UIKit. Refused (an issue) while the presentation or another dismissal runs.
  public func dismiss(animated: Bool, completion: (() -> Void)? = nil) {
    let presenter =
      presentedViewController != nil ? presentationRoot : (presentingViewController ?? self)
    guard let presented = presenter.presentedViewController else {
      completion?()
      return
    }
    guard !presented.isBeingPresented, !presented.isBeingDismissed else {
      UIKitModelIssues.report(
        .presentationRefused(
          presenter: presenter.description, presented: presented.description,
          reason: "while a presentation or dismissal is in progress"))
      return
    }
    presented.isBeingDismissed = true
    for controller in presented.appearanceTargets { controller.viewWillDisappear(animated) }
    for controller in presenter.appearanceTargets { controller.viewWillAppear(animated) }
    let window = presented.view.window
    let finish = {
      presented.view.removeFromSuperview()
      presenter.presentedViewController = nil
      presented.presentingViewController = nil
      presented.isBeingDismissed = false
      if let window, window.statusBarAppearanceProvider === presented {
        window.statusBarAppearanceProvider = presenter
      }
      for controller in presenter.appearanceTargets { controller.viewDidAppear(animated) }
      for controller in presented.appearanceTargets { controller.viewDidDisappear(animated) }
      completion?()
    }
    guard animated, let window else { return finish() }
    let below = window.bounds.offsetBy(dx: 0, dy: window.bounds.height)
    UIView.animate(
      withDuration: UIViewController.presentationDuration, delay: 0, options: .curveEaseInOut,
      animations: { presented.view.frame = below }, completion: { _ in finish() })
  }

  /// The root of this controller's hierarchy of children: who presents for it.
  private var presentationRoot: UIViewController {
    var root = self
    while let parent = root.parent { root = parent }
    return root
  }

  /// The controllers that hear an appearance callback when this one appears or disappears as
  /// a whole: itself, and a navigation controller's top controller (as a window's root does).
  private var appearanceTargets: [UIViewController] {
    guard let navigation = self as? UINavigationController, let top = navigation.topViewController
    else { return [self] }
    return [self, top]
  }
}
