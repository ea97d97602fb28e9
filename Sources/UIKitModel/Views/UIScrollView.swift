// Scroll views: content offset, insets, a delegate told of every scroll, and a simulated drag
// that moves the offset over virtual time.
public import Foundation
public import ObjCRuntime
import ObjCRuntimeGeometry

/// What a scroll view tells its delegate, as UIKit's `UIScrollViewDelegate` (the seeds' demo
/// screens fade the bar in `scrollViewDidScroll(_:)`).
@preconcurrency @MainActor
public protocol UIScrollViewDelegate: AnyObject {
  /// The content offset changed.
  func scrollViewDidScroll(_ scrollView: UIScrollView)
  /// A drag is starting.
  func scrollViewWillBeginDragging(_ scrollView: UIScrollView)
  /// A drag ended; `decelerate` says whether the content moves on (a flick).
  func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
  /// The content stopped moving after a flick.
  func scrollViewDidEndDecelerating(_ scrollView: UIScrollView)
}

extension UIScrollViewDelegate {
  /// Does nothing: UIKit's requirements are all optional.
  public func scrollViewDidScroll(_ scrollView: UIScrollView) {}
  /// Does nothing.
  public func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}
  /// Does nothing.
  public func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
  {}
  /// Does nothing.
  public func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {}
}

