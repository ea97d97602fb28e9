// Gesture recognizers and a driver that plays touches over virtual time.
public import Foundation
public import ObjCRuntime

/// What a gesture recognizer asks its delegate (UIKit's `UIGestureRecognizerDelegate`). A
/// delegate that is an `ObjCObject` whose class's table has the method
/// (`gestureRecognizerShouldBegin:`,
/// `gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:`) is asked through
/// the runtime, so a hook or a swizzle of it decides; any other is asked in Swift.
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
public final class UIGestureRecognizerTarget: ObjCObject {
  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIGestureRecognizerTarget.self) {
      ObjCIvarDeclaration(
        "_target", readOnly: { (entry: UIGestureRecognizerTarget) in entry.target })
      ObjCIvarDeclaration("_action", readOnly: \UIGestureRecognizerTarget.action)
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
open class UIGestureRecognizer: ObjCObject {
  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIGestureRecognizer.self) {
      ObjCIvarDeclaration("_targets", readOnly: \UIGestureRecognizer.actions)
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

  /// The state.
  public internal(set) var state: State = .possible
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
  internal private(set) var actions: [UIGestureRecognizerTarget] = []

  /// A recognizer that sends `action` to `target`.
  public init(target: ObjCObject?, action: Selector?) {
    super.init()
    if let target, let action { addTarget(target, action: action) }
  }

  /// A recognizer with no target yet (add them with ``addTarget(_:action:)``).
  public convenience override init() {
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
      !failureRequirements.contains(where: { $0.recognizer === other })
    else { return }
    failureRequirements.removeAll { $0.recognizer == nil }
    failureRequirements.append(WeakRecognizer(recognizer: other))
  }

  /// The recognizers that must fail first (``require(toFail:)``).
  internal private(set) var failureRequirements: [WeakRecognizer] = []

  /// Adds a target-action pair; the target is held weakly.
  open func addTarget(_ target: ObjCObject, action: Selector) {
    actions.append(UIGestureRecognizerTarget(target: target, action: action))
  }

  /// Removes a target's actions (all of them when `action` is nil).
  open func removeTarget(_ target: ObjCObject?, action: Selector?) {
    actions.removeAll { pair in
      pair.target == nil
        || ((target == nil || pair.target === target) && (action == nil || pair.action == action))
    }
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

/// A recognizer held weakly.
struct WeakRecognizer {
  weak var recognizer: UIGestureRecognizer?
}

/// One finger down, and the pans it came down on, nearest first: the first of them to begin
/// excludes the others unless they may recognize together.
final class TouchSequence {
  private var began: [WeakRecognizer] = []
  /// The pans of this finger that moved far enough and wait for a recognizer they require to
  /// fail.
  private var waiting: [WeakRecognizer] = []

  /// What a recognizer's failure requirements say once the finger has moved far enough.
  enum Requirements {
    /// None of them follows this finger any more without having begun: it may begin.
    case met
    /// One still follows this finger and has not begun: wait.
    case waiting
    /// One began on this finger, or is under way with another: it fails.
    case failed
  }

  /// Whether `recognizer` may begin beside those that already did.
  func admits(_ recognizer: UIPanGestureRecognizer) -> Bool {
    began.allSatisfy { entry in
      guard let other = entry.recognizer, other !== recognizer else { return true }
      return recognizer.recognizesSimultaneously(with: other)
    }
  }

  /// Where `recognizer`'s ``UIGestureRecognizer/require(toFail:)`` requirements stand on this
  /// finger.
  func requirements(of recognizer: UIGestureRecognizer) -> Requirements {
    var waiting = false
    for entry in recognizer.failureRequirements {
      guard let other = entry.recognizer else { continue }
      if began.contains(where: { $0.recognizer === other }) { return .failed }
      // Under way with another finger (or begun by `GestureDriver.begin`): recognized.
      if other.state == .began || other.state == .changed { return .failed }
      if let pan = other as? UIPanGestureRecognizer, pan.touch === self, pan.state == .possible {
        waiting = true
      }
    }
    return waiting ? .waiting : .met
  }

  /// Notes that `recognizer` begins (before its targets hear it, so that nothing they do lets
  /// another pan of this finger begin beside it unasked).
  func noteBegan(_ recognizer: UIPanGestureRecognizer) {
    began.append(WeakRecognizer(recognizer: recognizer))
  }

  /// Fails the pans that wait, as a cancelled touch does to every recognizer on it.
  func failWaiting() {
    let pans = waiting.compactMap { $0.recognizer as? UIPanGestureRecognizer }
    waiting.removeAll()
    for pan in pans where pan.touch === self && pan.state == .possible {
      pan.touch = nil
      pan.state = .failed
      pan.state = .possible
    }
  }

  /// Notes that `recognizer` waits, still following the finger.
  func noteWaiting(_ recognizer: UIPanGestureRecognizer) {
    guard !waiting.contains(where: { $0.recognizer === recognizer }) else { return }
    waiting.append(WeakRecognizer(recognizer: recognizer))
  }

  /// Notes that `recognizer` stopped following the finger without beginning (it failed, was
  /// disabled or removed, or its finger lifted first): the pans that waited for it are decided
  /// again now, as UIKit moves a dependent recognizer on when the one it requires fails.
  func stoppedFollowing(_ recognizer: UIPanGestureRecognizer) {
    waiting.removeAll { $0.recognizer == nil || $0.recognizer === recognizer }
    decideWaiting()
  }

  /// Decides every waiting pan again (after one of this finger's pans began or stopped
  /// following it); those still waiting stay in the list.
  func decideWaiting() {
    let pans = waiting.compactMap { $0.recognizer as? UIPanGestureRecognizer }
    waiting.removeAll()
    for pan in pans where pan.touch === self && pan.state == .possible {
      GestureDriver.decide(pan, on: self)
    }
  }
}

/// The selectors a recognizer asks its delegate through the runtime.
private enum GestureSelectors {
  static let shouldBegin: Selector = "gestureRecognizerShouldBegin:"
  static let simultaneous: Selector =
    "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:"
}

/// Plays touch sequences on pan recognizers over virtual time, so tests and the lab can swipe at
/// chosen speeds.
public enum GestureDriver {
  /// A swipe on `recognizer` alone: a finger down, moved by `translation` in `steps` frames (one
  /// per frame), then lifted, or the gesture cancelled when `cancelled`. The gesture begins at
  /// the first step that has moved ``UIPanGestureRecognizer/recognitionDistance`` points; the
  /// velocity at the release is the last step's. Returns at once; the swipe happens as the run
  /// loop advances. A disabled recognizer, one already under way, or one whose delegate refuses
  /// to begin fails and gets nothing more.
  public static func swipe(
    _ recognizer: UIPanGestureRecognizer, translation: CGPoint, steps: Int = 10,
    cancelled: Bool = false
  ) {
    guard follow(recognizer, at: .zero, in: TouchSequence()) else { return }
    let steps = max(1, steps)
    var step = 0
    VirtualRunLoop.main.scheduledTimer(
      withTimeInterval: VirtualRunLoop.frameDuration, repeats: true, modes: [.common],
      keepsRunLoopBusy: true
    ) { timer in
      guard recognizer.isFollowingTouch else {
        timer.invalidate()
        return
      }
      step += 1
      let fraction = CGFloat(step) / CGFloat(steps)
      move(recognizer, to: CGPoint(x: translation.x * fraction, y: translation.y * fraction))
      if step >= steps {
        timer.invalidate()
        if recognizer.isFollowingTouch { end(recognizer, cancelled: cancelled) }
      }
    }
  }

  /// Starts following a finger down at `location` on `recognizer`; false for a disabled
  /// recognizer or one already following a finger (a gesture under way ignores another).
  private static func follow(
    _ recognizer: UIPanGestureRecognizer, at location: CGPoint, in touch: TouchSequence
  ) -> Bool {
    guard recognizer.isEnabled, recognizer.state == .possible, recognizer.touch == nil else {
      return false
    }
    recognizer.translationValue = .zero
    recognizer.velocityValue = .zero
    recognizer.locationValue = location
    recognizer.startLocation = location
    recognizer.touch = touch
    return true
  }

  /// Begins a gesture now, with the touch at `location` (window coordinates), as if the finger
  /// had already moved far enough (the delegate is asked with a zero translation); returns
  /// whether it began. A disabled recognizer, one already under way, or one whose delegate
  /// refuses does not. ``touchDown(at:in:)`` and ``swipe(_:translation:steps:cancelled:)``
  /// begin as a finger does, once it has moved.
  @discardableResult
  public static func begin(_ recognizer: UIPanGestureRecognizer, at location: CGPoint = .zero)
    -> Bool
  {
    // A gesture under way ignores another finger (it keeps its state).
    guard recognizer.state == .possible, recognizer.touch == nil else { return false }
    guard recognizer.isEnabled, recognizer.delegateAllowsBegin() else {
      // Failed, then ready for the next touch.
      recognizer.state = .failed
      recognizer.state = .possible
      return false
    }
    recognizer.translationValue = .zero
    recognizer.velocityValue = .zero
    recognizer.locationValue = location
    recognizer.startLocation = location
    recognizer.transition(to: .began)
    return true
  }

  /// A finger comes down at `point` of `window`: the enabled pan recognizers on the view the
  /// hit test finds and on its ancestors (the nearest view first; on one view, the one added
  /// last first) follow the touch. An edge pan takes it only within 20 points of one of its
  /// edges. None begins yet: each is asked whether it may begin when the finger has moved
  /// ``UIPanGestureRecognizer/recognitionDistance`` points (``move(_:to:)``, in the order
  /// returned), and begins only if it may also recognize simultaneously with those that began
  /// before it. Returns the recognizers following the touch; move and end them with
  /// ``move(_:to:)`` and ``end(_:cancelled:)`` while ``UIPanGestureRecognizer/isFollowingTouch``.
  @discardableResult
  public static func touchDown(at point: CGPoint, in window: UIWindow) -> [UIPanGestureRecognizer] {
    guard point.x.isFinite, point.y.isFinite else {
      UIKitModelIssues.report(
        .invalidGeometry(view: window.description, value: "touch (\(point.x), \(point.y))"))
      return []
    }
    var candidates: [UIPanGestureRecognizer] = []
    var current = window.hitTest(point, with: nil)
    while let view = current {
      view.prepareBuiltInRecognizers()
      for case let pan as UIPanGestureRecognizer in view.recognizers.reversed() {
        if let edge = pan as? UIScreenEdgePanGestureRecognizer,
          !edge.touches(point, in: window.bounds)
        {
          continue
        }
        candidates.append(pan)
      }
      current = view.superview
    }
    let touch = TouchSequence()
    return candidates.filter { follow($0, at: point, in: touch) }
  }

  /// Moves the finger of a recognizer that follows it to `translation` (from where it came
  /// down) now; the velocity is the change over one frame. A gesture under way changes. One
  /// waiting to begin begins once the finger is ``UIPanGestureRecognizer/recognitionDistance``
  /// points away, if its delegate agrees and it may recognize beside those of the same finger
  /// that began before it; otherwise it fails and stops following the finger. While a
  /// recognizer it requires to fail (``UIGestureRecognizer/require(toFail:)``) still follows the
  /// finger without having begun, it waits, and is decided again as soon as that one fails or
  /// begins. A translation
  /// with a NaN or infinite component is refused with an issue (a touch is always somewhere),
  /// and the gesture stays where it was.
  public static func move(_ recognizer: UIPanGestureRecognizer, to translation: CGPoint) {
    guard recognizer.isFollowingTouch else {
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
    recognizer.locationValue = CGPoint(
      x: recognizer.startLocation.x + translation.x, y: recognizer.startLocation.y + translation.y)
    recognizer.velocityValue = CGPoint(
      x: (translation.x - previous.x) / VirtualRunLoop.frameDuration,
      y: (translation.y - previous.y) / VirtualRunLoop.frameDuration)
    guard recognizer.state == .possible, let touch = recognizer.touch else {
      recognizer.transition(to: .changed)
      return
    }
    guard
      (translation.x * translation.x + translation.y * translation.y).squareRoot()
        >= UIPanGestureRecognizer.recognitionDistance
    else { return }
    decide(recognizer, on: touch)
  }

  /// Decides whether a pan whose finger has moved far enough begins, waits for a recognizer it
  /// requires to fail (still following the finger), or fails and stops following it.
  static func decide(_ recognizer: UIPanGestureRecognizer, on touch: TouchSequence) {
    let requirements = touch.requirements(of: recognizer)
    guard requirements != .waiting else {
      touch.noteWaiting(recognizer)
      return
    }
    recognizer.touch = nil
    guard requirements == .met, recognizer.canBegin(after: recognizer.translationValue),
      touch.admits(recognizer), recognizer.delegateAllowsBegin()
    else {
      // Failed, then ready for the next touch.
      recognizer.state = .failed
      recognizer.state = .possible
      touch.stoppedFollowing(recognizer)
      return
    }
    touch.noteBegan(recognizer)
    recognizer.transition(to: .began)
    // The pans that waited for it to fail fail now; others are asked whether they may begin
    // beside it.
    touch.decideWaiting()
  }

  /// Lifts the finger of a recognizer that follows it: a gesture under way ends (or is
  /// cancelled); one that never moved far enough to begin fails quietly, as a pan does when the
  /// finger lifts too soon. A recognizer following no finger is refused with an issue.
  public static func end(_ recognizer: UIPanGestureRecognizer, cancelled: Bool = false) {
    guard recognizer.isFollowingTouch else {
      UIKitModelIssues.report(.gestureNotBegun(recognizer.description))
      return
    }
    guard recognizer.state != .possible else {
      let touch = recognizer.touch
      recognizer.touch = nil
      if cancelled {
        // A cancelled touch fails every recognizer waiting on it.
        touch?.failWaiting()
      } else {
        // Lifted before it began: it failed, so the pans waiting for it are decided now.
        touch?.stoppedFollowing(recognizer)
      }
      return
    }
    recognizer.transition(to: cancelled ? .cancelled : .ended)
    recognizer.state = .possible
  }
}
