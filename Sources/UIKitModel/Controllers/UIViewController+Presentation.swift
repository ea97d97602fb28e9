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
  /// nothing changed, as UIKit refuses with a console warning or raises: when the presenter
  /// already presents a controller, is itself being presented or dismissed, or its view is not
  /// in a window; when `viewControllerToPresent` is already presented, is in the presenter's
  /// hierarchy, is active (its view in a window) or presents the presenter (a cycle); and, the
  /// model's choice, while the presenter's navigation controller pushes or pops.
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
    if presenter.isBeingPresented || presenter.isBeingDismissed {
      return refuse("while a presentation or dismissal is in progress")
    }
    if presented.presentingViewController != nil || presented.parent != nil
      || presented === presenter
    {
      return refuse("which is already presented or is in a hierarchy")
    }
    // UIKit raises: "Application tried to present modally a view controller that is already
    // being presented" (a cycle), or "an active controller" (one whose view is on screen).
    if presenter.presentationChain.contains(where: { $0 === presented }) {
      return refuse("which presents the presenter: a presentation cycle")
    }
    if presented.isViewLoaded, presented.view.window != nil {
      return refuse("which is active: its view is already in a window")
    }
    // The model's choice (no source gives UIKit's order here): a presentation while the
    // presenter's stack pushes or pops would give the arriving page a disappearance before its
    // appearance ended, as UIKit's "Unbalanced calls to begin/end appearance transitions"
    // warns; it is refused instead, and nothing changes.
    if let navigation = presenter as? UINavigationController, navigation.isTransitioning {
      return refuse("while its push or pop is in progress")
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
  /// from its presenter (UIKit asks the presenter either way), and every controller presented
  /// above it: as Apple documents `dismiss(animated:completion:)`, dismissing from lower in a
  /// stack of presentations "dismisses its immediate child view controller and all view
  /// controllers above that child", and "only the top-most view is dismissed in an animated
  /// fashion; any intermediate view controllers are simply removed". Callbacks in UIKit's
  /// order: the top-most controller's `viewWillDisappear:`, the presenter's `viewWillAppear:`,
  /// then, after the slide down, the presenter's `viewDidAppear:`, the top-most controller's
  /// `viewDidDisappear:`, then `completion`; the intermediate ones, already hidden under the
  /// top-most, hear nothing (the model's reading). Nothing presented: nothing happens and
  /// `completion` runs, as in UIKit. Refused (an issue) while a presentation or dismissal in
  /// the stack runs.
  public func dismiss(animated: Bool, completion: (() -> Void)? = nil) {
    let presenter =
      presentedViewController != nil ? presentationRoot : (presentingViewController ?? self)
    guard presenter.presentedViewController != nil else {
      completion?()
      return
    }
    // The stack above the presenter, lowest first.
    var stack: [UIViewController] = []
    var next = presenter.presentedViewController
    while let controller = next {
      stack.append(controller)
      next = controller.presentedViewController
    }
    if let busy = stack.first(where: { $0.isBeingPresented || $0.isBeingDismissed }) {
      UIKitModelIssues.report(
        .presentationRefused(
          presenter: presenter.description, presented: busy.description,
          reason: "while a presentation or dismissal is in progress"))
      return
    }
    guard let top = stack.last else { return }
    for controller in stack { controller.isBeingDismissed = true }
    // The intermediate ones are "simply removed": the top-most slides down over the presenter.
    for controller in stack.dropLast() where controller.isViewLoaded {
      controller.view.removeFromSuperview()
    }
    for controller in top.appearanceTargets { controller.viewWillDisappear(animated) }
    for controller in presenter.appearanceTargets { controller.viewWillAppear(animated) }
    let window = top.view.window
    let finish = {
      for controller in stack.reversed() {
        controller.view.removeFromSuperview()
        controller.presentingViewController?.presentedViewController = nil
        controller.presentingViewController = nil
        controller.isBeingDismissed = false
      }
      if let window, stack.contains(where: { window.statusBarAppearanceProvider === $0 }) {
        window.statusBarAppearanceProvider = presenter
      }
      for controller in presenter.appearanceTargets { controller.viewDidAppear(animated) }
      for controller in top.appearanceTargets { controller.viewDidDisappear(animated) }
      completion?()
    }
    guard animated, let window else { return finish() }
    let below = window.bounds.offsetBy(dx: 0, dy: window.bounds.height)
    UIView.animate(
      withDuration: UIViewController.presentationDuration, delay: 0, options: .curveEaseInOut,
      animations: { top.view.frame = below }, completion: { _ in finish() })
  }

  /// This controller's root and the controllers that present it, down to the window's.
  private var presentationChain: [UIViewController] {
    var chain: [UIViewController] = [presentationRoot]
    while let below = chain.last?.presentingViewController, !chain.contains(where: { $0 === below })
    {
      chain.append(below.presentationRoot)
    }
    return chain
  }

  /// The root of this controller's hierarchy of children: who presents for it.
  private var presentationRoot: UIViewController {
    var root = self
    while let parent = root.parent { root = parent }
    return root
  }

  /// The controllers that hear an appearance callback when this one appears or disappears as
  /// a whole: itself, a navigation controller's top controller (as a window's root does), and
  /// a tab bar controller's selected tab with its own.
  var appearanceTargets: [UIViewController] {
    if let navigation = self as? UINavigationController, let top = navigation.topViewController {
      return [self, top]
    }
    if let tabs = self as? UITabBarController, let selected = tabs.selectedViewController {
      return [self] + selected.appearanceTargets
    }
    return [self]
  }
}
