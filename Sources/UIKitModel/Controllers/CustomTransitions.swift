// Custom transitions: the navigation controller's delegate, animators, interaction controllers,
// the transition context, and the percent-driven interactive transition.
public import Foundation
public import ObjCRuntime

/// The operation of a navigation transition.
public enum UINavigationControllerOperation: Int, Sendable {
  /// No operation.
  case none = 0
  /// A push.
  case push = 1
  /// A pop.
  case pop = 2
}

/// What a navigation controller tells and asks its delegate (UIKit's
/// `UINavigationControllerDelegate`).
public protocol UINavigationControllerDelegate: AnyObject {
  /// `viewController` is about to be shown.
  func navigationController(
    _ navigationController: UINavigationController, willShow viewController: UIViewController,
    animated: Bool)
  /// `viewController` was shown.
  func navigationController(
    _ navigationController: UINavigationController, didShow viewController: UIViewController,
    animated: Bool)
  /// The animator of a transition; nil for the default slide.
  func navigationController(
    _ navigationController: UINavigationController,
    animationControllerFor operation: UINavigationControllerOperation,
    from fromVC: UIViewController, to toVC: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)?
  /// The interaction controller that drives the animator; nil for a non-interactive transition.
  func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)?
}

extension UINavigationControllerDelegate {
  /// Nothing.
  public func navigationController(
    _ navigationController: UINavigationController, willShow viewController: UIViewController,
    animated: Bool
  ) {}
  /// Nothing.
  public func navigationController(
    _ navigationController: UINavigationController, didShow viewController: UIViewController,
    animated: Bool
  ) {}
  /// None: the default slide.
  public func navigationController(
    _ navigationController: UINavigationController,
    animationControllerFor operation: UINavigationControllerOperation,
    from fromVC: UIViewController, to toVC: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)? { nil }
  /// None.
  public func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)? { nil }
}

/// An animator of a custom transition (UIKit's `UIViewControllerAnimatedTransitioning`).
public protocol UIViewControllerAnimatedTransitioning: AnyObject {
  /// The duration.
  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?)
    -> TimeInterval
  /// Animates the views, and calls `completeTransition(_:)` on the context when done.
  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning)
  /// The transition ended.
  func animationEnded(_ transitionCompleted: Bool)
}

extension UIViewControllerAnimatedTransitioning {
  /// Nothing.
  public func animationEnded(_ transitionCompleted: Bool) {}
}

/// What drives an interactive transition (UIKit's `UIViewControllerInteractiveTransitioning`).
public protocol UIViewControllerInteractiveTransitioning: AnyObject {
  /// Starts driving the transition of `transitionContext`.
  func startInteractiveTransition(_ transitionContext: any UIViewControllerContextTransitioning)
}

/// What an animator works with (UIKit's `UIViewControllerContextTransitioning`).
public protocol UIViewControllerContextTransitioning: AnyObject {
  /// The view the transition happens in.
  var containerView: UIView { get }
  /// Whether the transition is animated.
  var isAnimated: Bool { get }
  /// Whether it is interactive now.
  var isInteractive: Bool { get }
  /// Whether it was cancelled.
  var transitionWasCancelled: Bool { get }
  /// The controller for `key`.
  func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
  /// The view for `key`.
  func view(forKey key: UITransitionContextViewKey) -> UIView?
  /// Ends the transition: `didComplete` false puts everything back. Call it once.
  func completeTransition(_ didComplete: Bool)
  /// An interaction controller reports its progress.
  func updateInteractiveTransition(_ percentComplete: CGFloat)
  /// An interaction controller will finish the transition.
  func finishInteractiveTransition()
  /// An interaction controller will cancel the transition.
  func cancelInteractiveTransition()
}

/// The model's transition context, made by the navigation controller for a custom transition.
internal final class TransitionContext: UIViewControllerContextTransitioning {
  let containerView: UIView
  let isAnimated: Bool
  private(set) var isInteractive: Bool
  private(set) var transitionWasCancelled = false
  let coordinator: UIViewControllerTransitionCoordinator
  let animator: any UIViewControllerAnimatedTransitioning
  private let finish: (Bool) -> Void
  private var completed = false
  private let name: String

