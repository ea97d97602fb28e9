// KJNavigationController's animators: 0.25 s, linear; the bar set to the from-controller's
// values first, then animated with the views to the to-controller's.
public import Foundation
public import ObjCRuntime
public import UIKitModel

/// The seed's `kTransitionDuration`.
nonisolated public let kjTransitionDuration: TimeInterval = 0.25

// nonisolated: a direct subclass of ObjCObject, which in a main-actor target Swift 6.3 cannot
// make isolated (Docs/Porting.md, section 9); its model work is marked @MainActor.
/// What the two animators share: their mode and duration. An object of the runtime, so that a
/// delegate can return one through `objc_msgSend`.
nonisolated public class KJAnimator: ObjCObject {
  /// The seed's behaviour, or the plugin's.
  public let mode: AnimatorMode

  /// An animator in `mode`.
  public init(mode: AnimatorMode) {
    self.mode = mode
    super.init()
  }

  /// The animator of `operation` in `mode`: a ``KJPushAnimator`` or a ``KJPopAnimator``, nil for
  /// no operation.
  public static func animator(for operation: UINavigationControllerOperation, mode: AnimatorMode)
    -> (any UIViewControllerAnimatedTransitioning)?
  {
    switch operation {
    case .push: KJPushAnimator(mode: mode)
    case .pop: KJPopAnimator(mode: mode)
    case .none: nil
    }
  }

  /// The controllers, their views and the bar of `context`'s transition; nil, with the
  /// transition completed at once, when a view or the bar is missing.
  @MainActor func participants(of context: any UIViewControllerContextTransitioning) -> (
    from: UIViewController?, to: UIViewController?, fromView: UIView, toView: UIView,
    bar: UINavigationBar
  )? {
    let from = context.viewController(forKey: .from)
    let to = context.viewController(forKey: .to)
    guard let fromView = context.view(forKey: .from), let toView = context.view(forKey: .to),
      let bar = to?.navigationController?.navigationBar
    else {
      context.completeTransition(!context.transitionWasCancelled)
      return nil
    }
    return (from, to, fromView, toView, bar)
  }

  /// 0.25 s.
  @MainActor public func transitionDuration(
    using transitionContext: (any UIViewControllerContextTransitioning)?
  )
    -> TimeInterval
  { kjTransitionDuration }
}

/// The push: the incoming view slides in from the right edge, the outgoing one 100 points to
/// the left; the bar goes from the from-controller's values to the to-controller's.
public final class KJPushAnimator: KJAnimator, UIViewControllerAnimatedTransitioning {

  /// Slides the views and animates the bar, then completes the transition. The seed then sets
  /// the to-controller's values again, even when the transition was cancelled; the plugin sets
  /// the values of the controller that is on top.
  public func animateTransition(using context: any UIViewControllerContextTransitioning) {
    guard let (from, to, fromView, toView, bar) = participants(of: context) else { return }
    let container = context.containerView
    let width = UIScreen.main.bounds.width
    toView.frame.origin.x = width
    container.insertSubview(fromView, belowSubview: bar)
    container.insertSubview(toView, belowSubview: bar)
    bar.kjApply(from, mode: mode)
    let mode = self.mode
    UIView.animate(
      withDuration: kjTransitionDuration, delay: 0, options: .curveLinear,
      animations: {
        fromView.frame.origin.x = -100
        toView.frame.origin.x = 0
        bar.kjApply(to, mode: mode)
      },
      completion: { _ in
        let cancelled = context.transitionWasCancelled
        context.completeTransition(!cancelled)
        bar.kjApply(mode == .fixed && cancelled ? from : to, mode: mode)
      })
  }
}

/// The pop: the outgoing view slides off to the right with a shadow (radius 8, opacity 0.5,
/// faded by a `CABasicAnimation` whose delegate is the animator), over a black mask at 0.15
/// that fades to 0, while the incoming view comes from 100 points to the left; the bar goes
/// from the from-controller's values to the to-controller's.
public final class KJPopAnimator: KJAnimator, UIViewControllerAnimatedTransitioning,
  CAAnimationDelegate
{
  /// `animationDidStop:finished:` in the table, as the seed's Objective-C animator has it: the
  /// layer tells it through the runtime (a `trace` shows it, a hook reaches it).
  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(KJPopAnimator.self) {
      ObjCMethodDeclaration("animationDidStop:finished:", KJPopAnimator.didStop)
    }
  }

  private static let didStop: @convention(c) (id, SEL, id?, Bool) -> Void = {
    me, _, animation, finished in
    MainThread.assumeIsolated(with: me, animation, finished) { me, animation, finished in
      guard let animation = animation?.takeUnretainedObject() as? CABasicAnimation else { return }
      me.receiver(as: KJPopAnimator.self).animationDidStop(animation, finished: finished)
    }
  }

  /// Slides and fades, then completes. On a cancelled pop the seed leaves the bar with what the
  /// animation block set (the bar is outside the container a percent-driven transition pauses,
  /// so its colour ran to the to-controller's, and the title colour is not animated): the wrong
  /// ones; the plugin sets the from-controller's values back.
  public func animateTransition(using context: any UIViewControllerContextTransitioning) {
    guard let (from, to, fromView, toView, bar) = participants(of: context) else { return }
    let container = context.containerView
    let width = UIScreen.main.bounds.width
    toView.frame.origin.x = -100
    fromView.layer.shadowRadius = 8
    fromView.layer.shadowColor = .black
    fromView.layer.shadowOpacity = 0.5
    let mask = UIView(frame: UIScreen.main.bounds)
    mask.backgroundColor = UIColor.black.withAlphaComponent(0.15)
    container.insertSubview(toView, belowSubview: bar)
    container.insertSubview(mask, belowSubview: bar)
    container.insertSubview(fromView, belowSubview: bar)
    let shadow = CABasicAnimation(keyPath: "shadowOpacity")
    shadow.duration = kjTransitionDuration
    shadow.isRemovedOnCompletion = true
    shadow.toValue = 0
    shadow.delegate = self
    fromView.layer.add(shadow, forKey: nil)
    bar.kjApply(from, mode: mode)
    let mode = self.mode
    UIView.animate(
      withDuration: kjTransitionDuration, delay: 0, options: .curveLinear,
      animations: {
        toView.frame.origin.x = 0
        fromView.frame.origin.x = width
        mask.backgroundColor = UIColor.black.withAlphaComponent(0)
        bar.kjApply(to, mode: mode)
      },
      completion: { _ in
        mask.removeFromSuperview()
        fromView.layer.shadowOpacity = 0
        let cancelled = context.transitionWasCancelled
        context.completeTransition(!cancelled)
        if mode == .fixed && cancelled { bar.kjApply(from, mode: mode) }
      })
  }

  /// The shadow's animation stopped: nothing to do (the completion already set the shadow to
  /// 0), as in the seed; it is the delegate so that the animation's end is seen (and hookable).
  public func animationDidStop(_ animation: CABasicAnimation, finished: Bool) {}
}
