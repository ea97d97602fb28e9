// The transition coordinator: what a push or pop tells the controllers and plugins while it runs.
public import Foundation
public import ObjCRuntime

/// Which controller of a transition (UIKit's `UITransitionContextViewControllerKey`).
public enum UITransitionContextViewControllerKey: Sendable {
  /// The controller going away.
  case from
  /// The controller coming.
  case to
}

/// Which view of a transition (UIKit's `UITransitionContextViewKey`).
public enum UITransitionContextViewKey: Sendable {
  /// The view going away.
  case from
  /// The view coming.
  case to
}

/// The coordinator of one push or pop, as UIKit's `UIViewControllerTransitionCoordinator`: the
/// controllers and views involved, the timing, and callbacks alongside and after the
/// transition. A controller's `transitionCoordinator` answers it for the whole transition.
///
/// It is an object of the runtime: `isCancelled`, `isInteractive` and `percentComplete` are in
/// its table, and the Swift properties read them through it, so a hook sees every read.
/// What a transition tells the blocks a coordinator runs (UIKit's
/// `UIViewControllerTransitionCoordinatorContext`, which the coordinator itself adopts): the
/// controllers and views, whether it is animated, interactive or cancelled, and how far it is.
///
/// UIKit's `presentationStyle`, `isInterruptible` and `targetTransform` are not modelled
/// (`Docs/UIKitModel.md`, the differences).
@preconcurrency @MainActor
public protocol UIViewControllerTransitionCoordinatorContext: AnyObject {
  /// Whether the transition is animated.
  var isAnimated: Bool { get }
  /// Whether a gesture drove the transition from its start.
  var initiallyInteractive: Bool { get }
  /// Whether a gesture drives the transition now.
  var isInteractive: Bool { get }
  /// Whether the transition was cancelled.
  var isCancelled: Bool { get }
  /// The transition's duration in seconds.
  var transitionDuration: TimeInterval { get }
  /// How far the transition is, from 0 to 1.
  var percentComplete: CGFloat { get }
  /// The speed at which a released interactive transition completes.
  var completionVelocity: CGFloat { get }
  /// The curve a released interactive transition completes with.
  var completionCurve: AnimationCurve { get }
  /// The view the transition happens in.
  var containerView: UIView { get }
  /// The controller for `key`.
  func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
  /// The view for `key`.
  func view(forKey key: UITransitionContextViewKey) -> UIView?
}