  init(
    coordinator: UIViewControllerTransitionCoordinator,
    animator: any UIViewControllerAnimatedTransitioning, interactive: Bool, name: String,
    finish: @escaping (Bool) -> Void
  ) {
    self.coordinator = coordinator
    self.containerView = coordinator.containerView
    self.isAnimated = coordinator.isAnimated
    self.animator = animator
    self.isInteractive = interactive
    self.name = name
    self.finish = finish
  }

  func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController? {
    coordinator.viewController(forKey: key)
  }

  func view(forKey key: UITransitionContextViewKey) -> UIView? {
    coordinator.view(forKey: key)
  }

  func completeTransition(_ didComplete: Bool) {
    guard !completed else {
      UIKitModelIssues.report(.transitionCompletedTwice(controller: name))
      return
    }
    completed = true
    finish(didComplete)
    animator.animationEnded(didComplete)
  }

  func updateInteractiveTransition(_ percentComplete: CGFloat) {
    coordinator.interactivePercent = max(0, min(1, percentComplete))
  }

  func finishInteractiveTransition() {
    isInteractive = false
    coordinator.isInteractive = false
    coordinator.interactionChanged()
  }

  func cancelInteractiveTransition() {
    isInteractive = false
    transitionWasCancelled = true
    coordinator.isInteractive = false
    coordinator.isCancelled = true
    coordinator.interactionChanged()
  }
}

/// An interaction controller that scrubs an animator's `UIView.animate` animations by percent
/// (UIKit's `UIPercentDrivenInteractiveTransition`): when it starts, the animator runs with its
/// animations paused at their start; ``update(_:)`` holds them at a percent of their time;
/// ``finish()`` runs them on to the end, ``cancel()`` back to the start, over the remaining
/// virtual time divided by ``completionSpeed``. The animator's completion then completes the
/// transition, as on iOS.
open class UIPercentDrivenInteractiveTransition: ObjCObject,
  UIViewControllerInteractiveTransitioning
{
  /// How much faster than the animator's own duration the rest runs after release.
  open var completionSpeed: CGFloat = 1
  /// The curve of the rest after release (kept; the model resumes linearly in time).
  open var completionCurve: AnimationCurve = .easeInOut
  /// The percent last passed to ``update(_:)``, kept after ``finish()`` or ``cancel()`` while
  /// the rest of the animations run (UIKit's `percentComplete` does the same).
  public private(set) var percentComplete: CGFloat = 0
  /// The animator's duration.
  public private(set) var duration: TimeInterval = 0
  private weak var context: (any UIViewControllerContextTransitioning)?
  private var paused: [RunningAnimation] = []

  /// Starts: runs the animator with its animations paused.
  open func startInteractiveTransition(
    _ transitionContext: any UIViewControllerContextTransitioning
  ) {
    context = transitionContext
    guard let model = transitionContext as? TransitionContext else { return }
    duration = model.animator.transitionDuration(using: transitionContext)
    let engine = VirtualRunLoop.main.animations
    engine.beginCapture()
    model.animator.animateTransition(using: transitionContext)
    paused = engine.endCapture()
  }

  /// Holds the animations at `percentComplete` of their time.
  open func update(_ percentComplete: CGFloat) {
    let percent = max(0, min(1, percentComplete))
    self.percentComplete = percent
    for animation in paused { animation.scrub = Double(percent) }
    context?.updateInteractiveTransition(percent)
  }

  /// Runs the animations on to their end.
  open func finish() {
    context?.finishInteractiveTransition()
    resume(towards: 1, over: duration * Double(1 - percentComplete))
  }

  /// Runs the animations back to their start.
  open func cancel() {
    context?.cancelInteractiveTransition()
    resume(towards: 0, over: duration * Double(percentComplete))
  }

  private func resume(towards progress: Double, over time: TimeInterval) {
    let now = VirtualRunLoop.main.currentTime
    let speed = Double(max(0.01, completionSpeed))
    for animation in paused {
      animation.resume(towards: progress, over: time / speed, at: now)
    }
    paused.removeAll()
  }
}
