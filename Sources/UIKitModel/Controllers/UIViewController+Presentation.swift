// Modal presentation, full screen and as a sheet: `present(_:animated:completion:)` and
// `dismiss(animated:completion:)` through the table, with UIKit's appearance callbacks, its
// refusals, the styles and how they resolve, and the status bar.
import Foundation
import ObjCRuntime

extension UIViewController {
  /// How long an animated presentation or dismissal takes: the view slides up from the bottom
  /// of the window, or back down (the model's figure; UIKit's cover-vertical is about as long).
  public static let presentationDuration: TimeInterval = 0.35

  /// Presents `viewControllerToPresent`, in the style its ``modalPresentationStyle`` resolves to
  /// on this device and system (``resolvedPresentationStyle``). The presentation is made by the
  /// root of this controller's hierarchy (a child's navigation controller, for a screen of a
  /// stack), which becomes ``presentingViewController``. Through the table
  /// (`presentViewController:animated:completion:`), so a swizzle of it runs (the classic iOS 13
  /// fix swizzles it to force full screen).
  ///
  /// Callbacks, in UIKit's order: the presented view loads, then (full screen only) the
  /// presenter's `viewWillDisappear:`, the presented controller's `viewWillAppear:` (and its top
  /// controller's, for a navigation controller), then, after the slide up, `viewDidAppear:` and
  /// (full screen only) the presenter's `viewDidDisappear:`, then `completion`.
  ///
  /// - Full screen: the presented view covers the window, and the presented controller decides
  ///   the status bar. Over full screen it covers the window too, but the presenter's views stay
  ///   (Apple's documentation of the style): the presenter hears no appearance callback, and
  ///   keeps the status bar unless the presented controller captures it.
  /// - A sheet keeps the presenter's view on screen, and the presenter hears no appearance
  ///   callback (FittedSheets issue 61 and YPImagePicker issue 517, after Apple's design; the
  ///   livefront article they cite). From iOS 13 on a phone the sheet is a card below the status
  ///   bar (TZImagePickerController pull request 1161: "the layout must subtract the status
  ///   bar's height"), the presenter's view scaled back behind it (WWDC19 "Modernizing Your UI
  ///   for iOS 13", quoted by netguru), a presented navigation controller's bar 56 points tall
  ///   at the sheet's top (wix/react-native-navigation issue 5730, QMUI_iOS issue 877,
  ///   HWPanModal issue 85), and a swipe down dismisses it (``UIPresentationController``). The
  ///   status bar stays with the presenter unless the presented controller
  ///   ``modalPresentationCapturesStatusBarAppearance``.
  ///
  /// Refused, with ``UIKitModelIssue/presentationRefused(presenter:presented:reason:)`` and
  /// nothing changed, as UIKit refuses with a console warning or raises: when the presenter
  /// already presents a controller, is itself being presented or dismissed (a sheet being
  /// dragged down included), or its view is not in a window; when `viewControllerToPresent` is
  /// already presented, is in the presenter's hierarchy, is active (its view in a window) or
  /// presents the presenter (a cycle); and, the model's choice, while a navigation controller of
  /// the presenter's screen pushes or pops (an interactive pop included).
  public func present(
    _ viewControllerToPresent: UIViewController, animated: Bool,
    completion: (() -> Void)? = nil
  ) {
    sendToTableReportingFailure(
      PresentationSelectors.present, viewControllerToPresent as ObjCObject?, animated,
      UICompletionBlock.wrap(completion) as ObjCObject?)
  }

