// Custom transitions: an animator from the delegate, and a percent-driven interactive pop that
// scrubs the animator's animations, then finishes or cancels them.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// Fades the incoming view in over 0.5 s, linearly; completes as UIKit animators do.
final class FadeAnimator: UIViewControllerAnimatedTransitioning {
  var ended: [Bool] = []
  var completeTwice = false

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?)
    -> TimeInterval
  { 0.5 }

  func animateTransition(using context: any UIViewControllerContextTransitioning) {
    guard let toView = context.view(forKey: .to) else { return }
    toView.alpha = 0
    UIView.animate(
      withDuration: 0.5, delay: 0, options: .curveLinear, animations: { toView.alpha = 1 },
      completion: { _ in
        context.completeTransition(!context.transitionWasCancelled)
        if self.completeTwice { context.completeTransition(true) }
      })
  }

  func animationEnded(_ transitionCompleted: Bool) { ended.append(transitionCompleted) }
}

/// Fades the incoming view in and, as KJNavigationController's pop does, animates a shadow on
/// the leaving view's layer and on the navigation bar's (outside the transition's container).
final class ShadowAnimator: UIViewControllerAnimatedTransitioning {
  weak var bar: UINavigationBar?
  var stopped: [String] = []

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?)
    -> TimeInterval
  { 0.5 }

  func animateTransition(using context: any UIViewControllerContextTransitioning) {
    guard let fromView = context.view(forKey: .from), let toView = context.view(forKey: .to)
    else { return }
    for layer in [fromView.layer, bar?.layer].compactMap({ $0 }) {
      let shadow = CABasicAnimation(keyPath: "shadowOpacity")
      shadow.fromValue = 0
      shadow.toValue = 1
      shadow.duration = 0.5
      layer.add(shadow, forKey: "shadow")
    }
    toView.alpha = 0
    UIView.animate(
      withDuration: 0.5, delay: 0, options: .curveLinear, animations: { toView.alpha = 1 },
      completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
  }
}

/// Hands out the fade animator, and a percent-driven interaction controller when asked to.
final class TransitionDelegate: UINavigationControllerDelegate {
  let animator = FadeAnimator()
  /// Handed out instead of the fade when set.
  var otherAnimator: (any UIViewControllerAnimatedTransitioning)?
  var interaction: UIPercentDrivenInteractiveTransition?
  var shown: [String] = []

  func navigationController(
    _ navigationController: UINavigationController,
    animationControllerFor operation: UINavigationControllerOperation,
    from fromVC: UIViewController, to toVC: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)? { otherAnimator ?? animator }

  func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)? { interaction }

  func navigationController(
    _ navigationController: UINavigationController, didShow viewController: UIViewController,
    animated: Bool
  ) { shown.append(viewController.title ?? "?") }
}

extension UIKitModelTests {
  @MainActor
  @Suite("Custom transitions")
  struct CustomTransitionTests {
    private func stack() -> (
      UINavigationController, [LoggedScreen], NavigationLog, TransitionDelegate
    ) {
      freshModel()
      let log = NavigationLog()
      let screens = [LoggedScreen("A", log: log), LoggedScreen("B", log: log)]
      let navigation = UINavigationController(rootViewController: screens[0])
      UIWindow(frame: UIScreen.main.bounds).rootViewController = navigation
      navigation.pushViewController(screens[1], animated: false)
      let delegate = TransitionDelegate()
      navigation.delegate = delegate
      _ = log.take()
      return (navigation, screens, log, delegate)
    }

    @Test("the delegate's animator runs the push; the callbacks and didShow follow its completion")
    func animator() {
      let (navigation, _, log, delegate) = stack()
      let c = LoggedScreen("C", log: log)
      navigation.pushViewController(c, animated: true)
      VirtualRunLoop.main.advance(by: 0.25)
      #expect(abs(c.view.presentationAlpha - 0.5) < 1e-6, "the animator's fade, half way")
      VirtualRunLoop.main.runUntilIdle()
      #expect(
        log.take() == [
          "C.viewDidLoad", "B.willDisappear", "C.willAppear", "B.didDisappear", "C.didAppear",
        ])
      #expect(delegate.animator.ended == [true] && delegate.shown == ["C"])
    }