/// A transition's coordinator: UIKit's `UIViewControllerTransitionCoordinator` protocol, here
/// the one class that adopts it. Its blocks receive it as a
/// ``UIViewControllerTransitionCoordinatorContext``, as UIKit's do.
@preconcurrency @MainActor
public final class UIViewControllerTransitionCoordinator: ObjCObject,
  UIViewControllerTransitionCoordinatorContext
{
  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIViewControllerTransitionCoordinator.self) {
      ObjCMethodDeclaration("isCancelled", CoordinatorBase.isCancelled)
      ObjCMethodDeclaration("isInteractive", CoordinatorBase.isInteractive)
      ObjCMethodDeclaration("percentComplete", CoordinatorBase.percentComplete)
    }
  }

  private let fromController: UIViewController?
  private let toController: UIViewController
  /// The view the transition happens in (the navigation controller's view).
  public let containerView: UIView
  /// Whether the transition is animated.
  public let isAnimated: Bool
  /// Whether a gesture drives the transition now (`isInteractive`, through the table).
  public internal(set) var isInteractive: Bool {
    get { (try? sendToTable(CoordinatorSelectors.isInteractive) as Bool) ?? interactiveNow }
    set { interactiveNow = newValue }
  }
  fileprivate var interactiveNow: Bool
  /// Whether a gesture drove the transition from its start.
  public let initiallyInteractive: Bool
  /// Whether the transition was cancelled (only an interactive one can be; `isCancelled`,
  /// through the table).
  public internal(set) var isCancelled: Bool {
    get { (try? sendToTable(CoordinatorSelectors.isCancelled) as Bool) ?? cancelledNow }
    set { cancelledNow = newValue }
  }
  fileprivate var cancelledNow = false
  /// The transition's duration in seconds of virtual time.
  public let transitionDuration: TimeInterval
  /// The speed at which a released interactive transition completes.
  public internal(set) var completionVelocity: CGFloat = 1
  /// The curve a released interactive transition completes with.
  public internal(set) var completionCurve: AnimationCurve = .easeInOut
  /// When the (non-interactive) animation started, in virtual time.
  internal let startTime: TimeInterval
  /// The percent set by an interactive update.
  internal var interactivePercent: CGFloat = 0
  private var alongside: [(any UIViewControllerTransitionCoordinatorContext) -> Void] = []
  private var completions: [(any UIViewControllerTransitionCoordinatorContext) -> Void] = []
  private var interactionHandlers: [(any UIViewControllerTransitionCoordinatorContext) -> Void] =
    []

  internal init(
    from: UIViewController?, to: UIViewController, container: UIView, animated: Bool,
    interactive: Bool, duration: TimeInterval
  ) {
    fromController = from
    toController = to
    containerView = container
    isAnimated = animated
    interactiveNow = interactive
    initiallyInteractive = interactive
    transitionDuration = animated ? duration : 0
    startTime = VirtualRunLoop.main.currentTime
    super.init()
  }

  /// How far the transition is, from 0 to 1.
  ///
  /// For a transition a gesture drove from its start, the percent of the last interactive
  /// update: after the release it stays the percent at the release while the rest of the
  /// transition runs on, and the completion handlers read that value, as UIKit documents ("the
  /// percentage complete when the interaction ended"). For other transitions, the fraction of
  /// the duration elapsed.
  public var percentComplete: CGFloat {
    (try? sendToTable(CoordinatorSelectors.percentComplete) as CGFloat) ?? computedPercent
  }

  /// The base of `percentComplete`.
  fileprivate var computedPercent: CGFloat {
    if initiallyInteractive { return interactivePercent }
    guard transitionDuration > 0 else { return 1 }
    let elapsed = VirtualRunLoop.main.currentTime - startTime
    return CGFloat(max(0, min(1, elapsed / transitionDuration)))
  }

  /// The controller for `key`.
  public func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
  {
    key == .from ? fromController : toController
  }

  /// The view for `key`.
  public func view(forKey key: UITransitionContextViewKey) -> UIView? {
    key == .from ? fromController?.view : toController.view
  }

  /// Runs `animation` inside the transition's animation block and `completion` when it ends;
  /// returns true (the model always has an animation context for a transition, run at once when
  /// it is not animated).
  @discardableResult
  public func animate(
    alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
    completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)? = nil
  ) -> Bool {
    if let animation { alongside.append(animation) }
    if let completion { completions.append(completion) }
    return true
  }

  /// Calls `handler` when a gesture stops driving the transition (released: finishing or
  /// cancelling).
  public func notifyWhenInteractionChanges(
    _ handler: @escaping (any UIViewControllerTransitionCoordinatorContext) -> Void
  ) {
    interactionHandlers.append(handler)
  }

  /// Calls `handler` when a gesture stops driving the transition: UIKit's older form of
  /// ``notifyWhenInteractionChanges(_:)`` (iOS 7 to 9, deprecated in iOS 10), which UIKit still
  /// calls at the same moment for a transition that cannot be interrupted, as every transition of
  /// the model is.
  public func notifyWhenInteractionEnds(
    _ handler: @escaping (any UIViewControllerTransitionCoordinatorContext) -> Void
  ) {
    interactionHandlers.append(handler)
  }

  internal func runAlongside() {
    let blocks = alongside
    alongside.removeAll()
    for block in blocks { block(self) }
  }

  internal func runCompletions() {
    runAlongside()
    let blocks = completions
    completions.removeAll()
    for block in blocks { block(self) }
  }

  internal func interactionChanged() {
    let handlers = interactionHandlers
    interactionHandlers.removeAll()
    for handler in handlers { handler(self) }
  }
}

/// The coordinator's IMPs: the stored values.
private enum CoordinatorBase {
  static func coordinator(_ me: id) -> UIViewControllerTransitionCoordinator {
    me.receiver(as: UIViewControllerTransitionCoordinator.self)
  }
  static let isCancelled: @convention(c) (id, SEL) -> Bool = { me, _ in
    MainThread.enterIMP(with: me) { me in
      coordinator(me).cancelledNow
    }
  }
  static let isInteractive: @convention(c) (id, SEL) -> Bool = { me, _ in
    MainThread.enterIMP(with: me) { me in
      coordinator(me).interactiveNow
    }
  }
  // CGFloat is a Swift struct, which C cannot return: the IMP returns the Double it wraps.
  static let percentComplete: @convention(c) (id, SEL) -> Double = { me, _ in
    MainThread.enterIMP(with: me) { me in
      Double(coordinator(me).computedPercent)
    }
  }
}

/// The coordinator's selectors.
private enum CoordinatorSelectors {
  static let isCancelled: Selector = "isCancelled"
  static let isInteractive: Selector = "isInteractive"
  static let percentComplete: Selector = "percentComplete"
}
