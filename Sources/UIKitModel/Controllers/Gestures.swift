// Gesture recognizers and a driver that plays touches over virtual time.
public import Foundation
public import ObjCRuntime

/// What a gesture recognizer asks its delegate (UIKit's `UIGestureRecognizerDelegate`).
public protocol UIGestureRecognizerDelegate: AnyObject {
  /// Whether the gesture may begin.
  func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
}

extension UIGestureRecognizerDelegate {
  /// Yes.
  public func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
    true
  }
}

/// A gesture recognizer, as UIKit's: a state machine fed by touches, which sends its actions to
/// its targets through the runtime (so an action added at run time or swizzled works).
open class UIGestureRecognizer: ObjCObject {
  /// The states, as UIKit's `UIGestureRecognizer.State`.
  public enum State: Int, Sendable, CustomStringConvertible {
    /// Waiting for touches.
    case possible
    /// A continuous gesture started.
    case began
    /// It moved.
    case changed
    /// It ended.
    case ended
    /// It was cancelled.
    case cancelled
    /// It failed.
    case failed

    /// The name.
    public var description: String {
      ["possible", "began", "changed", "ended", "cancelled", "failed"][rawValue]
    }
  }

  /// The state.
  public internal(set) var state: State = .possible
  /// Whether the recognizer takes touches.
  open var isEnabled = true
  /// The delegate.
  open weak var delegate: (any UIGestureRecognizerDelegate)?
  /// The view it is attached to.
  public internal(set) weak var view: UIView?
  private var actions: [(target: ObjCObject, action: Selector)] = []
  /// A Swift handler run with each state change, after the targets (the navigation controller's
  /// own edge pan uses it).
  internal var handler: ((UIGestureRecognizer) -> Void)?

  /// A recognizer that sends `action` to `target`.
  public init(target: ObjCObject?, action: Selector?) {
    super.init()
    if let target, let action { addTarget(target, action: action) }
  }

  /// Adds a target-action pair.
  open func addTarget(_ target: ObjCObject, action: Selector) {
    actions.append((target, action))
  }

  /// Removes a target's actions (all of them when `action` is nil).
  open func removeTarget(_ target: ObjCObject?, action: Selector?) {
    actions.removeAll { pair in
      (target == nil || pair.target === target) && (action == nil || pair.action == action)
    }
  }

  /// Moves to `state` and tells the targets.
  internal func transition(to state: State) {
    self.state = state
    for (target, action) in actions {
      if action.name.hasSuffix(":") {
        try? objc_msgSend(target, action, self) as Void
      } else {
        try? objc_msgSend(target, action) as Void
      }
    }
    handler?(self)
  }
}

/// A pan: translation and velocity in a view's coordinates.
open class UIPanGestureRecognizer: UIGestureRecognizer {
  /// The most touches it follows.
  open var maximumNumberOfTouches = Int.max
  internal var translationValue = CGPoint.zero
  internal var velocityValue = CGPoint.zero

  /// The translation since the gesture began.
  open func translation(in view: UIView?) -> CGPoint { translationValue }

  /// Resets the translation.
  open func setTranslation(_ translation: CGPoint, in view: UIView?) {
    translationValue = translation
  }

  /// The velocity in points per second of virtual time.
  open func velocity(in view: UIView?) -> CGPoint { velocityValue }
}

/// A pan that starts at a screen edge (the swipe-back gesture).
open class UIScreenEdgePanGestureRecognizer: UIPanGestureRecognizer {
  /// The edges, as UIKit's `UIRectEdge`.
  public struct RectEdge: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt
    /// Edges from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The left edge.
    public static let left = RectEdge(rawValue: 1 << 1)
    /// The right edge.
    public static let right = RectEdge(rawValue: 1 << 3)
  }

  /// The edges it starts from.
  open var edges: RectEdge = .left
}

/// Plays touch sequences on pan recognizers over virtual time, so tests and the lab can swipe at
/// chosen speeds.
public enum GestureDriver {
  /// A swipe: begins, moves by `translation` in `steps` frames (one per frame), then ends, or is
  /// cancelled when `cancelled`. The velocity at the release is the last step's. Returns at
  /// once; the swipe happens as the run loop advances. A disabled recognizer, or one whose
  /// delegate refuses to begin, fails and gets nothing more.
  public static func swipe(
    _ recognizer: UIPanGestureRecognizer, translation: CGPoint, steps: Int = 10,
    cancelled: Bool = false
  ) {
    guard begin(recognizer) else { return }
    let steps = max(1, steps)
    var step = 0
    VirtualRunLoop.main.scheduledTimer(
      withTimeInterval: VirtualRunLoop.frameDuration, repeats: true, modes: [.common],
      keepsRunLoopBusy: true
    ) { timer in
      step += 1
      let fraction = CGFloat(step) / CGFloat(steps)
      move(recognizer, to: CGPoint(x: translation.x * fraction, y: translation.y * fraction))
      if step >= steps {
        timer.invalidate()
        end(recognizer, cancelled: cancelled)
      }
    }
  }

  /// Begins a gesture now; returns whether it began.
  @discardableResult
  public static func begin(_ recognizer: UIPanGestureRecognizer) -> Bool {
    guard recognizer.isEnabled, recognizer.state == .possible,
      recognizer.delegate?.gestureRecognizerShouldBegin(recognizer) ?? true
    else {
      if recognizer.state == .possible { recognizer.state = .failed }
      recognizer.state = .possible
      return false
    }
    recognizer.translationValue = .zero
    recognizer.velocityValue = .zero
    recognizer.transition(to: .began)
    return true
  }

  /// Moves a began gesture to `translation` now; the velocity is the change over one frame. A
  /// translation with a NaN or infinite component is refused with an issue (a touch is always
  /// somewhere), and the gesture stays where it was.
  public static func move(_ recognizer: UIPanGestureRecognizer, to translation: CGPoint) {
    guard recognizer.state == .began || recognizer.state == .changed else {
      UIKitModelIssues.report(.gestureNotBegun(recognizer.description))
      return
    }
    guard translation.x.isFinite, translation.y.isFinite else {
      UIKitModelIssues.report(
        .invalidGeometry(
          view: recognizer.description, value: "translation (\(translation.x), \(translation.y))"))
      return
    }
    let previous = recognizer.translationValue
    recognizer.translationValue = translation
    recognizer.velocityValue = CGPoint(
      x: (translation.x - previous.x) / VirtualRunLoop.frameDuration,
      y: (translation.y - previous.y) / VirtualRunLoop.frameDuration)
    recognizer.transition(to: .changed)
  }

  /// Ends (or cancels) a began gesture now; a gesture that never began is refused.
  public static func end(_ recognizer: UIPanGestureRecognizer, cancelled: Bool = false) {
    guard recognizer.state == .began || recognizer.state == .changed else {
      UIKitModelIssues.report(.gestureNotBegun(recognizer.description))
      return
    }
    recognizer.transition(to: cancelled ? .cancelled : .ended)
    recognizer.state = .possible
  }
}
