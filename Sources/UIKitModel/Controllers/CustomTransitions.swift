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

extension UINavigationController {
  /// UIKit's name of the operations: `UINavigationController.Operation.push`.
  public typealias Operation = UINavigationControllerOperation
}

/// What a navigation controller tells and asks its delegate (UIKit's
/// `UINavigationControllerDelegate`).
@preconcurrency @MainActor
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
@preconcurrency @MainActor
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
@preconcurrency @MainActor
public protocol UIViewControllerInteractiveTransitioning: AnyObject {
  /// Starts driving the transition of `transitionContext`.
  func startInteractiveTransition(_ transitionContext: any UIViewControllerContextTransitioning)
}

/// What an animator works with (UIKit's `UIViewControllerContextTransitioning`).
@preconcurrency @MainActor
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

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// The model's transition context, made by the navigation controller for a custom transition
/// (UIKit's private class of that name). Its methods that change the transition
/// (`completeTransition:`, `updateInteractiveTransition:`, `finishInteractiveTransition`,
/// `cancelInteractiveTransition`) are in its table, so a plugin can hook them; the Swift methods
/// send through the table.
@preconcurrency @MainActor
public final class _UIViewControllerOneToOneTransitionContext: ObjCObject,
  UIViewControllerContextTransitioning
{
  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(_UIViewControllerOneToOneTransitionContext.self) {
      ObjCMethodDeclaration("completeTransition:", ContextBase.complete)
      ObjCMethodDeclaration("updateInteractiveTransition:", ContextBase.update)
      ObjCMethodDeclaration("finishInteractiveTransition", ContextBase.finish)
      ObjCMethodDeclaration("cancelInteractiveTransition", ContextBase.cancel)
    }
  }

  /// The view the transition happens in.
  public let containerView: UIView
  /// Whether the transition is animated.
  public let isAnimated: Bool
  /// Whether an interaction controller drives the transition now.
  public private(set) var isInteractive: Bool
  /// Whether the transition was cancelled.
  public private(set) var transitionWasCancelled = false
  let coordinator: UIViewControllerTransitionCoordinator
  let animator: any UIViewControllerAnimatedTransitioning
  private let finish: (Bool) -> Void
  /// Whether `completeTransition(_:)` was called.
  public private(set) var isCompleted = false
  /// The watch for an animator that never completes (``watch(after:)``); stopped at the
  /// completion, so that it keeps no run loop busy. The timer holds the context weakly; the
  /// navigation controller holds the context until the transition ends.
  private var watchdog: VirtualRunLoop.Timer?
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
    super.init()
  }

  /// The controller for `key`.
  public func viewController(forKey key: UITransitionContextViewControllerKey)
    -> UIViewController?
  {
    coordinator.viewController(forKey: key)
  }

  /// The view for `key`.
  public func view(forKey key: UITransitionContextViewKey) -> UIView? {
    coordinator.view(forKey: key)
  }

  /// Ends the transition (`completeTransition:`, through the table); a second call is refused
  /// with an issue.
  public func completeTransition(_ didComplete: Bool) {
    sendToTableReportingFailure(ContextSelectors.complete, didComplete)
  }

  /// Reports the progress, clamped to 0...1 (`updateInteractiveTransition:`).
  public func updateInteractiveTransition(_ percentComplete: CGFloat) {
    sendToTableReportingFailure(ContextSelectors.update, Double(percentComplete))
  }

  /// The interaction will finish the transition (`finishInteractiveTransition`).
  public func finishInteractiveTransition() {
    sendToTableReportingFailure(ContextSelectors.finish)
  }

  /// The interaction will cancel the transition (`cancelInteractiveTransition`).
  public func cancelInteractiveTransition() {
    sendToTableReportingFailure(ContextSelectors.cancel)
  }

  fileprivate func performComplete(_ didComplete: Bool) {
    guard !isCompleted else {
      UIKitModelIssues.report(.transitionCompletedTwice(controller: name))
      return
    }
    isCompleted = true
    watchdog?.invalidate()
    watchdog = nil
    finish(didComplete)
    animator.animationEnded(didComplete)
  }

  fileprivate func performUpdate(_ percent: Double) {
    guard !percent.isNaN else {
      UIKitModelIssues.report(
        .invalidGeometry(view: name, value: "interactive transition percent nan"))
      return
    }
    coordinator.interactivePercent = max(0, min(1, CGFloat(percent)))
  }

  fileprivate func performFinish() {
    isInteractive = false
    coordinator.isInteractive = false
    coordinator.interactionChanged()
    // The rest runs by itself now: watch it from here.
    watch(after: coordinator.transitionDuration)
  }

  fileprivate func performCancel() {
    isInteractive = false
    transitionWasCancelled = true
    coordinator.isInteractive = false
    coordinator.isCancelled = true
    coordinator.interactionChanged()
    watch(after: coordinator.transitionDuration)
  }

  /// Watches for an animator that never completes: `delay` plus
  /// ``UINavigationController/transitionTimeout`` from now, if the transition is not complete
  /// and no interaction drives it (a release watches again), it is reported
  /// (`transitionNeverCompleted`) and completed, cancelled if an interaction cancelled it, so
  /// that the stack, the bar and the callbacks are consistent again.
  func watch(after delay: TimeInterval) {
    watchdog?.invalidate()
    watchdog = nil
    guard !isCompleted else { return }
    let timeout = UINavigationController.transitionTimeout
    watchdog = VirtualRunLoop.main.scheduledTimer(
      withTimeInterval: delay + timeout, repeats: false, modes: [.common]
    ) { [weak self] _ in
      guard let self else { return }
      self.watchdog = nil
      guard !self.isCompleted, !self.isInteractive else { return }
      UIKitModelIssues.report(.transitionNeverCompleted(controller: self.name, timeout: timeout))
      self.completeTransition(!self.transitionWasCancelled)
    }
  }
}

