// Gesture recognizers: the state machine, its targets and delegate, and what it waits for (the
// driver that plays touches is in GestureDriver.swift).
public import Foundation
public import ObjCRuntime

/// What a gesture recognizer asks its delegate (UIKit's `UIGestureRecognizerDelegate`). A
/// delegate that is an `ObjCObject` whose class's table has the method
/// (`gestureRecognizerShouldBegin:`,
/// `gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:`) is asked through
/// the runtime, so a hook or a swizzle of it decides; any other is asked in Swift.
@preconcurrency @MainActor
public protocol UIGestureRecognizerDelegate: AnyObject {
  /// Whether the gesture may begin.
  func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
  /// Whether `gestureRecognizer` may recognize at the same time as `other`, which began first
  /// on the same touches.
  func gestureRecognizer(
    _ gestureRecognizer: UIGestureRecognizer,
    shouldRecognizeSimultaneouslyWith other: UIGestureRecognizer
  ) -> Bool
}

extension UIGestureRecognizerDelegate {
  /// Yes.
  public func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
    true
  }

  /// No, as UIKit's default.
  public func gestureRecognizer(
    _ gestureRecognizer: UIGestureRecognizer,
    shouldRecognizeSimultaneouslyWith other: UIGestureRecognizer
  ) -> Bool { false }
}

/// One target-action pair of a gesture recognizer, as UIKit's private `UIGestureRecognizerTarget`:
/// the target (held weakly, as UIKit's recognizers hold theirs: a view holds its recognizers,
/// and a target is often the view's owner) and the action, readable by key-value coding as
/// `target` and `action` (ivars `_target` and `_action`).
@preconcurrency @MainActor
public final class UIGestureRecognizerTarget: ObjCObject {
  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIGestureRecognizerTarget.self) {
      ObjCIvarDeclaration.onMainActor("_target") { (entry: UIGestureRecognizerTarget) in
        entry.target
      }
      ObjCIvarDeclaration.onMainActor("_action") { (entry: UIGestureRecognizerTarget) in
        entry.action
      }
    }
  }

  /// The object sent the action, while it lives.
  public private(set) weak var target: ObjCObject?
  /// The selector sent.
  public let action: Selector
  /// Whether the action takes the recognizer (`handle:`), read from its name once.
  internal let takesSender: Bool

  init(target: ObjCObject, action: Selector) {
    self.target = target
    self.action = action
    self.takesSender = action.name.hasSuffix(":")
    super.init()
  }
}

