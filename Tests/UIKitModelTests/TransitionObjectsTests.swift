// The transition's context and coordinator are objects of the runtime, the percent-driven
// transition's completion curve is honoured, and the model's answers to animators and
// interactions that misbehave.
import Foundation
import Hooks
import ObjCRuntime
import Synchronization
import Testing
import UIKitModel

/// An animator that never completes its transition.
final class StuckAnimator: UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?)
    -> TimeInterval
  { 0.3 }
  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {}
}

/// Fades the coming view in and the navigation bar out, both over 0.5 s, linear.
final class ViewAndBarAnimator: UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?)
    -> TimeInterval
  { 0.5 }
  func animateTransition(using context: any UIViewControllerContextTransitioning) {
    guard let toView = context.view(forKey: .to),
      let bar = context.viewController(forKey: .to)?.navigationController?.navigationBar
    else { return }
    toView.alpha = 0
    UIView.animate(
      withDuration: 0.5, delay: 0, options: .curveLinear,
      animations: {
        toView.alpha = 1
        bar.alpha = 0
      },
      completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
  }
}

/// Hands out one animator.
final class OneAnimatorDelegate: UINavigationControllerDelegate {
  let animator: any UIViewControllerAnimatedTransitioning
  var interaction: UIPercentDrivenInteractiveTransition?
  init(_ animator: any UIViewControllerAnimatedTransitioning) { self.animator = animator }
  func navigationController(
    _ navigationController: UINavigationController,
    animationControllerFor operation: UINavigationControllerOperation,
    from fromVC: UIViewController, to toVC: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)? { animator }
  func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)? { interaction }
}

extension UIKitModelTests.CustomTransitionTests {
  private func session(_ delegate: OneAnimatorDelegate) -> NavigationSession {
    let root = UIViewController()
    root.title = "A"
    let session = NavigationSession(root: root)
    session.navigationController.delegate = delegate
    return session
  }

  @Test("the context's completeTransition: is in its table: a hook sees the animator call it")
  func contextHookable() throws {
    let completions = Mutex<[Bool]>([])
    let token = try _UIViewControllerOneToOneTransitionContext.hook(
      before: "completeTransition:"
    ) { (_, done: Bool) in completions.withLock { $0.append(done) } }
    defer { token.remove() }
    let delegate = OneAnimatorDelegate(FadeAnimator())
    let session = session(delegate)
    session.push(UIViewController())
    #expect(completions.withLock { $0 } == [true])
    withExtendedLifetime(delegate) {}
  }

  @Test("the coordinator's percentComplete is in its table: a hook changes what everyone reads")
  func coordinatorHookable() throws {
    let token = try UIViewControllerTransitionCoordinator.hook(
      instead: "percentComplete"
    ) { (_: HookOriginal<CGFloat>, _) -> CGFloat in 0.42 }
    defer { token.remove() }
    let delegate = OneAnimatorDelegate(FadeAnimator())
    let session = session(delegate)
    let next = UIViewController()
    session.navigationController.pushViewController(next, animated: true)
    let coordinator = try #require(next.transitionCoordinator)
    #expect(coordinator.percentComplete == 0.42)
    VirtualRunLoop.main.runUntilIdle()
    withExtendedLifetime(delegate) {}
  }

  @Test(
    "a released percent-driven transition runs on with its completion curve",
    arguments: [
      AnimationCurve.linear, .easeIn,
    ])
  func completionCurve(curve: AnimationCurve) throws {
    let delegate = OneAnimatorDelegate(FadeAnimator())
    let session = session(delegate)
    session.push(UIViewController())
    let interaction = UIPercentDrivenInteractiveTransition()
    interaction.completionCurve = curve
    delegate.interaction = interaction
    let root = session.navigationController.viewControllers[0]
    session.navigationController.popViewController(animated: true)
    interaction.update(0.2)
    interaction.finish()
    // The rest, 80 % of 0.5 s, takes 0.4 s; a quarter of it in: linear 40 %, ease-in less.
    VirtualRunLoop.main.advance(by: 0.1)
    let alpha = root.view.presentationAlpha
    let expected = 0.2 + 0.8 * curve.progress(at: 0.25)
    #expect(abs(alpha - CGFloat(expected)) < 1e-6, "\(curve): \(alpha)")
    VirtualRunLoop.main.runUntilIdle()
    #expect(session.navigationController.viewControllers == [root])
    withExtendedLifetime(delegate) {}
  }

