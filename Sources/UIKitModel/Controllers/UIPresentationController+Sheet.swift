// A sheet's geometry and its swipe-down dismissal: the pan on the sheet's view drives the sheet by
// the finger, asks and tells the adaptive delegate in UIKit's order, then finishes the dismissal
// or puts the sheet back.
import Foundation
import ObjCRuntime

extension UIPresentationController {
  /// How much the presenter's view is scaled behind a card on a phone: the model's figure (the
  /// WWDC19 session says the presenter's view is "scaled down and not removed from the view
  /// hierarchy"; no source gives the factor).
  public static let presenterScale: CGFloat = 0.92

  /// The size of a sheet on an iPad: the model's figure, the same for both sheets (UIKit's
  /// form sheet is commonly 540 by 620 points; no source gives the page sheet's size).
  public static let padSheetSize = CGSize(width: 540, height: 620)

  /// Whether the presentation is a card of iOS 13 and later: a sheet that a swipe down
  /// dismisses, with a 56-point navigation bar.
  public var isCard: Bool { isSheet && UIDevice.current.linkedMajorVersion >= 13 }

  /// Where a sheet rests in a window of `bounds` on the current device: on a phone the whole
  /// width below the status bar (TZImagePickerController pull request 1161); on an iPad
  /// ``padSheetSize``, centred.
  public static func sheetFrame(in bounds: CGRect) -> CGRect {
    let profile = UIScreen.main.profile
    guard profile.isPad else {
      let top = min(profile.statusBarHeight, bounds.height)
      return CGRect(
        x: bounds.minX, y: bounds.minY + top, width: bounds.width, height: bounds.height - top)
    }
    let width = min(padSheetSize.width, bounds.width)
    let height = min(padSheetSize.height, bounds.height)
    return CGRect(
      x: bounds.midX - width / 2, y: bounds.midY - height / 2, width: width, height: height)
  }

  /// Puts the swipe-down pan on the sheet's view, with this controller as its target.
  func installDismissalPan(on view: UIView) {
    let pan = _UISheetDismissalPanGestureRecognizer(target: nil, action: nil)
    pan.addTarget(self, action: UIPresentationController.handleDismissalPanSelector)
    view.addGestureRecognizer(pan)
    dismissalPanGestureRecognizer = pan
  }

  /// Puts the dimming view over the window's content, under the sheet about to be added.
  func installDimmingView(in window: UIWindow) {
    let dimming = UIDimmingView(frame: window.bounds)
    dimming.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    window.addSubview(dimming)
    dimmingView = dimming
  }

  /// The presentation ended: the pan leaves the sheet's view, the dimming view the window. A
  /// drag under way is forgotten first, so the pan's cancellation puts nothing back.
  func end() {
    dragging = nil
    presentingViewController = nil
    dimmingView?.removeFromSuperview()
    dimmingView = nil
    if let pan = dismissalPanGestureRecognizer {
      pan.view?.removeGestureRecognizer(pan)
    }
    dismissalPanGestureRecognizer = nil
    dragging = nil
  }

  /// How far down the sheet can travel before it has left the window.
  private var travel: CGFloat {
    let bottom = presentedView?.window?.bounds.maxY ?? restingFrame.maxY
    return max(1, bottom - restingFrame.minY)
  }

  /// Drives the swipe-down dismissal from the pan. Began: with the presented controller
  /// `isModalInPresentation`, or the delegate's `presentationControllerShouldDismiss` saying
  /// no, the delegate hears `presentationControllerDidAttemptToDismiss` and the sheet stays
  /// (UIKit lets it give a little; the model keeps it still); otherwise the delegate hears
  /// `presentationControllerWillDismiss`, and the presented controller `viewWillDisappear:`
  /// (the model's reading, as an interactive pop tells the leaving page). Changed: the sheet
  /// follows the finger down, the presenter's view grows back. Ended: the sheet leaves, and the
  /// presented controller hears `viewDidDisappear:` and the delegate
  /// `presentationControllerDidDismiss`, when it travelled more than half the way without a
  /// flick back, or was flicked down faster than 300 points a second (the model's rule, the
  /// interactive pop's); otherwise, and when the gesture is cancelled, it goes back, and the
  /// presented controller hears `viewWillAppear:` and `viewDidAppear:`.
  func handleDismissalPan(_ pan: UIPanGestureRecognizer) {
    switch pan.state {
    case .began: beginDrag()
    case .changed:
      guard let dragging, !dragging.refused else { return }
      place(max(0, min(1, pan.translation(in: nil).y / travel)))
    case .ended, .cancelled:
      guard let dragging else { return }
      self.dragging = nil
      guard !dragging.refused else { return }
      let fraction = max(0, min(1, pan.translation(in: nil).y / travel))
      let velocity = pan.velocity(in: nil).y
      let finishing =
        pan.state == .ended && (velocity > 300 || (fraction > 0.5 && velocity > -300))
      endDrag(finishing: finishing, from: fraction)
    default: break
    }
  }