/// A gesture recognizer, as UIKit's: a state machine fed by touches, which sends its actions to
/// its targets through the runtime (so an action added at run time or swizzled works).
@preconcurrency @MainActor
open class UIGestureRecognizer: ObjCObject {
  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIGestureRecognizer.self) {
      ObjCIvarDeclaration.onMainActor("_targets") { (recognizer: UIGestureRecognizer) in
        recognizer.actions
      }
    }
  }

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

    /// A discrete gesture was recognized: UIKit's alias of `ended`.
    public static var recognized: State { .ended }

    /// The name.
    public var description: String {
      ["possible", "began", "changed", "ended", "cancelled", "failed"][rawValue]
    }
  }

  // The state and the targets are read at every step of a gesture, on the model's thread; a
  // write is one statement, and the targets are copied before the actions run (an action that
  // adds a target changes the next step's list): no access spans a call that could reach them
  // again, so Swift's dynamic exclusivity checks could find nothing, and are switched off.
  /// The state.
  @exclusivity(unchecked) public internal(set) var state: State = .possible
  /// Whether the recognizer takes touches. Turning it off mid-gesture cancels the gesture, as
  /// UIKit does; one still waiting for the touch to move far enough fails.
  open var isEnabled = true {
    didSet {
      if !isEnabled { cancelIfUnderWay() }
    }
  }
  /// The delegate.
  open weak var delegate: (any UIGestureRecognizerDelegate)?
  /// The view it is attached to (``UIView/addGestureRecognizer(_:)``).
  public internal(set) weak var view: UIView?
  /// Where the touch is, in the window's coordinates.
  internal var locationValue = CGPoint.zero
  /// The target-action pairs, as UIKit keeps them in its private ivar `_targets` (so
  /// `value(forKey: "targets")` reads them, as FDFullscreenPopGesture does).
  @exclusivity(unchecked) internal private(set) var actions: [UIGestureRecognizerTarget] = []

  /// A recognizer that sends `action` to `target`.
  public init(target: ObjCObject?, action: Selector?) {
    super.init()
    if let target, let action { addTarget(target, action: action) }
  }

  /// A recognizer with no target yet (add them with ``addTarget(_:action:)``).
  public convenience init() {
    self.init(target: nil, action: nil)
  }

  /// Where the touch is, in `view`'s coordinates (the window's when nil).
  open func location(in view: UIView?) -> CGPoint {
    view?.fromRoot(locationValue) ?? locationValue
  }

  /// Whether the delegate lets the gesture begin: asked through the runtime when the delegate's
  /// class has `gestureRecognizerShouldBegin:`, else in Swift; yes without a delegate.
  internal func delegateAllowsBegin() -> Bool {
    guard let delegate else { return true }
    if let object = delegate as? ObjCObject, object.responds(to: GestureSelectors.shouldBegin) {
      return (try? objc_msgSend(object, GestureSelectors.shouldBegin, self as ObjCObject) as Bool)
        ?? true
    }
    return delegate.gestureRecognizerShouldBegin(self)
  }

  /// Whether this recognizer may recognize together with `other`, which began first: yes if
  /// either's delegate says so (through the runtime, as above).
  internal func recognizesSimultaneously(with other: UIGestureRecognizer) -> Bool {
    func asks(_ recognizer: UIGestureRecognizer, _ about: UIGestureRecognizer) -> Bool {
      guard let delegate = recognizer.delegate else { return false }
      let selector = GestureSelectors.simultaneous
      if let object = delegate as? ObjCObject, object.responds(to: selector) {
        return
          (try? objc_msgSend(
            object, selector, recognizer as ObjCObject, about as ObjCObject) as Bool) ?? false
      }
      return delegate.gestureRecognizer(recognizer, shouldRecognizeSimultaneouslyWith: about)
    }
    return asks(self, other) || asks(other, self)
  }

  /// Makes this recognizer wait for `other` to fail before it begins, as UIKit's
  /// `require(toFail:)`: once the finger has moved far enough, it stays in `possible` while
  /// `other` still follows the same finger without having begun; it begins as soon as `other`
  /// fails (refused, disabled, removed, or its finger lifted before it began), and fails as
  /// soon as `other` begins, or if `other` is already under way with another finger. A
  /// recognizer that follows no finger, or that is gone (from the waiting one's next move),
  /// imposes nothing. Requiring itself, or one already required, changes nothing. Two that
  /// require each other (UIKit leaves that undefined) both wait until the finger lifts: the
  /// first lifted fails, so the other begins (and ends when it is lifted). A cancelled touch
  /// fails the recognizers that wait. `other` is held weakly.
  open func require(toFail other: UIGestureRecognizer) {
    guard other !== self,
      !failureRequirements.contains(where: { $0.object === other })
    else { return }
    failureRequirements.removeAll { $0.object == nil }
    failureRequirements.append(WeakReference(other))
  }

  /// The recognizers that must fail first (``require(toFail:)``).
  internal private(set) var failureRequirements: [WeakReference<UIGestureRecognizer>] = []

  /// Adds a target-action pair; the target is held weakly.
  open func addTarget(_ target: ObjCObject, action: Selector) {
    actions.append(UIGestureRecognizerTarget(target: target, action: action))
  }

  /// Removes a target's actions (all of them when `action` is nil).
  open func removeTarget(_ target: ObjCObject?, action: Selector?) {
    // The kept pairs are assigned whole, and the removed ones are released after it: the
    // list's write never spans a deinit that could reach it.
    let kept = actions.filter { pair in
      !(pair.target == nil
        || ((target == nil || pair.target === target) && (action == nil || pair.action == action)))
    }
    actions = kept
  }

  /// Cancels the gesture if it is under way (its targets hear `cancelled`), ready for the next
  /// touch: what UIKit does when a recognizer is disabled or leaves its view mid-gesture. A pan
  /// still waiting for the touch to move far enough stops following it.
  internal func cancelIfUnderWay() {
    if let pan = self as? UIPanGestureRecognizer, let touch = pan.touch {
      pan.touch = nil
      // It no longer follows the finger: for the pans that wait for it, it failed.
      touch.stoppedFollowing(pan)
    }
    guard state == .began || state == .changed else { return }
    transition(to: .cancelled)
    state = .possible
  }

  /// Moves to `state` and tells the targets.
  internal func transition(to state: State) {
    self.state = state
    for pair in actions {
      guard let target = pair.target else { continue }
      let action = pair.action
      if pair.takesSender {
        try? objc_msgSend(target, action, self) as Void
      } else {
        try? objc_msgSend(target, action) as Void
      }
    }
  }
}

