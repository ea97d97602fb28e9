// UINavigationController's interactive pop: the edge pan drives a pop by the finger, then
// finishes or cancels it by position and velocity.
import Foundation
import ObjCRuntime

extension UINavigationController {
  /// Drives the default pop from the edge pan: began starts an interactive transition (the bar's
  /// delegate is asked `shouldPop` with `initiallyInteractive` true), changed moves it to
  /// translation / width and calls `_updateInteractiveTransition:`, ended or cancelled finishes
  /// it or cancels it by position and velocity, over the rest of the duration.
  func handleInteractivePop(_ pan: UIPanGestureRecognizer) {
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

  func beginInteractivePop() {
    guard stack.count > 1, !isTransitioning, let from = stack.last else { return }
    let to = stack[stack.count - 2]
    to.loadViewIfNeeded()
    let coordinator = UIViewControllerTransitionCoordinator(
      from: from, to: to, container: view, animated: true, interactive: true,
      duration: UINavigationController.transitionDuration)
    activeCoordinator = coordinator
    isTransitioning = true
    interactivePop = InteractivePop(
      from: from, to: to, coordinator: coordinator, bottomBar: nil)
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
    // A tab bar the page hid follows the finger back in.
    let slide = bottomBarSlide(to: stack, push: false)
    slide?.start()
    interactivePop?.bottomBar = slide
    // iOS 18: the bar's background is out of the bar during the start, as in any pop.
    navigationBar.takeBackgroundOutForTransition()
    from.viewWillDisappear(true)
    to.viewWillAppear(true)
    navigationBar.setItems(stack.map(\.navigationItem), animated: true)
    // The delegate hears will-show once, as the swipe begins, and nothing if it is cancelled
    // (OpenRadar 21137690; BufferedNavigationController issue 5: no didShow after a cancel);
    // an active search hears it with it.
    tellWillShow(to, animated: true)
    if !activeSearches.isEmpty { tellActiveSearchesWillShow() }
    view.insertSubview(to.view, belowSubview: navigationBar)
    navigationBar.putBackgroundBackAfterTransitionStart()
    placeInteractiveViews(0)
  }

  func placeInteractiveViews(_ percent: CGFloat) {
    guard let pop = interactivePop else { return }
    let width = view.bounds.width
    UIView.performWithoutAnimation {
      pop.from.view.frame = view.bounds.offsetBy(dx: width * percent, dy: 0)
      pop.to.view.frame = view.bounds.offsetBy(dx: -width * 0.3 * (1 - percent), dy: 0)
      pop.bottomBar?.place(percent)
    }
  }

  func endInteractivePop(finishing: Bool, velocity: CGFloat) {
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
        pop.bottomBar?.place(finishing ? 1 : 0)
      },
      completion: { _ in
        self.interactivePop = nil
        pop.bottomBar?.end(completed: finishing)
        self.tabBarController?.tabBar.scrollEdgeMayHaveChanged()
        coordinator.runCompletions()
        self.activeCoordinator = nil
        self.isTransitioning = false
        from.isMovingFromParent = false
        if finishing {
          from.view.removeFromSuperview()
          from.removeFromParent()
          from.viewDidDisappear(true)
          to.viewDidAppear(true)
          self.tellDidShow(to, animated: true)
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
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// The target of a navigation controller's swipe-back gesture, as UIKit's private class of that
/// name: `handleNavigationTransition:` (in its table) drives the interactive pop from whichever
/// pan sends it, which is how FDFullscreenPopGesture hijacked it (a full-screen pan of its own
/// with this object as target, read from the system gesture's `_targets`). It is also the
/// system gesture's delegate: the swipe begins only with a controller to go back to and no
/// transition under way (`gestureRecognizerShouldBegin:`, in its table).
@preconcurrency @MainActor
public final class _UINavigationInteractiveTransition: ObjCObject, UIGestureRecognizerDelegate {
  /// `handleNavigationTransition:`.
  nonisolated public static let handleSelector: Selector = "handleNavigationTransition:"

  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(_UINavigationInteractiveTransition.self) {
      ObjCMethodDeclaration(handleSelector, _UINavigationInteractiveTransition.handle)
      ObjCMethodDeclaration(
        "gestureRecognizerShouldBegin:", _UINavigationInteractiveTransition.shouldBegin)
    }
  }

  /// The navigation controller whose pops it drives.
  public internal(set) weak var navigationController: UINavigationController?

  nonisolated private static let handle: @convention(c) (id, SEL, id?) -> Void = { me, _, sender in
    MainThread.enterIMP(with: me, sender) { me, sender in
      guard let pan = sender?.takeUnretainedObject() as? UIPanGestureRecognizer,
        let navigation = me.receiver(as: _UINavigationInteractiveTransition.self)
          .navigationController
      else { return }
      navigation.handleInteractivePop(pan)
    }
  }

  nonisolated private static let shouldBegin: @convention(c) (id, SEL, id?) -> Bool = { me, _, _ in
    MainThread.enterIMP(with: me) { me in
      guard
        let navigation = me.receiver(as: _UINavigationInteractiveTransition.self)
          .navigationController
      else { return false }
      return navigation.viewControllers.count > 1 && !navigation.isTransitioning
    }
  }
}
