// Scroll views: content offset, insets, a delegate told of every scroll, and a simulated drag
// that moves the offset over virtual time.
public import Foundation

/// What a scroll view tells its delegate, as UIKit's `UIScrollViewDelegate` (the seeds' demo
/// screens fade the bar in `scrollViewDidScroll(_:)`).
public protocol UIScrollViewDelegate: AnyObject {
  /// The content offset changed.
  func scrollViewDidScroll(_ scrollView: UIScrollView)
  /// A drag is starting.
  func scrollViewWillBeginDragging(_ scrollView: UIScrollView)
  /// A drag ended.
  func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
}

extension UIScrollViewDelegate {
  /// Does nothing.
  public func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}
  /// Does nothing.
  public func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
  {}
}

/// A scroll view: its content moves by `contentOffset`; a drag is simulated on the virtual clock.
open class UIScrollView: UIView {
  /// The offset of the content's origin from the view's origin; setting it tells the delegate.
  open var contentOffset: CGPoint = .zero {
    didSet { if contentOffset != oldValue { delegate?.scrollViewDidScroll(self) } }
  }
  /// The size of the content.
  open var contentSize: CGSize = .zero
  /// Insets of the content.
  open var contentInset: UIEdgeInsets = .zero
  /// The delegate, held weakly.
  open weak var delegate: (any UIScrollViewDelegate)?
  /// Whether a simulated drag is under way.
  public private(set) var isDragging = false

  /// Sets the offset, animated over 0.3 s of virtual time in steps of one frame (the delegate
  /// hears each step) or at once.
  open func setContentOffset(_ offset: CGPoint, animated: Bool) {
    guard animated else {
      contentOffset = offset
      return
    }
    move(to: offset, duration: 0.3, tracking: false)
  }

  /// Simulates a finger dragging the content by `translation` (positive y scrolls down, towards
  /// larger offsets) over `duration` seconds: the run loop is in tracking mode meanwhile, and
  /// the offset moves one step per frame, the delegate hearing each. Returns at once; the drag
  /// happens as the run loop advances.
  open func simulateDrag(by translation: CGPoint, duration: TimeInterval) {
    isDragging = true
    delegate?.scrollViewWillBeginDragging(self)
    VirtualRunLoop.main.currentMode = .tracking
    let target = CGPoint(x: contentOffset.x + translation.x, y: contentOffset.y + translation.y)
    move(to: target, duration: duration, tracking: true)
  }

  private func move(to target: CGPoint, duration: TimeInterval, tracking: Bool) {
    let start = contentOffset
    let frames = max(1, Int((duration / VirtualRunLoop.frameDuration).rounded()))
    var step = 0
    let runLoop = VirtualRunLoop.main
    runLoop.scheduledTimer(
      withTimeInterval: VirtualRunLoop.frameDuration, repeats: true, modes: [.common],
      keepsRunLoopBusy: true
    ) { [weak self] timer in
      guard let self else {
        timer.invalidate()
        return
      }
      step += 1
      let fraction = CGFloat(step) / CGFloat(frames)
      self.contentOffset = CGPoint(
        x: start.x + (target.x - start.x) * fraction, y: start.y + (target.y - start.y) * fraction)
      if step >= frames {
        timer.invalidate()
        if tracking {
          self.isDragging = false
          runLoop.currentMode = .default
          self.delegate?.scrollViewDidEndDragging(self, willDecelerate: false)
        }
      }
    }
  }
}

/// A table view as far as the seeds' demo screens go: a scroll view with a header view.
open class UITableView: UIScrollView {
  /// The view above the rows.
  open var tableHeaderView: UIView? {
    didSet {
      oldValue?.removeFromSuperview()
      if let tableHeaderView { insertSubview(tableHeaderView, at: 0) }
    }
  }
}