    @Test(
      "a percent-driven pop scrubs the animator, then cancels back or finishes",
      arguments: [false, true])
    func percentDriven(finishing: Bool) throws {
      let (navigation, screens, log, delegate) = stack()
      let interaction = UIPercentDrivenInteractiveTransition()
      delegate.interaction = interaction
      navigation.popViewController(animated: true)
      let coordinator = try #require(screens[0].transitionCoordinator)
      #expect(coordinator.initiallyInteractive && coordinator.isInteractive)
      interaction.update(0.4)
      VirtualRunLoop.main.advance(by: 1)
      #expect(abs(screens[0].view.presentationAlpha - 0.4) < 1e-6, "held at 40 % however long")
      #expect(abs(coordinator.percentComplete - 0.4) < 1e-6)
      if finishing { interaction.finish() } else { interaction.cancel() }
      VirtualRunLoop.main.advance(by: finishing ? 0.15 : 0.1)
      #expect(abs(screens[0].view.presentationAlpha - (finishing ? 0.7 : 0.2)) < 1e-6)
      VirtualRunLoop.main.runUntilIdle()
      #expect(delegate.animator.ended == [finishing])
      if finishing {
        #expect(navigation.viewControllers == [screens[0]])
        #expect(log.take() == ["B.willDisappear", "A.willAppear", "B.didDisappear", "A.didAppear"])
      } else {
        #expect(navigation.viewControllers == screens)
        #expect(
          screens[0].view.alpha == 0, "the reversed fade leaves the model value where it began")
        #expect(
          log.take() == [
            // UIKit's order: once it has run back, A goes, then B comes again.
            "B.willDisappear", "A.willAppear", "A.willDisappear", "A.didDisappear", "B.willAppear",
            "B.didAppear",
          ])
        #expect(navigation.navigationBar.items?.count == 2)
      }
    }

    // UIKit pauses the container view's layer: its layer animations follow the percent too
    // (AWPercentDrivenInteractiveTransition drives containerView.layer's speed and timeOffset).
    @Test(
      "a percent-driven pop scrubs the layer animations in its container, not the bar's",
      arguments: [false, true])
    func layerAnimationsScrubbed(finishing: Bool) throws {
      let (navigation, screens, _, delegate) = stack()
      let animator = ShadowAnimator()
      animator.bar = navigation.navigationBar
      let interaction = UIPercentDrivenInteractiveTransition()
      delegate.otherAnimator = animator
      delegate.interaction = interaction
      navigation.popViewController(animated: true)
      interaction.update(0.4)
      VirtualRunLoop.main.advance(by: 0.3)
      let leaving = screens[1].view.layer
      #expect(abs((leaving.presentation()?.shadowOpacity ?? -1) - 0.4) < 1e-6, "held at 40 %")
      // 0.3 s into its 0.5 s on the clock: 60 %, where a held one would show 40 %.
      let bar = navigation.navigationBar.layer
      #expect(abs((bar.presentation()?.shadowOpacity ?? -1) - 0.6) < 1e-6, "the bar's runs on")
      VirtualRunLoop.main.advance(by: 1)
      #expect(abs((leaving.presentation()?.shadowOpacity ?? -1) - 0.4) < 1e-6, "still held")
      if finishing { interaction.finish() } else { interaction.cancel() }
      VirtualRunLoop.main.advance(by: finishing ? 0.15 : 0.1)
      // 40 % to 100 % over the remaining 0.3 s, or back to 0 over 0.2 s: half way of either
      // (the completion curve, ease-in-out, is at one half there too).
      let expected: Float = finishing ? 0.7 : 0.2
      #expect(abs((leaving.presentation()?.shadowOpacity ?? -1) - expected) < 1e-6)
      VirtualRunLoop.main.runUntilIdle()
      #expect(leaving.animation(forKey: "shadow") == nil, "removed once it ended")
    }

    @Test("completing a transition twice is refused")
    @MainActor func completedTwice() {
      let (navigation, _, _, delegate) = stack()
      delegate.animator.completeTwice = true
      navigation.pushViewController(LoggedScreen("C", log: NavigationLog()), animated: true)
      VirtualRunLoop.main.runUntilIdle()
      #expect(
        UIKitModelIssues.all.contains {
          if case .transitionCompletedTwice = $0 { true } else { false }
        })
      #expect(navigation.viewControllers.count == 3)
    }
  }
}

