// UINavigationController: the stack, push and pop with UIKit's appearance callbacks, animated
// transitions on the virtual clock, the bar kept in step, and UIKit's rules.
public import Foundation
public import ObjCRuntime

/// A list of view controllers as an object, so that it can cross the runtime (the `NSArray` of
/// `-setViewControllers:animated:` and of `-popToViewController:animated:`'s result).
@preconcurrency @MainActor
public final class ViewControllerList: ObjCObject {
  /// The controllers.
  public let controllers: [UIViewController]

  /// A list of `controllers`.
  public init(_ controllers: [UIViewController]) {
    self.controllers = controllers
    super.init()
  }
}

/// A navigation controller, as UIKit's: a stack of controllers, the top one on screen under a
/// navigation bar whose delegate the controller is.
///
/// `pushViewController:animated:`, `popViewControllerAnimated:`, `popToViewController:animated:`,
/// `popToRootViewControllerAnimated:`, `setViewControllers:animated:`,
/// `navigationBar:shouldPushItem:`, `navigationBar:shouldPopItem:` and the private
/// `_updateInteractiveTransition:` are in the table with Swift entry points, and the private ivar
/// `_isTransitioning` is declared, so the seeds' swizzles and key-value reads work.
///
/// An animated push or pop takes ``transitionDuration`` seconds of virtual time, slides the
/// views, and runs inside a `CATransaction`: a completion block set around a push (swizzled or
/// not) fires when the push has completed, after `viewDidAppear:`, and may push again.
open class UINavigationController: UIViewController, UINavigationBarDelegate {
  /// The duration of the default push and pop animations (UIKit's is about 0.35 s).
  public static let transitionDuration: TimeInterval = 0.35

  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UINavigationController.self) {
      ObjCMethodDeclaration("pushViewController:animated:", Base.push, swiftEntry: Entry.push)
      ObjCMethodDeclaration("popViewControllerAnimated:", Base.pop, swiftEntry: Entry.pop)
      ObjCMethodDeclaration(
        "popToViewController:animated:", Base.popTo, swiftEntry: Entry.popTo)
      ObjCMethodDeclaration(
        "popToRootViewControllerAnimated:", Base.popToRoot, swiftEntry: Entry.popToRoot)
      ObjCMethodDeclaration(
        "setViewControllers:animated:", Base.setControllers, swiftEntry: Entry.setControllers)
      ObjCMethodDeclaration(
        "navigationBar:shouldPushItem:", Base.shouldPush, swiftEntry: Entry.shouldPush)
      ObjCMethodDeclaration(
        "navigationBar:shouldPopItem:", Base.shouldPop, swiftEntry: Entry.shouldPop)
      ObjCMethodDeclaration(
        "_updateInteractiveTransition:", Base.updateInteractive,
        swiftEntry: Entry.updateInteractive)
      ObjCMethodDeclaration(
        "preferredStatusBarStyle", Base.statusBarStyle, swiftEntry: Entry.statusBarStyle)
      ObjCMethodDeclaration("setDelegate:", Base.setDelegate, swiftEntry: Entry.setDelegate)
      ObjCIvarDeclaration.onMainActor("_isTransitioning") { (controller: UINavigationController) in
        controller.isTransitioning
      }
    }
  }

  /// The bar; the controller is its delegate.
  public let navigationBar: UINavigationBar
  /// The controllers, root first.
  public internal(set) var stack: [UIViewController] = []
  /// Whether a push or pop is under way (the private `_isTransitioning`).
  public internal(set) var isTransitioning = false
  /// The coordinator of the transition under way.
  public internal(set) var activeCoordinator: UIViewControllerTransitionCoordinator?
  /// The active search controllers of pages in this stack, told of each will-show.
  var activeSearches: [WeakReference<UISearchController>] = []
  /// The context of the custom transition under way, held until it ends (an animator need not
  /// keep it).
  var activeContext: _UIViewControllerOneToOneTransitionContext?
  /// Whether the bar is hidden; setting it is `setNavigationBarHidden(_:animated:)` without
  /// animation, as in UIKit.
  open var isNavigationBarHidden: Bool {
    get { barHidden }
    set { setNavigationBarHidden(newValue, animated: false) }
  }
  private var barHidden = false
  /// The delegate: told of the controllers shown, and asked for custom animators
  /// (`UINavigationController+Delegate.swift`), held weakly. Setting it sends `setDelegate:`
  /// through the table, so a plugin can hook it to wrap the app's delegate; a delegate that is
  /// not an object of the runtime travels in a ``SwiftObjectBox``.
  open var delegate: (any UINavigationControllerDelegate)? {
    get { delegateObject as? any UINavigationControllerDelegate }
    set {
      let object: ObjCObject? = newValue.map { SwiftObjectBox.wrap($0) }
      sendToTableReportingFailure(NavigationSelectors.setDelegate, object)
    }
  }
  /// The delegate as set: any object, which may answer the delegate's selectors through the
  /// runtime without the Swift protocol.
  public internal(set) weak var delegateObject: AnyObject?

  /// The private target of the swipe-back gesture (the recognizer holds it weakly).
  let interactiveTransition = _UINavigationInteractiveTransition()

  /// The swipe-back gesture: a left-edge pan that drives an interactive pop.
  public let interactivePopGestureRecognizer: UIScreenEdgePanGestureRecognizer? =
    UIScreenEdgePanGestureRecognizer(target: nil, action: nil)

  /// A navigation controller showing `rootViewController`.
  public init(rootViewController: UIViewController) {
    navigationBar = UINavigationBar()
    super.init()
    // Apple's documentation of `definesPresentationContext`: "Some system-provided view
    // controllers, such as UINavigationController, change the default value to true."
    definesPresentationContext = true
    navigationBar.delegate = self
    // As in UIKit, the swipe-back's one target is a private `_UINavigationInteractiveTransition`
    // whose `handleNavigationTransition:` drives the pop, and which is also its delegate.
    interactiveTransition.navigationController = self
    if let pan = interactivePopGestureRecognizer {
      pan.addTarget(
        interactiveTransition, action: _UINavigationInteractiveTransition.handleSelector)
      pan.delegate = interactiveTransition
    }
    stack = [rootViewController]
    addChild(rootViewController)
    navigationBar.setItems([rootViewController.navigationItem], animated: false)
  }

  /// The view: the top controller's view under the bar.
  open override func loadView() {
    let container = UIView(frame: UIScreen.main.bounds)
    view = container
    // The swipe-back gesture lives on the controller's view, as in UIKit.
    if let pan = interactivePopGestureRecognizer { container.addGestureRecognizer(pan) }
  }

  /// Puts the top controller's view under the bar. The root's item, set on the bar at init,
  /// is pushed here as far as the bar's delegate can tell: UIKit's bar asks
  /// `navigationBar:shouldPushItem:` for it when the controller first shows (seeds apply the
  /// root page's bar values there).
  open override func viewDidLoad() {
    super.viewDidLoad()
    if let top = stack.last { view.addSubview(top.view) }
    view.addSubview(navigationBar)
    if let root = stack.first, stack.count == 1 {
      navigationBar.askToPush(root.navigationItem)
    }
  }

  // MARK: The stack

  /// The controllers, root first. Setting them replaces the stack without animation.
  open var viewControllers: [UIViewController] {
    get { stack }
    set { setViewControllers(newValue, animated: false) }
  }

  /// The top controller.
  open var topViewController: UIViewController? { stack.last }

  /// The controller on screen (the top one; presentation is not modelled).
  open var visibleViewController: UIViewController? { stack.last }

  /// With the bar hidden, the top controller decides the status bar style; with the bar
  /// visible, none does: the navigation controller answers itself, from its bar (UIKit's rule,
  /// which is why WRNavigationBar overrides `-[UINavigationController preferredStatusBarStyle]`).
  open override var childForStatusBarStyle: (any StatusBarAppearanceProviding)? {
    isNavigationBarHidden ? stack.last : nil
  }

  /// Pushes `viewController`. Refused (with a ``UIKitModelIssue``) for a controller already in
  /// the stack, as UIKit throws, and while another transition runs. Through the table.
  open func pushViewController(_ viewController: UIViewController, animated: Bool) {
    sendToTableReportingFailure(NavigationSelectors.push, viewController, animated)
  }

  /// Pops the top controller and returns it; nil for the root. Through the table.
  @discardableResult
  open func popViewController(animated: Bool) -> UIViewController? {
    (try? sendToTable(NavigationSelectors.pop, animated) as ObjCObject?)
      as? UIViewController
  }

  /// Pops down to `viewController` and returns the popped controllers; nil (and an issue) when
  /// it is not in the stack. Through the table.
  @discardableResult
  open func popToViewController(_ viewController: UIViewController, animated: Bool)
    -> [UIViewController]?
  {
    let list =
      try? sendToTable(NavigationSelectors.popTo, viewController, animated) as ObjCObject?
    return (list as? ViewControllerList)?.controllers
  }

  /// Pops down to the root and returns the popped controllers. Through the table.
  @discardableResult
  open func popToRootViewController(animated: Bool) -> [UIViewController]? {
    let list = try? sendToTable(NavigationSelectors.popToRoot, animated) as ObjCObject?
    return (list as? ViewControllerList)?.controllers
  }

  /// Replaces the stack; an empty list is refused. Through the table.
  open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
    sendToTableReportingFailure(
      NavigationSelectors.setControllers, ViewControllerList(viewControllers), animated)
  }

  /// Hides or shows the bar.
  open func setNavigationBarHidden(_ hidden: Bool, animated: Bool) {
    barHidden = hidden
    navigationBar.isHidden = hidden
  }

  /// The private update of an interactive transition, called with the percent on every change
  /// before the model's own update (seeds swizzle it). Through the table.
  open func updateInteractiveTransition(_ percent: CGFloat) {
    sendToTableReportingFailure(NavigationSelectors.updateInteractive, percent)
  }

  // MARK: The bar's delegate

  /// Whether the bar may push `item`: yes by default. Asked as a push shows its controller's
  /// item (and for the root's, when the controller first shows). Through the table, so a plugin
  /// can swizzle or a subclass override `navigationBar:shouldPushItem:`. The controller keeps
  /// its bar's items in step with its stack, so a no changes nothing for its own pushes (the
  /// model's decision: UIKit documents no answer but yes for a controller's bar).
  open func navigationBar(_ navigationBar: UINavigationBar, shouldPush item: UINavigationItem)
    -> Bool
  {
    (try? sendToTable(
      NavigationSelectors.shouldPush, navigationBar as ObjCObject, item as ObjCObject)
      as Bool) ?? true
  }

  /// Whether the bar may pop `item` (the back button): yes by default. Through the table, so a
  /// plugin can swizzle or a subclass override `navigationBar:shouldPopItem:`.
  open func navigationBar(_ navigationBar: UINavigationBar, shouldPop item: UINavigationItem)
    -> Bool
  {
    (try? sendToTable(
      NavigationSelectors.shouldPop, navigationBar as ObjCObject, item as ObjCObject)
      as Bool) ?? true
  }

  /// The bar popped `item` (the back button): the controller pops its top controller.
  open func navigationBar(_ navigationBar: UINavigationBar, didPop item: UINavigationItem) {
    if stack.count > 1, stack.last?.navigationItem === item {
      performPop(to: stack.count - 2, animated: true)
    }
  }

  // MARK: Interactive pop (UINavigationController+InteractivePop.swift)

  /// The interactive pop under way: the controllers, and where the views start.
  struct InteractivePop {
    let from: UIViewController
    let to: UIViewController
    let coordinator: UIViewControllerTransitionCoordinator
    /// The tab bar sliding back in with the page below, if the leaving page hid it (set once
    /// the bar's delegate agreed to the pop).
    var bottomBar: BottomBarSlide?
  }

  /// The interactive pop under way, between the pan's began and the end of its animation.
  var interactivePop: InteractivePop?
}
