// A scroll view's own pan: a finger on the content moves it, as UIKit's scroll view does with its
// built-in `panGestureRecognizer`, and meets the other pans under the same finger.
import Foundation
import ObjCRuntime

/// UIKit's private class of a scroll view's pan (`UIScrollViewPanGestureRecognizer`): it begins
/// only for a move along an axis its scroll view can scroll, so a page's table view leaves a
/// sideways swipe to the pans above it.
final class UIScrollViewPanGestureRecognizer: UIPanGestureRecognizer {
  /// The scroll view whose content it drags (held weakly: the view holds its recognizers). It
  /// stays that view's pan wherever it is attached, as UIKit's does.
  weak var scrollView: UIScrollView?

  override func canBegin(after translation: CGPoint) -> Bool {
    guard let scrollView else { return false }
    return abs(translation.x) > abs(translation.y)
      ? scrollView.canScrollHorizontally : scrollView.canScrollVertically
  }
}

/// The delegate of a scroll view's pan. UIKit's is the scroll view itself; Swift has no private
/// conformance, and a public `UIScrollView: UIGestureRecognizerDelegate` would make the iOS idiom
/// `extension UIScrollView: UIGestureRecognizerDelegate` a redundant conformance. So this object
/// asks the scroll view instead, through the runtime, when the scroll view's class has the method
/// (a category on `UIScrollView`, as FDFullscreenPopGesture's README has one, or a subclass's
/// method in its table): a pan may begin unless it says no, and recognizes beside another only
/// if it says yes.
@preconcurrency @MainActor
final class UIScrollViewPanDelegate: ObjCObject, UIGestureRecognizerDelegate {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIScrollViewPanDelegate.self) {
      ObjCMethodDeclaration(PanSelectors.shouldBegin, UIScrollViewPanDelegate.shouldBegin)
      ObjCMethodDeclaration(PanSelectors.simultaneous, UIScrollViewPanDelegate.simultaneous)
    }
  }

  /// The scroll view it answers for.
  weak var scrollView: UIScrollView?

  init(_ scrollView: UIScrollView) {
    self.scrollView = scrollView
    super.init()
  }

  nonisolated private static let shouldBegin: @convention(c) (id, SEL, id?) -> Bool = {
    me, _, pan in
    MainThread.enterIMP(with: me, pan) { me, pan in
      guard let view = me.receiver(as: UIScrollViewPanDelegate.self).scrollView,
        view.responds(to: PanSelectors.shouldBegin)
      else { return true }
      let recognizer = pan?.takeUnretainedObject() as? UIGestureRecognizer
      return (try? objc_msgSend(view, PanSelectors.shouldBegin, recognizer) as Bool) ?? true
    }
  }

  nonisolated private static let simultaneous: @convention(c) (id, SEL, id?, id?) -> Bool = {
    me, _, pan, other in
    MainThread.enterIMP(with: me, pan, other) { me, pan, other in
      guard let view = me.receiver(as: UIScrollViewPanDelegate.self).scrollView,
        view.responds(to: PanSelectors.simultaneous)
      else { return false }
      let recognizer = pan?.takeUnretainedObject() as? UIGestureRecognizer
      let otherRecognizer = other?.takeUnretainedObject() as? UIGestureRecognizer
      return
        (try? objc_msgSend(view, PanSelectors.simultaneous, recognizer, otherRecognizer) as Bool)
        ?? false
    }
  }
}

/// The delegate selectors a scroll view may answer for its pan.
private enum PanSelectors {
  nonisolated static let shouldBegin: Selector = "gestureRecognizerShouldBegin:"
  nonisolated static let simultaneous: Selector =
    "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:"
}