  @Test("an animator that never completes: reported after the timeout, the stack consistent")
  func neverCompleted() throws {
    let delegate = OneAnimatorDelegate(StuckAnimator())
    defer { withExtendedLifetime(delegate) {} }
    let session = session(delegate)
    let navigation = session.navigationController
    let next = UIViewController()
    navigation.pushViewController(next, animated: true)
    VirtualRunLoop.main.advance(by: 0.3 + UINavigationController.transitionTimeout - 0.05)
    #expect(navigation.isTransitioning)
    // The watch keeps the run loop busy until it fires, like the transition it stands for.
    VirtualRunLoop.main.runUntilIdle()
    #expect(!navigation.isTransitioning && navigation.topViewController === next)
    #expect(navigation.navigationBar.items?.count == 2)
    #expect(
      UIKitModelIssues.all.contains {
        if case .transitionNeverCompleted = $0 { true } else { false }
      })
  }

  @Test("an interaction released late is watched from its release, not from the start")
  func lateRelease() throws {
    let delegate = OneAnimatorDelegate(FadeAnimator())
    let session = session(delegate)
    session.push(UIViewController())
    let interaction = UIPercentDrivenInteractiveTransition()
    interaction.completionSpeed = 0.1
    delegate.interaction = interaction
    let navigation = session.navigationController
    navigation.popViewController(animated: true)
    interaction.update(0.1)
    // The finger rests past the timeout, then lets go; the rest runs slowly (4.5 s).
    VirtualRunLoop.main.advance(by: 0.5 + UINavigationController.transitionTimeout)
    interaction.finish()
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.viewControllers.count == 1)
    #expect(
      !UIKitModelIssues.all.contains {
        if case .transitionNeverCompleted = $0 { true } else { false }
      })
    #expect(
      !UIKitModelIssues.all.contains {
        if case .transitionCompletedTwice = $0 { true } else { false }
      })
    withExtendedLifetime(delegate) {}
  }

  @Test("a delegate with an animator for a pop on a stack of one: nothing happens")
  func popAtRoot() {
    let animator = FadeAnimator()
    let delegate = OneAnimatorDelegate(animator)
    let session = session(delegate)
    let navigation = session.navigationController
    #expect(navigation.popViewController(animated: true) == nil)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.viewControllers.count == 1 && !navigation.isTransitioning)
    #expect(animator.ended.isEmpty, "the animator never ran")
    // The same delegate and animator do run once there is something to pop: the absence above
    // is the root's, not a delegate the model ignores.
    session.push(UIViewController())
    #expect(navigation.popViewController(animated: true) != nil)
    VirtualRunLoop.main.runUntilIdle()
    #expect(animator.ended.last == true, "the animator ran the pop to its end")
    withExtendedLifetime(delegate) {}
  }

  @Test("updates outside 0...1 are clamped, NaN refused with an issue, the percent unchanged")
  func updateBounds() throws {
    let delegate = OneAnimatorDelegate(FadeAnimator())
    let session = session(delegate)
    session.push(UIViewController())
    let interaction = UIPercentDrivenInteractiveTransition()
    delegate.interaction = interaction
    let root = session.navigationController.viewControllers[0]
    session.navigationController.popViewController(animated: true)
    let coordinator = try #require(root.transitionCoordinator)
    interaction.update(1.7)
    #expect(interaction.percentComplete == 1 && coordinator.percentComplete == 1)
    interaction.update(-0.5)
    #expect(interaction.percentComplete == 0 && coordinator.percentComplete == 0)
    interaction.update(0.3)
    interaction.update(.nan)
    #expect(abs(coordinator.percentComplete - 0.3) < 1e-9)
    #expect(UIKitModelIssues.all.contains { "\($0)".contains("percent nan") })
    interaction.cancel()
    VirtualRunLoop.main.runUntilIdle()
    withExtendedLifetime(delegate) {}
  }

  /// UIKit pauses the transition container's layer; AWPercentDrivenInteractiveTransition and
  /// UtiliKit's container-layer percent-driven transition drive `containerView.layer`'s `speed`
  /// and `timeOffset`. The navigation bar is outside that container (issue #29).
  @Test("a percent-driven transition holds the container's animations; the bar's run on")
  func scrubsOnlyTheContainer() throws {
    let delegate = OneAnimatorDelegate(ViewAndBarAnimator())
    let session = session(delegate)
    session.push(UIViewController())
    let interaction = UIPercentDrivenInteractiveTransition()
    delegate.interaction = interaction
    let navigation = session.navigationController
    let root = navigation.viewControllers[0]
    navigation.popViewController(animated: true)
    interaction.update(0.4)
    VirtualRunLoop.main.advance(by: 1)
    #expect(abs(root.view.presentationAlpha - 0.4) < 1e-9, "held at the finger's percent")
    #expect(navigation.navigationBar.presentationAlpha == 0, "ran to its end on the clock")
    interaction.cancel()
    VirtualRunLoop.main.runUntilIdle()
    navigation.navigationBar.alpha = 1
    withExtendedLifetime(delegate) {}
  }

  /// UIKit's UIPercentDrivenInteractiveTransition ignores update, finish and cancel until a
  /// transition starts it, without an exception or a console message (issue #29).
  @Test("a percent-driven transition driven before any transition started it: ignored, silently")
  func interactionNotStarted() {
    let interaction = UIPercentDrivenInteractiveTransition()
    let issues = UIKitModelIssues.all.count
    interaction.update(0.3)
    interaction.update(0.6)
    interaction.finish()
    interaction.cancel()
    #expect(UIKitModelIssues.all.count == issues, "nothing raised")
    #expect(interaction.percentComplete == 0)
    #expect(interaction.callsBeforeStart == 4)
  }
}