  /// Whether this presentation is still what `presented` shows, and free to be dragged: not
  /// being presented or dismissed, presenting nothing above it, and no navigation controller of
  /// it pushing or popping (its arriving page would get unbalanced appearance callbacks).
  private func isDraggable(_ presented: UIViewController) -> Bool {
    presented.presentationControllerStorage === self && presented.presentingViewController != nil
      && !presented.isBeingPresented && !presented.isBeingDismissed
      && presented.presentedViewController == nil
      && !([presented] + presented.appearanceTargets).contains {
        ($0 as? UINavigationController)?.isTransitioning == true
      }
  }

  private func beginDrag() {
    dragging = SheetDrag(refused: true)
    guard let presented = presentedViewController, isDraggable(presented) else { return }
    // WWDC19's order: a modal sheet is an attempt; otherwise should, then will. The delegate
    // may present or dismiss from any of them: the drag goes on only if the sheet is still
    // there and free, and is marked as being dismissed before `will`, so that a dismissal
    // asked from it is refused instead of nested.
    if presented.isModalInPresentation {
      delegate?.presentationControllerDidAttemptToDismiss(self)
      return
    }
    let allowed = delegate?.presentationControllerShouldDismiss(self) ?? true
    guard isDraggable(presented) else { return }
    guard allowed else {
      delegate?.presentationControllerDidAttemptToDismiss(self)
      return
    }
    presented.isBeingDismissed = true
    dragging = SheetDrag(refused: false)
    delegate?.presentationControllerWillDismiss(self)
    for controller in presented.appearanceTargets { controller.viewWillDisappear(true) }
  }

  /// Places the sheet `fraction` of the way out, the presenter's view as far back to its size.
  private func place(_ fraction: CGFloat) {
    presentedView?.frame = restingFrame.offsetBy(dx: 0, dy: travel * fraction)
    presentingViewController?.viewIfLoaded?.transform = UIPresentationController.interpolate(
      presenterTransform, .identity, fraction)
  }

  private func endDrag(finishing: Bool, from fraction: CGFloat) {
    guard let presented = presentedViewController, let presenter = presentingViewController
    else { return }
    let remaining =
      UIViewController.presentationDuration * Double(finishing ? 1 - fraction : fraction)
    let window = presented.view.window
    UIView.animate(
      withDuration: max(remaining, VirtualRunLoop.frameDuration), delay: 0, options: .curveLinear,
      animations: { self.place(finishing ? 1 : 0) },
      completion: { _ in
        guard finishing else {
          presented.isBeingDismissed = false
          for controller in presented.appearanceTargets { controller.viewWillAppear(true) }
          for controller in presented.appearanceTargets { controller.viewDidAppear(true) }
          return
        }
        presenter.viewIfLoaded?.transform = .identity
        UIViewController.tearDown([presented], presenter: presenter, window: window)
        for controller in presented.appearanceTargets { controller.viewDidDisappear(true) }
        self.delegate?.presentationControllerDidDismiss(self)
      })
  }

  /// The transform `fraction` of the way from `from` to `to`, component by component.
  static func interpolate(
    _ from: CGAffineTransform, _ to: CGAffineTransform, _ fraction: CGFloat
  ) -> CGAffineTransform {
    func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * fraction }
    return CGAffineTransform(
      a: mix(from.a, to.a), b: mix(from.b, to.b), c: mix(from.c, to.c), d: mix(from.d, to.d),
      tx: mix(from.tx, to.tx), ty: mix(from.ty, to.ty))
  }
}
