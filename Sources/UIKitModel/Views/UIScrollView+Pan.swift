// A scroll view's own pan: a finger on the content moves it, as UIKit's scroll view does with its
// built-in `panGestureRecognizer`, and meets the other pans under the same finger.
import Foundation
import ObjCRuntime

/// UIKit's private class of a scroll view's pan (`UIScrollViewPanGestureRecognizer`): it begins
/// only for a move along an axis its scroll view can scroll, so a page's table view leaves a
/// sideways swipe to the pans above it.
final class UIScrollViewPanGestureRecognizer: UIPanGestureRecognizer {
  override func canBegin(after translation: CGPoint) -> Bool {
    guard let scrollView = view as? UIScrollView else { return true }
    return abs(translation.x) > abs(translation.y)
      ? scrollView.canScrollHorizontally : scrollView.canScrollVertically
  }
}

extension UIScrollView: UIGestureRecognizerDelegate {
  /// The scroll view's own pan, as UIKit's `panGestureRecognizer`: on the scroll view (first of
  /// its recognizers), with the scroll view as its delegate and its target (`handlePan:`, in the
  /// table). A finger moving the content drags it: the delegate hears
  /// `scrollViewWillBeginDragging`, every `scrollViewDidScroll`, `scrollViewDidEndDragging`, and
  /// the deceleration of a flick, as with ``simulateDrag(by:duration:releaseVelocity:)``.
  ///
  /// It begins only for a move mostly along an axis the content can scroll along: wider (or
  /// taller) than the view, or with ``alwaysBounceHorizontal`` (``alwaysBounceVertical``) and
  /// ``bounces``, as UIKit documents those properties. Like every pan, it excludes the other
  /// pans of the same finger unless a delegate lets them recognize together
  /// (`gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:`, asked through the
  /// runtime, so a category on `UIScrollView` answers for every scroll view, as
  /// FDFullscreenPopGesture's README has one do), or unless it waits for one of them to fail
  /// (`require(toFail:)`). UIKit's header asks apps not to change its delegate.
  ///
  /// The model makes it when first needed (read, or a finger coming down, or a recognizer added
  /// or removed), where UIKit makes it with the view: nothing can tell the difference.
  public var panGestureRecognizer: UIPanGestureRecognizer {
    if let panStorage { return panStorage }
    let pan = UIScrollViewPanGestureRecognizer()
    panStorage = pan
    pan.delegate = self
    pan.isEnabled = isScrollEnabled
    pan.addTarget(self, action: UIScrollView.Selectors.handlePan)
    // First, and directly: UIKit attached it when it made the view, before any other.
    recognizers.insert(pan, at: 0)
    pan.view = self
    return pan
  }

  /// Whether a horizontal drag is allowed: the content is wider than the view, or
  /// ``alwaysBounceHorizontal`` with ``bounces``.
  var canScrollHorizontally: Bool {
    contentSize.width > bounds.width || (bounces && alwaysBounceHorizontal)
  }

  /// Whether a vertical drag is allowed: the content is taller than the view, or
  /// ``alwaysBounceVertical`` with ``bounces``.
  var canScrollVertically: Bool {
    contentSize.height > bounds.height || (bounces && alwaysBounceVertical)
  }

  /// The base of `handlePan:`.
  static let handlePanIMP: @convention(c) (id, SEL, id?) -> Void = { me, _, sender in
    guard let pan = sender?.takeUnretainedObject() as? UIPanGestureRecognizer else { return }
    me.receiver(as: UIScrollView.self).followPan(pan)
  }

  /// Drags the content with the pan: from where the gesture began, the content follows the
  /// finger along the axes it can scroll, within the content; at the release it moves on at the
  /// finger's velocity and slows down as after a flick (``decelerationRate``). A cancelled pan
  /// stops where it is.
  func followPan(_ pan: UIPanGestureRecognizer) {
    let translation = pan.translation(in: self)
    switch pan.state {
    case .began:
      stopDecelerating()
      panStart = (contentOffset, translation)
      isDragging = true
      delegate?.scrollViewWillBeginDragging(self)
      VirtualRunLoop.main.currentMode = .tracking
    case .changed:
      guard let start = panStart else { return }
      let current = contentOffset
      let moved = CGPoint(
        x: canScrollHorizontally
          ? start.offset.x - (translation.x - start.translation.x) : current.x,
        y: canScrollVertically
          ? start.offset.y - (translation.y - start.translation.y) : current.y)
      contentOffset = clampedToContent(moved)
    case .ended, .cancelled:
      guard panStart != nil else { return }
      panStart = nil
      isDragging = false
      VirtualRunLoop.main.currentMode = .default
      let finger = pan.state == .ended ? pan.velocity(in: self) : .zero
      let velocity = CGPoint(
        x: canScrollHorizontally ? -finger.x : 0, y: canScrollVertically ? -finger.y : 0)
      let speed = (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot()
      let decelerate = speed >= 1
      delegate?.scrollViewDidEndDragging(self, willDecelerate: decelerate)
      if decelerate { self.decelerate(from: speed, along: velocity) }
    default: break
    }
  }
}
