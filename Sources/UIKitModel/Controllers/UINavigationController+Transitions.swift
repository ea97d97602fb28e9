// UINavigationController's transitions: push, pop, popTo and setViewControllers, with their
// appearance callbacks in UIKit's order, the bar in step, and custom animators from the delegate.
import Foundation
import ObjCRuntime

extension UINavigationController {
  /// Whether a new transition may start; reports why not.
  func canTransition(_ what: String) -> Bool {
    guard !isTransitioning else {
      UIKitModelIssues.report(.transitionInProgress(controller: description, request: what))
      return false
    }
    return true
  }

  func performPush(_ controller: UIViewController, animated: Bool) {
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
  func performPop(to index: Int, animated: Bool) -> [UIViewController]? {
    guard index >= 0, index < stack.count - 1 else { return nil }
    guard canTransition("pop to \(stack[index])") else { return nil }
    let removed = Array(stack[(index + 1)...])
    let from = stack.last
    stack.removeSubrange((index + 1)...)
    transition(from: from, to: stack[index], removed: removed, animated: animated, push: false)
    return removed
  }

  func performSet(_ controllers: [UIViewController], animated: Bool) {
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
      bottomBarSlide(to: stack, push: true)?.end(completed: true)
      return
    }
    transition(
      from: from, to: to, removed: removed, animated: animated,
      push: from.map { old in !controllers.contains { $0 === old } } ?? true)
  }

  /// Runs a transition from `from` to `to`: appearance callbacks in UIKit's order, the bar's
  /// items in step, and, when animated, a slide over ``transitionDuration`` in a transaction.
  func transition(
    from: UIViewController?, to: UIViewController, removed: [UIViewController], animated: Bool,
    push: Bool, pushedItem: UINavigationItem? = nil
  ) {
    let container = view!
    // UIKit loads the incoming view before any appearance callback.
    to.loadViewIfNeeded()
    // A custom animator, and an interaction controller to drive it, come from the delegate.
    let operation: UINavigationControllerOperation = push ? .push : .pop
    let animator =
      animated ? from.flatMap { self.animator(for: operation, from: $0, to: to) } : nil
    let interaction = animator.flatMap { self.interactionController(for: $0) }
    let duration =
      animator?.transitionDuration(using: nil) ?? UINavigationController.transitionDuration
    let coordinator = UIViewControllerTransitionCoordinator(
      from: from, to: to, container: container, animated: animated,
      interactive: interaction != nil, duration: duration)
    activeCoordinator = coordinator
    isTransitioning = true
    if push { to.isMovingToParent = true } else { from?.isMovingFromParent = true }
    // A tab bar this stack hides or shows slides with the pages.
    let slide = bottomBarSlide(to: stack, push: push)
    slide?.start()

    // iOS 18: the bar's background is out of the bar from here to after willShow.
    navigationBar.takeBackgroundOutForTransition()
    from?.viewWillDisappear(animated)
    to.viewWillAppear(animated)
    // A push goes through the bar's push, which asks its delegate `shouldPushItem`.
    if let pushedItem { navigationBar.askToPush(pushedItem) }
    navigationBar.setItems(stack.map(\.navigationItem), animated: animated)
    container.insertSubview(to.view, belowSubview: navigationBar)
    tellWillShow(to, animated: animated)
    if !activeSearches.isEmpty { tellActiveSearchesWillShow() }
    navigationBar.putBackgroundBackAfterTransitionStart()

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
      slide?.end(completed: completed)
      self.tabBarController?.tabBar.scrollEdgeMayHaveChanged()
      coordinator.runCompletions()
      self.activeCoordinator = nil
      self.activeContext = nil
      self.isTransitioning = false
      to.isMovingToParent = false
      from?.isMovingFromParent = false
      if completed {
        from?.viewDidDisappear(animated)
        to.viewDidAppear(animated)
        self.tellDidShow(to, animated: animated)
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
      let context = _UIViewControllerOneToOneTransitionContext(
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
      // The tab bar slides over the duration on its own, whatever the animator does
      // (EZCustomNavigation issue 11: it "seems to move at its own will, not following the
      // animation block").
      if let slide {
        UIView.animate(
          withDuration: duration, delay: 0, options: .curveEaseInOut,
          animations: { slide.place(1) })
      }
      activeContext = context
      context.watch(after: duration)
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
        slide?.place(1)
        coordinator.runAlongside()
      },
      completion: { _ in
        from?.view.frame = toEnd
        end(true)
      })
    CATransaction.commit()
  }

  /// How long after its duration a custom transition may go without `completeTransition(_:)`
  /// (and without an interaction driving it) before the model completes it, in seconds of
  /// virtual time.
  public static let transitionTimeout: TimeInterval = 2
}
