// UINavigationController: the stack, push and pop with UIKit's appearance callbacks, animated
// transitions on the virtual clock, the bar kept in step, and UIKit's rules.
public import Foundation
public import ObjCRuntime

/// A list of view controllers as an object, so that it can cross the runtime (the `NSArray` of
/// `-setViewControllers:animated:` and of `-popToViewController:animated:`'s result).
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
      ObjCIvarDeclaration("_isTransitioning", readOnly: \UINavigationController.isTransitioning)
    }
  }

  /// The bar; the controller is its delegate.
  public let navigationBar: UINavigationBar
  /// The controllers, root first.
  public private(set) var stack: [UIViewController] = []
  /// Whether a push or pop is under way (the private `_isTransitioning`).
  public private(set) var isTransitioning = false
  /// The coordinator of the transition under way.
  public internal(set) var activeCoordinator: UIViewControllerTransitionCoordinator?
  /// Whether the bar is hidden.
  public private(set) var isNavigationBarHidden = false
  /// The delegate: told of the controllers shown, and asked for custom animators.
  open weak var delegate: (any UINavigationControllerDelegate)?

  /// The swipe-back gesture: a left-edge pan that drives an interactive pop.
  public let interactivePopGestureRecognizer: UIScreenEdgePanGestureRecognizer? =
    UIScreenEdgePanGestureRecognizer(target: nil, action: nil)

  /// A navigation controller showing `rootViewController`.
  public init(rootViewController: UIViewController) {
    navigationBar = UINavigationBar()
    super.init()
    navigationBar.delegate = self
    interactivePopGestureRecognizer?.handler = { [weak self] recognizer in
      guard let self, let pan = recognizer as? UIPanGestureRecognizer else { return }
      self.handleInteractivePop(pan)
    }
    stack = [rootViewController]
    addChild(rootViewController)
    navigationBar.setItems([rootViewController.navigationItem], animated: false)
  }

  /// The view: the top controller's view under the bar.
  open override func loadView() {
    let container = UIView(frame: UIScreen.main.bounds)
    view = container
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
    isNavigationBarHidden = hidden
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

  // MARK: Transitions

  /// Whether a new transition may start; reports why not.
  private func canTransition(_ what: String) -> Bool {
    guard !isTransitioning else {
      UIKitModelIssues.report(.transitionInProgress(controller: description, request: what))
      return false
    }
    return true
  }

  fileprivate func performPush(_ controller: UIViewController, animated: Bool) {
    guard !stack.contains(where: { $0 === controller }) else {
      UIKitModelIssues.report(.pushedTwice(controller: controller.description))
      return
    }
    guard canTransition("push \(controller)") else { return }
    let from = stack.last
    stack.append(controller)
    addChild(controller)
    transition(
      from: from, to: controller, removed: [], animated: animated, push: true,
      pushedItem: controller.navigationItem)
  }

  @discardableResult
  fileprivate func performPop(to index: Int, animated: Bool) -> [UIViewController]? {
    guard index >= 0, index < stack.count - 1 else { return nil }
    guard canTransition("pop to \(stack[index])") else { return nil }
    let removed = Array(stack[(index + 1)...])
    let from = stack.last
    stack.removeSubrange((index + 1)...)
    transition(from: from, to: stack[index], removed: removed, animated: animated, push: false)
    return removed
  }

  fileprivate func performSet(_ controllers: [UIViewController], animated: Bool) {
    guard !controllers.isEmpty else {
      UIKitModelIssues.report(.emptyViewControllers(controller: description))
      return
    }
    var seen = Set<ObjectIdentifier>()
    if let duplicate = controllers.first(where: { !seen.insert(ObjectIdentifier($0)).inserted }) {
      UIKitModelIssues.report(
        .duplicateViewControllers(
          controller: duplicate.description, navigationController: description))
      return
    }
    guard canTransition("set view controllers") else { return }
    let from = stack.last
    let removed = stack.filter { old in !controllers.contains { $0 === old } }
    stack = controllers
    for controller in controllers where controller.parent !== self { addChild(controller) }
    guard let to = controllers.last else { return }
    if from === to {
      for controller in removed { controller.removeFromParent() }
      navigationBar.setItems(stack.map(\.navigationItem), animated: false)
      return
    }
    transition(
      from: from, to: to, removed: removed, animated: animated,
      push: from.map { old in !controllers.contains { $0 === old } } ?? true)
  }

  // MARK: Interactive pop

  /// The interactive pop under way: the controllers, and where the views start.
  private struct InteractivePop {
    let from: UIViewController
    let to: UIViewController
    let coordinator: UIViewControllerTransitionCoordinator
  }

  private var interactivePop: InteractivePop?

  /// Drives the default pop from the edge pan: began starts an interactive transition (the bar's
  /// delegate is asked `shouldPop` with `initiallyInteractive` true), changed moves it to
  /// translation / width and calls `_updateInteractiveTransition:`, ended or cancelled finishes
  /// it or cancels it by position and velocity, over the rest of the duration.
  private func handleInteractivePop(_ pan: UIPanGestureRecognizer) {
    switch pan.state {
    case .began: beginInteractivePop()
    case .changed:
      guard interactivePop != nil else { return }
      let width = max(1, view.bounds.width)
      let percent = max(0, min(1, pan.translation(in: view).x / width))
      updateInteractiveTransition(percent)
      placeInteractiveViews(percent)
    case .ended, .cancelled:
      guard let pop = interactivePop else { return }
      let percent = pop.coordinator.percentComplete
      let velocity = pan.velocity(in: view).x
      let finishing =
        pan.state == .ended && (velocity > 300 || (percent > 0.5 && velocity > -300))
      endInteractivePop(finishing: finishing, velocity: velocity)
    default: break
    }
  }

  private func beginInteractivePop() {
    guard stack.count > 1, !isTransitioning, let from = stack.last else { return }
    let to = stack[stack.count - 2]
    to.loadViewIfNeeded()
    let coordinator = UIViewControllerTransitionCoordinator(
      from: from, to: to, container: view, animated: true, interactive: true,
      duration: UINavigationController.transitionDuration)
    activeCoordinator = coordinator
    isTransitioning = true
    interactivePop = InteractivePop(from: from, to: to, coordinator: coordinator)
    // UIKit asks the bar's delegate at the start of an interactive pop (seeds rely on it).
    let item = from.navigationItem
    guard navigationBar(navigationBar, shouldPop: item) else {
      interactivePop = nil
      activeCoordinator = nil
      isTransitioning = false
      return
    }
    from.isMovingFromParent = true
    stack.removeLast()
    from.viewWillDisappear(true)
    to.viewWillAppear(true)
    navigationBar.setItems(stack.map(\.navigationItem), animated: true)
    view.insertSubview(to.view, belowSubview: navigationBar)
    placeInteractiveViews(0)
  }

  private func placeInteractiveViews(_ percent: CGFloat) {
    guard let pop = interactivePop else { return }
    let width = view.bounds.width
    UIView.performWithoutAnimation {
      pop.from.view.frame = view.bounds.offsetBy(dx: width * percent, dy: 0)
      pop.to.view.frame = view.bounds.offsetBy(dx: -width * 0.3 * (1 - percent), dy: 0)
    }
  }

  private func endInteractivePop(finishing: Bool, velocity: CGFloat) {
    guard let pop = interactivePop else { return }
    let coordinator = pop.coordinator
    let percent = coordinator.percentComplete
    coordinator.isInteractive = false
    coordinator.isCancelled = !finishing
    coordinator.completionVelocity = abs(velocity) / max(1, view.bounds.width)
    coordinator.interactionChanged()
    let width = view.bounds.width
    let remaining = coordinator.transitionDuration * Double(finishing ? 1 - percent : percent)
    let (from, to) = (pop.from, pop.to)
    if !finishing {
      // The stack and the bar go back at once; the callbacks that say so come when the
      // cancelled transition has run back (below).
      stack.append(from)
      navigationBar.setItems(stack.map(\.navigationItem), animated: true)
    }
    UIView.animate(
      withDuration: remaining, delay: 0, options: .curveLinear,
      animations: {
        from.view.frame = finishing ? self.view.bounds.offsetBy(dx: width, dy: 0) : self.view.bounds
        to.view.frame =
          finishing ? self.view.bounds : self.view.bounds.offsetBy(dx: -width * 0.3, dy: 0)
      },
      completion: { _ in
        self.interactivePop = nil
        coordinator.runCompletions()
        self.activeCoordinator = nil
        self.isTransitioning = false
        from.isMovingFromParent = false
        if finishing {
          from.view.removeFromSuperview()
          from.removeFromParent()
          from.viewDidDisappear(true)
          to.viewDidAppear(true)
        } else {
          // UIKit's order once a cancelled pop has run back: the controller that was coming
          // disappears, then the leaving one appears again (B to A cancelled: A willDisappear,
          // A didDisappear, B willAppear, B didAppear).
          to.view.removeFromSuperview()
          to.viewWillDisappear(true)
          to.viewDidDisappear(true)
          from.viewWillAppear(true)
          from.viewDidAppear(true)
        }
      })
  }

  /// Runs a transition from `from` to `to`: appearance callbacks in UIKit's order, the bar's
  /// items in step, and, when animated, a slide over ``transitionDuration`` in a transaction.
  private func transition(
    from: UIViewController?, to: UIViewController, removed: [UIViewController], animated: Bool,
    push: Bool, pushedItem: UINavigationItem? = nil
  ) {
    let container = view!
    // UIKit loads the incoming view before any appearance callback.
    to.loadViewIfNeeded()
    // A custom animator, and an interaction controller to drive it, come from the delegate.
    let operation: UINavigationControllerOperation = push ? .push : .pop
    let animator =
      animated
      ? from.flatMap {
        delegate?.navigationController(self, animationControllerFor: operation, from: $0, to: to)
      } : nil
    let interaction = animator.flatMap {
      delegate?.navigationController(self, interactionControllerFor: $0)
    }
    let duration =
      animator?.transitionDuration(using: nil) ?? UINavigationController.transitionDuration
    let coordinator = UIViewControllerTransitionCoordinator(
      from: from, to: to, container: container, animated: animated,
      interactive: interaction != nil, duration: duration)
    activeCoordinator = coordinator
    isTransitioning = true
    if push { to.isMovingToParent = true } else { from?.isMovingFromParent = true }

    from?.viewWillDisappear(animated)
    to.viewWillAppear(animated)
    // A push goes through the bar's push, which asks its delegate `shouldPushItem`.
    if let pushedItem { navigationBar.askToPush(pushedItem) }
    navigationBar.setItems(stack.map(\.navigationItem), animated: animated)
    container.insertSubview(to.view, belowSubview: navigationBar)
    delegate?.navigationController(self, willShow: to, animated: animated)

    let end: (Bool) -> Void = { [weak self] completed in
      guard let self else { return }
      if completed {
        if let from, from !== to { from.view.removeFromSuperview() }
        for controller in removed where controller !== to { controller.removeFromParent() }
      } else {
        // Cancelled: the stack and the bar go back, and the callbacks say so.
        if push {
          self.stack.removeAll { $0 === to }
          to.removeFromParent()
        } else {
          self.stack.append(contentsOf: removed)
        }
        self.navigationBar.setItems(self.stack.map(\.navigationItem), animated: animated)
        to.view.removeFromSuperview()
      }
      coordinator.runCompletions()
      self.activeCoordinator = nil
      self.isTransitioning = false
      to.isMovingToParent = false
      from?.isMovingFromParent = false
      if completed {
        from?.viewDidDisappear(animated)
        to.viewDidAppear(animated)
        self.delegate?.navigationController(self, didShow: to, animated: animated)
      } else {
        // As a cancelled interactive pop: the coming controller disappears, then the leaving
        // one appears again.
        to.viewWillDisappear(animated)
        to.viewDidDisappear(animated)
        from?.viewWillAppear(animated)
        from?.viewDidAppear(animated)
      }
    }
    guard animated else {
      coordinator.runAlongside()
      end(true)
      return
    }
    if let animator {
      let context = TransitionContext(
        coordinator: coordinator, animator: animator, interactive: interaction != nil,
        name: description, finish: end)
      CATransaction.begin()
      if let interaction {
        interaction.startInteractiveTransition(context)
      } else {
        animator.animateTransition(using: context)
      }
      coordinator.runAlongside()
      CATransaction.commit()
      return
    }
    let width = container.bounds.width
    let toEnd = container.bounds
    let fromEnd = container.bounds.offsetBy(dx: push ? -width * 0.3 : width, dy: 0)
    to.view.frame = container.bounds.offsetBy(dx: push ? width : -width * 0.3, dy: 0)
    CATransaction.begin()
    UIView.animate(
      withDuration: duration, delay: 0, options: .curveEaseInOut,
      animations: {
        to.view.frame = toEnd
        from?.view.frame = fromEnd
        coordinator.runAlongside()
      },
      completion: { _ in
        from?.view.frame = toEnd
        end(true)
      })
    CATransaction.commit()
  }
}