/// The context's IMPs.
private enum ContextBase {
  static func context(_ me: id) -> _UIViewControllerOneToOneTransitionContext {
    me.receiver(as: _UIViewControllerOneToOneTransitionContext.self)
  }
  static let complete: @convention(c) (id, SEL, Bool) -> Void = { me, _, done in
    MainThread.enterIMP(with: me, done) { me, done in
      context(me).performComplete(done)
    }
  }
  static let update: @convention(c) (id, SEL, Double) -> Void = { me, _, percent in
    MainThread.enterIMP(with: me, percent) { me, percent in
      context(me).performUpdate(percent)
    }
  }
  static let finish: @convention(c) (id, SEL) -> Void = { me, _ in
    MainThread.enterIMP(with: me) { me in context(me).performFinish() }
  }
  static let cancel: @convention(c) (id, SEL) -> Void = { me, _ in
    MainThread.enterIMP(with: me) { me in context(me).performCancel() }
  }
}

/// The context's selectors, kept in static storage.
private enum ContextSelectors {
  static let complete = SelectorReference("completeTransition:")
  static let update = SelectorReference("updateInteractiveTransition:")
  static let finish = SelectorReference("finishInteractiveTransition")
  static let cancel = SelectorReference("cancelInteractiveTransition")
}

/// An interaction controller that scrubs an animator's `UIView.animate` animations by percent
/// (UIKit's `UIPercentDrivenInteractiveTransition`): when it starts, the animator runs with its
/// animations paused at their start; ``update(_:)`` holds them at a percent of their time;
/// ``finish()`` runs them on to the end, ``cancel()`` back to the start, over the remaining
/// virtual time divided by ``completionSpeed``. The animator's completion then completes the
/// transition, as on iOS.
@preconcurrency @MainActor
open class UIPercentDrivenInteractiveTransition: ObjCObject,
  UIViewControllerInteractiveTransitioning
{
  /// How much faster than the animator's own duration the rest runs after release.
  open var completionSpeed: CGFloat = 1
  /// The timing of the rest after release: UIKit's default, ease in and out, over the
  /// remaining time; KJNavigationController sets `.linear`. Each animation keeps its own curve
  /// along its own values.
  open var completionCurve: AnimationCurve = .easeInOut
  /// The percent last passed to ``update(_:)``, kept after ``finish()`` or ``cancel()`` while
  /// the rest of the animations run (UIKit's `percentComplete` does the same).
  public private(set) var percentComplete: CGFloat = 0
  /// The animator's duration.
  public private(set) var duration: TimeInterval = 0
  private weak var context: (any UIViewControllerContextTransitioning)?
  private var paused: [RunningAnimation] = []

  /// Starts: runs the animator with the animations of the views inside the transition's
  /// container view paused (UIKit pauses the container's layer, and reimplementations such as
  /// AWPercentDrivenInteractiveTransition drive `containerView.layer`'s `speed` and `timeOffset`
  /// the same way); an animation of a view outside it runs on the clock. UIKit's container does
  /// not hold the navigation bar; the model's (the navigation controller's view) does, so the
  /// bar's subtree is left out here, and the bar's animations run on the clock as on a device.
  open func startInteractiveTransition(
    _ transitionContext: any UIViewControllerContextTransitioning
  ) {
    context = transitionContext
    guard let model = transitionContext as? _UIViewControllerOneToOneTransitionContext else {
      return
    }
    duration = model.animator.transitionDuration(using: transitionContext)
    let engine = VirtualRunLoop.main.animations
    let container = transitionContext.containerView
    engine.beginCapture(
      within: container, excluding: container.subviews.filter { $0 is UINavigationBar })
    model.animator.animateTransition(using: transitionContext)
    paused = engine.endCapture()
  }

  /// How many ``update(_:)``, ``finish()`` and ``cancel()`` calls arrived before a transition
  /// started the interaction: UIKit ignores them without a word, and so does the model; this
  /// count is for a test or scenario that shows code driving a transition that never started
  /// (KJNavigationController's edge pan on a root page).
  public private(set) var callsBeforeStart = 0

  /// Whether a transition started it; counts a call that came before.
  private func started() -> Bool {
    guard context == nil else { return true }
    callsBeforeStart += 1
    return false
  }

  /// Holds the animations at `percentComplete` of their time (clamped to 0...1; NaN is
  /// refused). Before a transition started it, nothing happens.
  open func update(_ percentComplete: CGFloat) {
    guard started() else { return }
    guard !percentComplete.isNaN else {
      UIKitModelIssues.report(.invalidGeometry(view: description, value: "percent nan"))
      return
    }
    let percent = max(0, min(1, percentComplete))
    self.percentComplete = percent
    for animation in paused { animation.scrub = Double(percent) }
    context?.updateInteractiveTransition(percent)
  }

  /// Runs the animations on to their end.
  open func finish() {
    guard started() else { return }
    context?.finishInteractiveTransition()
    resume(towards: 1, over: duration * Double(1 - percentComplete))
  }

  /// Runs the animations back to their start.
  open func cancel() {
    guard started() else { return }
    context?.cancelInteractiveTransition()
    resume(towards: 0, over: duration * Double(percentComplete))
  }

  private func resume(towards progress: Double, over time: TimeInterval) {
    let modelContext = context as? _UIViewControllerOneToOneTransitionContext
    modelContext?.coordinator.completionCurve = completionCurve
    let now = VirtualRunLoop.main.currentTime
    let speed = Double(max(0.01, completionSpeed))
    // The rest takes this long: the watch for a stuck transition starts from its end.
    modelContext?.watch(after: time / speed)
    for animation in paused {
      animation.resume(towards: progress, over: time / speed, at: now, curve: completionCurve)
    }
    paused.removeAll()
  }
}