/// A pan: translation and velocity in a view's coordinates.
///
/// As UIKit documents, the gesture begins when the finger "has moved enough to be considered a
/// pan", not when it comes down: until then the recognizer is in `possible` and follows the
/// touch (``isFollowingTouch``), and its delegate's `gestureRecognizerShouldBegin:` is asked
/// when the touch has moved ``recognitionDistance`` points, so `translation(in:)` and
/// `location(in:)` already say where the finger went (FDFullscreenPopGesture refuses a first
/// move to the left that way).
open class UIPanGestureRecognizer: UIGestureRecognizer {
  /// How far the finger moves before the gesture begins, in points. UIKit documents the rule
  /// ("moved enough to be considered a pan") but no number; 10 points is the model's choice.
  public static let recognitionDistance: CGFloat = 10

  /// The most touches it follows.
  open var maximumNumberOfTouches = Int.max
  internal var translationValue = CGPoint.zero
  internal var velocityValue = CGPoint.zero
  /// Where the touch began, in the window's coordinates.
  internal var startLocation = CGPoint.zero
  /// The touch it follows before it began, shared with the other recognizers the same finger
  /// came down on; nil when it follows none.
  internal var touch: TouchSequence?

  /// Whether a finger is down for this recognizer: waiting to move far enough (`possible`), or
  /// under way (`began`, `changed`). ``GestureDriver/move(_:to:)`` and
  /// ``GestureDriver/end(_:cancelled:)`` take such a recognizer.
  public var isFollowingTouch: Bool {
    state == .began || state == .changed || (state == .possible && touch != nil)
  }

  /// Whether the recognizer itself may begin once the finger has moved by `translation`,
  /// before its delegate is asked: yes; a scroll view's pan says no for a direction its content
  /// cannot move in.
  internal func canBegin(after translation: CGPoint) -> Bool { true }

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

  /// How far from an edge a touch may begin, in points.
  public static let edgeWidth: CGFloat = 20

  /// Whether a touch at `point` of a window of `bounds` is at one of the edges.
  func touches(_ point: CGPoint, in bounds: CGRect) -> Bool {
    let width = UIScreenEdgePanGestureRecognizer.edgeWidth
    return (edges.contains(.left) && point.x - bounds.minX <= width)
      || (edges.contains(.right) && bounds.maxX - point.x <= width)
  }
}

/// An object held weakly, in a list that must not keep what it lists alive (the recognizers a
/// gesture waits for, the searches a navigation controller tells of its will-show).
struct WeakReference<Object: AnyObject> {
  weak var object: Object?

  init(_ object: Object) { self.object = object }
}

/// The selectors a recognizer asks its delegate through the runtime.
private enum GestureSelectors {
  static let shouldBegin: Selector = "gestureRecognizerShouldBegin:"
  static let simultaneous: Selector =
    "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:"
}