// MARK: - IMPs

extension UINavigationController {
  fileprivate static func navigation(_ me: id) -> UINavigationController {
    me.receiver(as: UINavigationController.self)
  }

  fileprivate static func controller(_ object: id?) -> UIViewController? {
    object.map { $0.takeUnretainedObject() } as? UIViewController
  }

  /// The view controller a push or popTo was sent with; nil, with an issue naming the method, for
  /// nil or an object that is not a view controller (UIKit raises for nil).
  fileprivate func requireController(_ object: id?, _ operation: String) -> UIViewController? {
    if let controller = UINavigationController.controller(object) { return controller }
    let method =
      operation == "push"
      ? "-[UINavigationController pushViewController:animated:]"
      : "-[UINavigationController popToViewController:animated:]"
    UIKitModelIssues.report(.nilViewController(method: method, navigationController: description))
    return nil
  }

  fileprivate enum Base {
    static let push: @convention(c) (id, SEL, id?, Bool) -> Void = { me, _, controller, animated in
      let navigation = UINavigationController.navigation(me)
      guard let controller = navigation.requireController(controller, "push") else { return }
      navigation.performPush(controller, animated: animated)
    }
    static let pop: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
      let navigation = UINavigationController.navigation(me)
      let popped = navigation.performPop(to: navigation.stack.count - 2, animated: animated)
      return popped?.last?.passRetained()
    }
    static let popTo: @convention(c) (id, SEL, id?, Bool) -> id? = { me, _, target, animated in
      let navigation = UINavigationController.navigation(me)
      guard let target = navigation.requireController(target, "popTo") else { return nil }
      guard let index = navigation.stack.firstIndex(where: { $0 === target }) else {
        UIKitModelIssues.report(
          .notInStack(controller: target.description, navigationController: navigation.description))
        return nil
      }
      let popped = navigation.performPop(to: index, animated: animated) ?? []
      return ViewControllerList(popped).passRetained()
    }
    static let popToRoot: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
      let popped = UINavigationController.navigation(me).performPop(to: 0, animated: animated)
      return ViewControllerList(popped ?? []).passRetained()
    }
    static let setControllers: @convention(c) (id, SEL, id?, Bool) -> Void = {
      me, _, list, animated in
      let controllers =
        (list.map { $0.takeUnretainedObject() } as? ViewControllerList)?.controllers ?? []
      UINavigationController.navigation(me).performSet(controllers, animated: animated)
    }
    static let shouldPush: @convention(c) (id, SEL, id?, id?) -> Bool = { _, _, _, _ in true }
    static let shouldPop: @convention(c) (id, SEL, id?, id?) -> Bool = { _, _, _, _ in true }
    /// UIKit's answer of a navigation controller: dark content over a default bar, light
    /// content over a black one.
    static let statusBarStyle: @convention(c) (id, SEL) -> Int = { me, _ in
      switch UINavigationController.navigation(me).navigationBar.barStyle {
      case .default: UIStatusBarStyle.default.rawValue
      case .black: UIStatusBarStyle.lightContent.rawValue
      }
    }
    static let updateInteractive: @convention(c) (id, SEL, Double) -> Void = { me, _, percent in
      UINavigationController.navigation(me).activeCoordinator?.interactivePercent =
        CGFloat(percent)
    }
  }

  fileprivate enum Entry {
    static let push: @convention(c) (id, SEL, id?, Bool) -> Void = { me, _, controller, animated in
      let navigation = UINavigationController.navigation(me)
      guard let controller = navigation.requireController(controller, "push") else { return }
      navigation.pushViewController(controller, animated: animated)
    }
    static let pop: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
      UINavigationController.navigation(me).popViewController(animated: animated)?
        .passRetained()
    }
    static let popTo: @convention(c) (id, SEL, id?, Bool) -> id? = { me, _, target, animated in
      let navigation = UINavigationController.navigation(me)
      guard let target = navigation.requireController(target, "popTo") else { return nil }
      let popped = navigation.popToViewController(target, animated: animated)
      return popped.map { ViewControllerList($0).passRetained() }
    }
    static let popToRoot: @convention(c) (id, SEL, Bool) -> id? = { me, _, animated in
      let popped = UINavigationController.navigation(me).popToRootViewController(
        animated: animated)
      return popped.map { ViewControllerList($0).passRetained() }
    }
    static let setControllers: @convention(c) (id, SEL, id?, Bool) -> Void = {
      me, _, list, animated in
      let controllers =
        (list.map { $0.takeUnretainedObject() } as? ViewControllerList)?.controllers ?? []
      UINavigationController.navigation(me).setViewControllers(controllers, animated: animated)
    }
    static let statusBarStyle: @convention(c) (id, SEL) -> Int = { me, _ in
      UINavigationController.navigation(me).preferredStatusBarStyle.rawValue
    }
    static let shouldPush: @convention(c) (id, SEL, id?, id?) -> Bool = { me, _, bar, item in
      guard let bar = bar.map({ $0.takeUnretainedObject() }) as? UINavigationBar,
        let item = item.map({ $0.takeUnretainedObject() }) as? UINavigationItem
      else { return true }
      return UINavigationController.navigation(me).navigationBar(bar, shouldPush: item)
    }
    static let shouldPop: @convention(c) (id, SEL, id?, id?) -> Bool = { me, _, bar, item in
      guard let bar = bar.map({ $0.takeUnretainedObject() }) as? UINavigationBar,
        let item = item.map({ $0.takeUnretainedObject() }) as? UINavigationItem
      else { return true }
      return UINavigationController.navigation(me).navigationBar(bar, shouldPop: item)
    }
    static let updateInteractive: @convention(c) (id, SEL, Double) -> Void = { me, _, percent in
      UINavigationController.navigation(me).updateInteractiveTransition(CGFloat(percent))
    }
  }
}

/// The selectors of UINavigationController's table methods, kept in static storage and registered
/// once (`SelectorReference`).
private enum NavigationSelectors {
  static let push = SelectorReference("pushViewController:animated:")
  static let pop = SelectorReference("popViewControllerAnimated:")
  static let popTo = SelectorReference("popToViewController:animated:")
  static let popToRoot = SelectorReference("popToRootViewControllerAnimated:")
  static let setControllers = SelectorReference("setViewControllers:animated:")
  static let shouldPush = SelectorReference("navigationBar:shouldPushItem:")
  static let shouldPop = SelectorReference("navigationBar:shouldPopItem:")
  static let updateInteractive = SelectorReference("_updateInteractiveTransition:")
}