  /// Dismisses the controller this one presents, or, when it presents none, this controller
  /// from its presenter (UIKit asks the presenter either way), and every controller presented
  /// above it: as Apple documents `dismiss(animated:completion:)`, dismissing from lower in a
  /// stack of presentations "dismisses its immediate child view controller and all view
  /// controllers above that child", and "only the top-most view is dismissed in an animated
  /// fashion; any intermediate view controllers are simply removed". Through the table
  /// (`dismissViewControllerAnimated:completion:`).
  ///
  /// Callbacks in UIKit's order: the top-most controller's `viewWillDisappear:`, the
  /// presenter's `viewWillAppear:` (when the presentation above it covered the screen), then,
  /// after the slide down, the presenter's `viewDidAppear:`, the top-most controller's
  /// `viewDidDisappear:`, then `completion`; the intermediate ones, already hidden under the
  /// top-most, hear nothing (the model's reading). The adaptive delegate hears nothing: Apple
  /// documents its dismissal methods as not called for a dismissal from code. Nothing
  /// presented: nothing happens and `completion` runs, as in UIKit. Refused (an issue) while a
  /// presentation or dismissal in the stack runs, a sheet being dragged down included.
  public func dismiss(animated: Bool, completion: (() -> Void)? = nil) {
    sendToTableReportingFailure(
      PresentationSelectors.dismiss, animated, UICompletionBlock.wrap(completion) as ObjCObject?)
  }

  /// The style set, or the default of this profile.
  var storedPresentationStyle: UIModalPresentationStyle {
    presentationStyleStorage
      ?? (UIDevice.current.linkedMajorVersion >= 13 ? .automatic : .fullScreen)
  }

  /// The style a presentation of this controller takes now: ``modalPresentationStyle`` with
  /// `.automatic` resolved to a page sheet (netguru's "iOS 13 Modals Changes": "if you simply
  /// instantiate and present a custom subclass of UIViewController, system by default will
  /// resolve .automatic to .pageSheet"), and a sheet on an iPhone adapted to full screen before
  /// iOS 13 or with an older SDK (Apple's header: a sheet "on iPhone is adapted to full screen",
  /// quoted by hacknicity's "View Controller Presentation Changes in iOS 13"; an app built with
  /// Xcode 10 keeps iOS 12's behaviour, the model's reading of the same article).
  public var resolvedPresentationStyle: UIModalPresentationStyle {
    let cards = UIDevice.current.linkedMajorVersion >= 13
    switch modalPresentationStyle {
    case .fullScreen, .overFullScreen: return modalPresentationStyle
    case .automatic: return cards ? .pageSheet : .fullScreen
    case .pageSheet, .formSheet:
      return UIScreen.main.profile.isPad || cards ? modalPresentationStyle : .fullScreen
    }
  }

  /// The object that manages this controller's presentation: made on first use, as UIKit's,
  /// which fixes the style it will present in (HWPanModal issue 27: reading it before presenting
  /// kept a later `modalPresentationStyle = .fullScreen` from taking effect). Set its
  /// `delegate` before presenting to hear about a swipe down. Gone once the controller is
  /// dismissed.
  public var presentationController: UIPresentationController? {
    ensurePresentationController()
  }

  /// The presentation controller, made now if there is none.
  func ensurePresentationController() -> UIPresentationController {
    if let presentationControllerStorage { return presentationControllerStorage }
    let made = UIPresentationController(presented: self, style: resolvedPresentationStyle)
    presentationControllerStorage = made
    return made
  }

  /// The presentation controller of this controller's presentation while it is presented (or
  /// being presented or dismissed); nil otherwise. The model's door: unlike
  /// ``presentationController`` it never makes one, so reading it fixes no style.
  public var activePresentationController: UIPresentationController? {
    presentingViewController == nil ? nil : presentationControllerStorage
  }

