// The touches of one finger and the driver that plays them over virtual time: which pans follow
// a finger, which begin, wait for another to fail, or fail.
public import Foundation
import ObjCRuntime

/// One finger down, and the pans it came down on, nearest first: the first of them to begin
/// excludes the others unless they may recognize together.
@preconcurrency @MainActor
final class TouchSequence {
  private var began: [WeakReference<UIGestureRecognizer>] = []
  /// The pans of this finger that moved far enough and wait for a recognizer they require to
  /// fail.
  private var waiting: [WeakReference<UIGestureRecognizer>] = []

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
      guard let other = entry.object, other !== recognizer else { return true }
      return recognizer.recognizesSimultaneously(with: other)
    }
  }

  /// Where `recognizer`'s ``UIGestureRecognizer/require(toFail:)`` requirements stand on this
  /// finger.
  func requirements(of recognizer: UIGestureRecognizer) -> Requirements {
    var waiting = false
    for entry in recognizer.failureRequirements {
      guard let other = entry.object else { continue }
      if began.contains(where: { $0.object === other }) { return .failed }
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
    began.append(WeakReference(recognizer))
  }

  /// Fails the pans that wait, as a cancelled touch does to every recognizer on it.
  func failWaiting() {
    let pans = waiting.compactMap { $0.object as? UIPanGestureRecognizer }
    waiting.removeAll()
    for pan in pans where pan.touch === self && pan.state == .possible {
      pan.touch = nil
      pan.state = .failed
      pan.state = .possible
    }
  }

  /// Notes that `recognizer` waits, still following the finger.
  func noteWaiting(_ recognizer: UIPanGestureRecognizer) {
    guard !waiting.contains(where: { $0.object === recognizer }) else { return }
    waiting.append(WeakReference(recognizer))
  }

  /// Notes that `recognizer` stopped following the finger without beginning (it failed, was
  /// disabled or removed, or its finger lifted first): the pans that waited for it are decided
  /// again now, as UIKit moves a dependent recognizer on when the one it requires fails.
  func stoppedFollowing(_ recognizer: UIPanGestureRecognizer) {
    waiting.removeAll { $0.object == nil || $0.object === recognizer }
    decideWaiting()
  }

  /// Decides every waiting pan again (after one of this finger's pans began or stopped
  /// following it); those still waiting stay in the list.
  func decideWaiting() {
    let pans = waiting.compactMap { $0.object as? UIPanGestureRecognizer }
    waiting.removeAll()
    for pan in pans where pan.touch === self && pan.state == .possible {
      GestureDriver.decide(pan, on: self)
    }
  }
}

/// Plays touch sequences on pan recognizers over virtual time, so tests and the lab can swipe at
/// chosen speeds.
@preconcurrency @MainActor
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

  /// A finger comes down at `point` of `window`: the enabled pan recognizers on the view the hit
  /// test finds and on its ancestors (the nearest view first; on one view, the one added last
  /// first) follow the touch. An edge pan takes it only within 20 points of one of the edges of its
  /// view (the screen's, for a view that fills it; an iPad sheet's own, the model's reading). None
  /// begins yet: each is asked whether it may begin when the finger has moved
  /// ``UIPanGestureRecognizer/recognitionDistance`` points (``move(_:to:)``, in the order
  /// returned), and begins only if it may also recognize simultaneously with those that began
  /// before it. Returns the recognizers following the touch; move and end them with ``move(_:to:)``
  /// and ``end(_:cancelled:)`` while ``UIPanGestureRecognizer/isFollowingTouch``.
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
        // The edge is the recognizer's view's: the screen's for a view that fills it, a
        // sheet's edge on an iPad (the model's reading).
        if let edge = pan as? UIScreenEdgePanGestureRecognizer,
          !edge.touches(point, in: view.convert(view.bounds, to: nil))
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