extension UIScrollView {
  /// The scroll view's own pan, as UIKit's `panGestureRecognizer`: on the scroll view (first of
  /// its recognizers), with the scroll view as its target (`handlePan:`, in the table). A finger
  /// moving the content drags it: the delegate hears `scrollViewWillBeginDragging`, every
  /// `scrollViewDidScroll`, `scrollViewDidEndDragging`, and the deceleration of a flick, as with
  /// ``simulateDrag(by:duration:releaseVelocity:)``.
  ///
  /// It begins only for a move mostly along an axis the content can scroll along: larger than
  /// the view (insets included), or with ``alwaysBounceHorizontal`` (``alwaysBounceVertical``)
  /// and ``bounces``, as UIKit documents those properties. Like every pan, it excludes the other
  /// pans of the same finger unless a delegate lets them recognize together, or unless it waits
  /// for one of them to fail (`require(toFail:)`). UIKit asks the scroll view itself, its pan's
  /// delegate, `gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:`; the
  /// model's pan has a private delegate that asks the scroll view through the runtime, so a
  /// category on `UIScrollView` (FDFullscreenPopGesture's README has one) or a subclass's method
  /// in its table answers for it.
  ///
  /// The model makes it when first needed (read, or a finger coming down, or a recognizer added
  /// or removed), where UIKit makes it with the view.
  public var panGestureRecognizer: UIPanGestureRecognizer {
    if let panStorage { return panStorage }
    let pan = UIScrollViewPanGestureRecognizer()
    let delegate = UIScrollViewPanDelegate(self)
    panStorage = pan
    panDelegate = delegate
    pan.scrollView = self
    pan.delegate = delegate
    pan.isEnabled = isScrollEnabled
    pan.addTarget(self, action: UIScrollView.Selectors.handlePan)
    // First, and directly: UIKit attached it when it made the view, before any other.
    recognizers.insert(pan, at: 0)
    pan.view = self
    return pan
  }

  /// Whether a horizontal drag is allowed: the content (with its insets) is wider than the view,
  /// or ``alwaysBounceHorizontal`` with ``bounces``.
  var canScrollHorizontally: Bool {
    contentSize.width + contentInset.left + contentInset.right > bounds.width
      || (bounces && alwaysBounceHorizontal)
  }

  /// Whether a vertical drag is allowed: the content (with its insets) is taller than the view,
  /// or ``alwaysBounceVertical`` with ``bounces``.
  var canScrollVertically: Bool {
    contentSize.height + contentInset.top + contentInset.bottom > bounds.height
      || (bounces && alwaysBounceVertical)
  }

  /// The base of `handlePan:`.
  nonisolated static let handlePanIMP: @convention(c) (id, SEL, id?) -> Void = { me, _, sender in
    MainThread.enterIMP(with: me, sender) { me, sender in
      guard let pan = sender?.takeUnretainedObject() as? UIPanGestureRecognizer else { return }
      me.receiver(as: UIScrollView.self).followPan(pan)
    }
  }

  /// Drags the content with the pan: from where the gesture began, the content follows the
  /// finger along the axes it can scroll, within where a finger can take it
  /// (``clampedForFinger(_:)``); at the release it moves on at the finger's velocity and slows
  /// down as after a flick (``decelerationRate``). A cancelled pan stops where it is. The run
  /// loop is in `tracking` mode while any drag is under way, and goes back to the mode it was in
  /// once the last one ends.
  func followPan(_ pan: UIPanGestureRecognizer) {
    let translation = pan.translation(in: self)
    switch pan.state {
    case .began:
      stopDecelerating()
      panStart = (contentOffset, translation)
      isDragging = true
      delegate?.scrollViewWillBeginDragging(self)
      VirtualRunLoop.main.beginTracking()
    case .changed:
      guard let start = panStart else { return }
      let current = contentOffset
      let moved = CGPoint(
        x: canScrollHorizontally
          ? start.offset.x - (translation.x - start.translation.x) : current.x,
        y: canScrollVertically
          ? start.offset.y - (translation.y - start.translation.y) : current.y)
      contentOffset = clampedForFinger(moved)
    case .ended, .cancelled:
      guard panStart != nil else { return }
      panStart = nil
      isDragging = false
      VirtualRunLoop.main.endTracking()
      let finger = pan.state == .ended ? pan.velocity(in: self) : .zero
      let velocity = CGPoint(
        x: canScrollHorizontally ? -finger.x : 0, y: canScrollVertically ? -finger.y : 0)
      let speed = (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot()
      let decelerate = speed >= 1
      delegate?.scrollViewDidEndDragging(self, willDecelerate: decelerate)
      if decelerate { self.decelerate(from: speed, along: velocity, byFinger: true) }
    default: break
    }
  }
}