  /// The base of `presentViewController:animated:completion:`.
  func performPresent(
    _ presented: UIViewController, animated: Bool, completion: (() -> Void)?
  ) {
    let presenter = presentationRoot
    func refuse(_ reason: String) {
      UIKitModelIssues.report(
        .presentationRefused(
          presenter: presenter.description, presented: presented.description, reason: reason))
    }
    // An active search presented in context by this controller counts, as in UIKit's
    // "which is already presenting" warning.
    if let current = presenter.presentedViewController ?? presentedViewController {
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
    let screens = [presenter] + presenter.appearanceTargets
    if screens.contains(where: { ($0 as? UINavigationController)?.isTransitioning == true }) {
      return refuse("while its push or pop is in progress")
    }
    guard presenter.isViewLoaded, let window = presenter.view.window else {
      return refuse("whose view is not in the window hierarchy")
    }
    let presentation = presented.ensurePresentationController()
    let sheet = presentation.isSheet
    let removesPresenter = presentation.shouldRemovePresentersView
    let bounds = window.bounds
    let frame = sheet ? UIPresentationController.sheetFrame(in: bounds) : bounds
    let transform =
      sheet && presentation.isCard && !UIScreen.main.profile.isPad
      ? CGAffineTransform(
        scaleX: UIPresentationController.presenterScale, y: UIPresentationController.presenterScale)
      : .identity
    presentation.begin(presenting: presenter, frame: frame, transform: transform)
    presenter.presentedViewController = presented
    presented.presentingViewController = presenter
    presented.isBeingPresented = true
    // iOS 12: a presented navigation controller's bar gets its background once in the window.
    let presentedNavigation = presented as? UINavigationController
    presentedNavigation?.navigationBar.takeBackgroundOutForPresentation()
    presented.loadViewIfNeeded()
    presented.view.frame = animated ? frame.offsetBy(dx: 0, dy: bounds.maxY - frame.minY) : frame
    presentedNavigation?.placeForPresentation(inSheet: sheet)
    if removesPresenter {
      for controller in presenter.appearanceTargets { controller.viewWillDisappear(animated) }
    }
    for controller in presented.appearanceTargets { controller.viewWillAppear(animated) }
    if sheet { presentation.installDimmingView(in: window) }
    window.addSubview(presented.view)
    presentedNavigation?.navigationBar.putBackgroundBackForPresentation()
    if removesPresenter || presented.modalPresentationCapturesStatusBarAppearance {
      window.statusBarAppearanceProvider = presented
    }
    if presentation.isCard { presentation.installDismissalPan(on: presented.view) }
    let finish = {
      presented.isBeingPresented = false
      for controller in presented.appearanceTargets { controller.viewDidAppear(animated) }
      if removesPresenter {
        for controller in presenter.appearanceTargets { controller.viewDidDisappear(animated) }
      }
      completion?()
    }
    let presenterView = presenter.view
    guard animated else {
      presenterView?.transform = transform
      return finish()
    }
    UIView.animate(
      withDuration: UIViewController.presentationDuration, delay: 0, options: .curveEaseInOut,
      animations: {
        presented.view.frame = frame
        presenterView?.transform = transform
      }, completion: { _ in finish() })
  }

  /// The base of `dismissViewControllerAnimated:completion:`.
  func performDismiss(animated: Bool, completion: (() -> Void)?) {
    // An active search presented in context by this controller (or its root): dismissing it is
    // ending the search, as `isActive = false` does.
    if let search = (self as? UISearchController)
      ?? (presentedViewController ?? presentationRoot.presentedViewController)
      as? UISearchController, search.isPresentedInContext
    {
      return search.dismissSearch(completion: completion)
    }
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
    // The presenter hears callbacks when the presentation just above it took its view away.
    let presenterReturns =
      stack.first?.presentationControllerStorage?.shouldRemovePresentersView ?? true
    for controller in stack { controller.isBeingDismissed = true }
    // The intermediate ones are "simply removed": the top-most slides down over the presenter.
    for controller in stack.dropLast() where controller.isViewLoaded {
      controller.view.removeFromSuperview()
    }
    for controller in top.appearanceTargets { controller.viewWillDisappear(animated) }
    if presenterReturns {
      for controller in presenter.appearanceTargets { controller.viewWillAppear(animated) }
    }
    let window = top.view.window
    let presenterView = presenter.view
    let finish = {
      UIViewController.tearDown(stack, presenter: presenter, window: window)
      if presenterReturns {
        for controller in presenter.appearanceTargets { controller.viewDidAppear(animated) }
      }
      for controller in top.appearanceTargets { controller.viewDidDisappear(animated) }
      completion?()
    }
    guard animated, let window else {
      presenterView?.transform = .identity
      return finish()
    }
    let below = top.view.frame.offsetBy(dx: 0, dy: window.bounds.maxY - top.view.frame.minY)
    UIView.animate(
      withDuration: UIViewController.presentationDuration, delay: 0, options: .curveEaseInOut,
      animations: {
        top.view.frame = below
        presenterView?.transform = .identity
      }, completion: { _ in finish() })
  }

  /// The end of a dismissal of `stack` (lowest first) down to `presenter`: the views leave the
  /// window, the links and presentation controllers go, the status bar returns.
  static func tearDown(
    _ stack: [UIViewController], presenter: UIViewController, window: UIWindow?
  ) {
    for controller in stack.reversed() {
      controller.view.removeFromSuperview()
      // A sheet presented over it had scaled it back; a dismissal from lower down leaves it.
      controller.view.transform = .identity
      controller.presentingViewController?.presentedViewController = nil
      controller.presentingViewController = nil
      controller.isBeingDismissed = false
      controller.presentationControllerStorage?.end()
      controller.presentationControllerStorage = nil
    }
    if let window, stack.contains(where: { window.statusBarAppearanceProvider === $0 }) {
      window.statusBarAppearanceProvider = presenter
    }
  }

  /// This controller's root and the controllers that present it, down to the window's.
  var presentationChain: [UIViewController] {
    var chain: [UIViewController] = [presentationRoot]
    while let below = chain.last?.presentingViewController, !chain.contains(where: { $0 === below })
    {
      chain.append(below.presentationRoot)
    }
    return chain
  }

  /// The root of this controller's hierarchy of children: who presents for it.
  var presentationRoot: UIViewController {
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

/// The IMPs of the presentation methods of UIViewController's table (the base), and the Swift
/// entry points of a subclass's overrides.
enum PresentationBase {
  static let present: @convention(c) (id, SEL, id?, Bool, id?) -> Void = {
    me, _, presented, animated, completion in
    MainThread.enterIMP(with: me, presented, animated, completion) {
      me, presented, animated, completion in
      let presenter = me.receiver(as: UIViewController.self)
      guard let presented = presented?.takeUnretainedObject() as? UIViewController else {
        return refuseNotAController(presenter: presenter)
      }
      presenter.performPresent(
        presented, animated: animated,
        completion: UICompletionBlock.unwrap(completion?.takeUnretainedObject()))
    }
  }
  static let dismiss: @convention(c) (id, SEL, Bool, id?) -> Void = { me, _, animated, completion in
    MainThread.enterIMP(with: me, animated, completion) { me, animated, completion in
      me.receiver(as: UIViewController.self).performDismiss(
        animated: animated, completion: UICompletionBlock.unwrap(completion?.takeUnretainedObject())
      )
    }
  }
  static let modalPresentationStyle: @convention(c) (id, SEL) -> Int = { me, _ in
    MainThread.enterIMP(with: me) { me in
      me.receiver(as: UIViewController.self).storedPresentationStyle.rawValue
    }
  }

  /// A presentation sent through the runtime with nil or an object that is not a view
  /// controller (UIKit raises "Application tried to present a nil modal view controller").
  static func refuseNotAController(presenter: UIViewController) {
    UIKitModelIssues.report(
      .presentationRefused(
        presenter: presenter.description, presented: "nil",
        reason: "which is not a view controller"))
  }
}

enum PresentationEntry {
  static let modalPresentationStyle: @convention(c) (id, SEL) -> Int = { me, _ in
    MainThread.enterIMP(with: me) { me in
      me.receiver(as: UIViewController.self).modalPresentationStyle.rawValue
    }
  }
}

/// The selectors of the presentation methods, registered once.
enum PresentationSelectors {
  static let present = SelectorReference("presentViewController:animated:completion:")
  static let dismiss = SelectorReference("dismissViewControllerAnimated:completion:")
  static let modalPresentationStyle = SelectorReference("modalPresentationStyle")
}

extension UINavigationController {
  /// Lays the controller out for a presentation, its view already at its frame: the bar at the
  /// top of a sheet or under the status bar, the top controller's view filling the view.
  func placeForPresentation(inSheet: Bool) {
    navigationBar.placeInSheet(inSheet, width: view.bounds.width)
    topViewController?.viewIfLoaded?.frame = view.bounds
  }
}