/// A scroll view: its content moves by `contentOffset`; a drag, and the deceleration after a
/// flick, are simulated on the virtual clock.
///
/// `setContentOffset:` is in the runtime's table (its IMP takes the `CGPoint` as C passes it, an
/// `Interceptor`'s), and the delegate hears `scrollViewDidScroll:` through the runtime when it
/// is an object whose class implements it: both can be hooked or swizzled. A Swift delegate
/// whose class has no such method is called directly.
open class UIScrollView: UIView {
  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIScrollView.self) {
      if case .success(let setter) = ScrollViewBase.setContentOffset {
        ObjCMethodDeclaration(
          "setContentOffset:", implementation: setter.implementation, types: "v@:{CGPoint=dd}")
      }
      ObjCMethodDeclaration(ScrollViewSelectors.handlePan, UIScrollView.handlePanIMP)
      ObjCPropertyDeclaration("contentOffset", attributes: "T{CGPoint=dd},N")
      // UIKit's ivar: key-value coding reads the offset through it (and so key-value observing
      // reports the values before and after a change).
      ObjCIvarDeclaration.onMainActor("_contentOffset") { (view: UIScrollView) in view.contentOffset
      }
    }
  }

  private var offset: CGPoint = .zero
  /// The running deceleration, if any. Weak: the run loop holds a scheduled timer, and the
  /// timer's block holds the view, so a reset of the run loop frees both.
  private weak var deceleration: VirtualRunLoop.Timer?
  /// The scroll view's own pan, once made (``panGestureRecognizer``).
  var panStorage: UIScrollViewPanGestureRecognizer?
  /// The pan's delegate, which asks this scroll view (the pan holds its delegate weakly).
  var panDelegate: UIScrollViewPanDelegate?
  /// Where the content and the finger were when the pan began; nil when no pan drags.
  var panStart: (offset: CGPoint, translation: CGPoint)?

  /// Whether the content bounces past its edges. True by default, as in UIKit; with
  /// ``alwaysBounceHorizontal`` or ``alwaysBounceVertical`` it lets the pan drag content no
  /// larger than the view. The model keeps the offset at the edge (it draws no rubber band).
  open var bounces = true
  /// Whether a horizontal drag is allowed even when the content is no wider than the view (with
  /// ``bounces``), UIKit's documented rule; false by default.
  open var alwaysBounceHorizontal = false
  /// Whether a vertical drag is allowed even when the content is no taller than the view (with
  /// ``bounces``); false by default.
  open var alwaysBounceVertical = false
  /// Whether a finger scrolls the content: when false, the scroll view's pan is off (a drag
  /// under way is cancelled). True by default. ``simulateDrag(by:duration:releaseVelocity:)``
  /// and ``setContentOffset(_:animated:)`` move the content either way.
  open var isScrollEnabled = true {
    didSet { panStorage?.isEnabled = isScrollEnabled }
  }

  override func prepareBuiltInRecognizers() {
    _ = panGestureRecognizer
  }

  /// The offset of the content's origin from the view's origin. Setting it sends
  /// `setContentOffset:` through the runtime, whose base implementation stores it and tells the
  /// delegate `scrollViewDidScroll:` when it changed. A NaN or infinite offset is refused.
  open var contentOffset: CGPoint {
    get { offset }
    set {
      guard newValue.x.isFinite, newValue.y.isFinite else {
        UIKitModelIssues.report(
          .invalidGeometry(view: description, value: "contentOffset \(newValue)"))
        return
      }
      do {
        let invocation = try Invocation(
          target: self, selector: ScrollViewSelectors.setContentOffset)
        try invocation.setArgument(newValue, at: 2)
        try invocation.invoke()
      } catch {
        Diagnostics.warn("-[\(type(of: self)) setContentOffset:]", refused: error)
      }
    }
  }

  /// The controller whose view holds this scroll view, found up the responder chain.
  private var owningPage: UIViewController? {
    var responder = next
    while let current = responder {
      if let page = current as? UIViewController { return page }
      responder = current.next
    }
    return nil
  }

  /// The base of `setContentOffset:`: stores the offset and tells the delegate.
  fileprivate func storeContentOffset(_ newValue: CGPoint) {
    guard newValue != offset else { return }
    offset = newValue
    tellDelegate(ScrollViewSelectors.scrollViewDidScroll) { $0.scrollViewDidScroll(self) }
    // iOS 15 (and its SDK): the bar over this page draws its scroll-edge appearance at the top.
    // So does a tab bar under it, at the bottom.
    // iOS 11: a large title's area and a search bar collapse as the content scrolls up (looked
    // for only once a bar has preferred large titles or an item had a search controller).
    let scrollEdges = UIDevice.current.linkedMajorVersion >= 15
    guard scrollEdges || UINavigationBar.someBarMayGrow, let page = owningPage else {
      return
    }
    if scrollEdges {
      page.navigationController?.navigationBar.scrollEdgeMayHaveChanged()
      page.tabBarController?.tabBar.scrollEdgeMayHaveChanged()
    }
    if let bar = page.navigationController?.navigationBar,
      bar.prefersLargeTitlesStorage || bar.shownSearchBar != nil
    {
      bar.updateLargeTitle(animated: false)
    }
  }

  /// The size of the content.
  open var contentSize: CGSize = .zero
  /// Insets of the content.
  open var contentInset: UIEdgeInsets = .zero
  /// The delegate, held weakly.
  open weak var delegate: (any UIScrollViewDelegate)?
  /// Whether a drag is under way: a simulated one, or the scroll view's pan.
  public internal(set) var isDragging = false
  /// Whether the content is still moving after a flick.
  public var isDecelerating: Bool { deceleration?.isValid == true }

  /// How fast a flick slows down: the share of the velocity kept per millisecond, UIKit's
  /// `UIScrollView.DecelerationRate.normal` (0.998).
  public static let decelerationRate: CGFloat = 0.998

  /// Sets the offset, animated over 0.3 s of virtual time in steps of one frame (the delegate
  /// hears each step) or at once.
  open func setContentOffset(_ offset: CGPoint, animated: Bool) {
    stopDecelerating()
    guard animated else {
      contentOffset = offset
      return
    }
    move(to: offset, duration: 0.3, tracking: false, releaseVelocity: 0)
  }

  /// Simulates a finger dragging the content by `translation` (positive y scrolls down, towards
  /// larger offsets) over `duration` seconds: the run loop is in tracking mode meanwhile, and
  /// the offset moves one step per frame, the delegate hearing each. Returns at once; the drag
  /// happens as the run loop advances.
  ///
  /// With a `releaseVelocity` (points per second, along the drag), the finger flicks: the
  /// content keeps moving after the drag ends, slowing by ``decelerationRate`` each millisecond,
  /// until it moves less than a point per second or reaches an edge of the content (when
  /// ``contentSize`` is set), and the delegate hears every step. As in
  /// UIKit, the deceleration holds the scroll view, so it goes on even if the view's controller
  /// is popped meanwhile (LTNavigationBar's issue 10: `scrollViewDidScroll` after the page left).
  open func simulateDrag(
    by translation: CGPoint, duration: TimeInterval, releaseVelocity: CGFloat = 0
  ) {
    // A finger moves a few thousand points at most: beyond a million, a number was mistyped.
    guard translation.x.isFinite, translation.y.isFinite, releaseVelocity.isFinite,
      abs(translation.x) <= 1_000_000, abs(translation.y) <= 1_000_000
    else {
      UIKitModelIssues.report(
        .invalidGeometry(
          view: description,
          value: "a drag by (\(translation.x), \(translation.y)) released at \(releaseVelocity)"))
      return
    }
    guard duration.isFinite, duration >= 0 else {
      UIKitModelIssues.report(
        .invalidGeometry(view: description, value: "a drag lasting \(duration) s"))
      return
    }
    guard duration <= VirtualRunLoop.maximumAdvance else {
      UIKitModelIssues.report(.advanceRefused("a drag of \(duration) s"))
      return
    }
    stopDecelerating()
    isDragging = true
    delegate?.scrollViewWillBeginDragging(self)
    VirtualRunLoop.main.beginTracking()
    let target = CGPoint(x: contentOffset.x + translation.x, y: contentOffset.y + translation.y)
    move(to: target, duration: duration, tracking: true, releaseVelocity: releaseVelocity)
  }

  private func move(
    to target: CGPoint, duration: TimeInterval, tracking: Bool, releaseVelocity: CGFloat
  ) {
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
          runLoop.endTracking()
          let direction = CGPoint(x: target.x - start.x, y: target.y - start.y)
          let decelerate = releaseVelocity != 0 && (direction.x != 0 || direction.y != 0)
          self.delegate?.scrollViewDidEndDragging(self, willDecelerate: decelerate)
          if decelerate { self.decelerate(from: releaseVelocity, along: direction) }
        }
      }
    }
  }

  /// Moves the content on after a flick at `velocity` points per second along `direction`
  /// (not zero). The timer's block holds the scroll view strongly, as UIKit's deceleration
  /// does; the run loop holds the timer.
  func decelerate(from velocity: CGFloat, along direction: CGPoint, byFinger: Bool = false) {
    stopDecelerating()
    let length = (direction.x * direction.x + direction.y * direction.y).squareRoot()
    let unit = CGPoint(x: direction.x / length, y: direction.y / length)
    var speed = velocity
    let frame = VirtualRunLoop.frameDuration
    let keep = CGFloat(pow(Double(UIScrollView.decelerationRate), frame * 1000))
    deceleration = VirtualRunLoop.main.scheduledTimer(
      withTimeInterval: frame, repeats: true, modes: [.common], keepsRunLoopBusy: true
    ) { _ in
      speed *= keep
      let distance = speed * CGFloat(frame)
      let wanted = CGPoint(
        x: self.contentOffset.x + unit.x * distance, y: self.contentOffset.y + unit.y * distance)
      let reached = byFinger ? self.clampedForFinger(wanted) : self.clampedToContent(wanted)
      self.contentOffset = reached
      if abs(speed) < 1 || reached != wanted {
        self.stopDecelerating()
        self.delegate?.scrollViewDidEndDecelerating(self)
      }
    }
  }

  /// `offset` kept within the content, on each axis whose content size is set.
  func clampedToContent(_ offset: CGPoint) -> CGPoint {
    func clamp(
      _ value: CGFloat, _ content: CGFloat, _ visible: CGFloat, _ before: CGFloat, _ after: CGFloat
    )
      -> CGFloat
    {
      guard content > 0 else { return value }
      return max(-before, min(max(0, content - visible) + after, value))
    }
    return CGPoint(
      x: clamp(offset.x, contentSize.width, bounds.width, contentInset.left, contentInset.right),
      y: clamp(offset.y, contentSize.height, bounds.height, contentInset.top, contentInset.bottom))
  }

  /// `offset` kept where a finger can take the content, on both axes, as UIKit's scroll view
  /// bounds it: from `-inset.top` to `max(-inset.top, content + inset.bottom - visible)` (and
  /// the same across), so content no larger than the view, dragged because it always bounces,
  /// stays where its inset puts it.
  func clampedForFinger(_ offset: CGPoint) -> CGPoint {
    func clamp(
      _ value: CGFloat, _ content: CGFloat, _ visible: CGFloat, _ before: CGFloat, _ after: CGFloat
    ) -> CGFloat {
      max(-before, min(max(-before, content + after - visible), value))
    }
    return CGPoint(
      x: clamp(offset.x, contentSize.width, bounds.width, contentInset.left, contentInset.right),
      y: clamp(offset.y, contentSize.height, bounds.height, contentInset.top, contentInset.bottom))
  }

  func stopDecelerating() {
    deceleration?.invalidate()
    deceleration = nil
  }

  /// Sends `selector` to the delegate through the runtime when its class implements it, else
  /// calls `swift`.
  private func tellDelegate(_ sel: Selector, swift: (any UIScrollViewDelegate) -> Void) {
    guard let delegate else { return }
    if let object = delegate as? ObjCObject, object.responds(to: sel) {
      do {
        try objc_msgSend(object, sel, self as ObjCObject) as Void
      } catch {
        Diagnostics.warn("-[\(type(of: object)) \(sel)]", refused: error)
      }
      return
    }
    swift(delegate)
  }
}

/// The base IMP of `setContentOffset:`: an interceptor, because a `@convention(c)` Swift
/// function cannot take a `CGPoint` (a Swift struct); the interceptor reads it from the call as
/// C passed it.
private enum ScrollViewBase {
  static let setContentOffset = Result { () throws(ObjCRuntimeError) in
    try Interceptor(types: "v@:{CGPoint=dd}") { call in
      guard let view = call.receiver as? UIScrollView,
        let point = call.argument(at: 2, as: CGPoint.self)
      else { return }
      MainThread.assumeIsolated { view.storeContentOffset(point) }
    }
  }
}

/// The selectors the scroll view sends.
private typealias ScrollViewSelectors = UIScrollView.Selectors

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