/// The NavigationInteractiveTransition article's technique: a pan of one's own whose action,
/// sent through the runtime, pops with a percent-driven interaction controller, after reading
/// `_isTransitioning` through key-value coding.
final class ArticlePopDriver: ObjCObject, UIGestureRecognizerDelegate {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(ArticlePopDriver.self) {
      ObjCMethodDeclaration("handleControllerPop:", ArticlePopDriver.handle)
    }
  }

  weak var navigation: UINavigationController?
  let delegate: TransitionDelegate
  var readTransitioning: [Bool] = []

  init(navigation: UINavigationController, delegate: TransitionDelegate) {
    self.navigation = navigation
    self.delegate = delegate
    super.init()
  }

  func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
    let transitioning = (try? navigation?.value(forKey: "_isTransitioning") as? Bool) ?? true
    readTransitioning.append(transitioning)
    return (navigation?.viewControllers.count ?? 0) > 1 && !transitioning
  }

  nonisolated static let handle: @convention(c) (id, SEL, id?) -> Void = { me, _, recognizer in
    MainThread.assumeIsolated(with: me, recognizer) { me, recognizer in
      guard let driver = me.takeUnretainedObject(as: ArticlePopDriver.self),
        let pan = recognizer?.takeUnretainedObject(as: UIPanGestureRecognizer.self),
        let navigation = driver.navigation
      else { return }
      let progress = max(
        0, min(1, pan.translation(in: navigation.view).x / navigation.view.bounds.width))
      switch pan.state {
      case .began:
        driver.delegate.interaction = UIPercentDrivenInteractiveTransition()
        navigation.popViewController(animated: true)
      case .changed:
        driver.delegate.interaction?.update(progress)
      case .ended, .cancelled:
        if progress > 0.5 {
          driver.delegate.interaction?.finish()
        } else {
          driver.delegate.interaction?.cancel()
        }
        driver.delegate.interaction = nil
      default: break
      }
    }
  }
}

extension UIKitModelTests.CustomTransitionTests {
  @Test("a pan of one's own drives a percent-driven pop through its runtime action")
  func articleTechnique() throws {
    freshModel()
    let log = NavigationLog()
    let screens = [LoggedScreen("A", log: log), LoggedScreen("B", log: log)]
    let navigation = UINavigationController(rootViewController: screens[0])
    UIWindow(frame: UIScreen.main.bounds).rootViewController = navigation
    navigation.pushViewController(screens[1], animated: false)
    let delegate = TransitionDelegate()
    navigation.delegate = delegate
    let driver = ArticlePopDriver(navigation: navigation, delegate: delegate)
    let pan = UIPanGestureRecognizer(target: driver, action: "handleControllerPop:")
    pan.delegate = driver
    GestureDriver.swipe(pan, translation: CGPoint(x: 300, y: 0), steps: 6)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.viewControllers == [screens[0]])
    #expect(driver.readTransitioning == [false])
    GestureDriver.swipe(pan, translation: CGPoint(x: 300, y: 0))
    VirtualRunLoop.main.runUntilIdle()
    #expect(driver.readTransitioning == [false, false])
    #expect(pan.state == .possible, "refused to begin on a root-only stack")
  }
}
