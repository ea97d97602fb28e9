// Touches: what a tap delivers to the view the hit test found (the model has taps, no
// multi-touch tracking).
public import Foundation
import ObjCRuntime

/// An event: the touches of one tap, as UIKit's `UIEvent` carries them.
@preconcurrency @MainActor
public final class UIEvent {
  /// The virtual time the event happened at.
  public let timestamp: TimeInterval
  /// The touches of the event.
  public internal(set) var allTouches: Set<UITouch>?

  /// An event at the current virtual time.
  public init() {
    timestamp = VirtualRunLoop.main.currentTime
  }
}

/// One finger on the screen: where it is, and the view the hit test gave it.
@preconcurrency @MainActor
public final class UITouch: Hashable {
  /// The phases of a touch the model delivers.
  public enum Phase: Sendable {
    /// The finger came down.
    case began
    /// The finger lifted.
    case ended
  }

  /// The view the touch was delivered to (the hit-test view).
  public let view: UIView?
  /// The window the touch is in.
  public let window: UIWindow?
  /// The phase.
  public internal(set) var phase: Phase = .began
  /// How many taps in a row (1 for the model's taps).
  public let tapCount = 1
  private let point: CGPoint

  /// A touch at `point` of `window`, delivered to `view`.
  public init(at point: CGPoint, in window: UIWindow?, view: UIView?) {
    self.point = point
    self.window = window
    self.view = view
  }

  /// The touch's location in `view`'s coordinates (the window's when nil), through the frames
  /// and translations the hit test went through, so a moved view sees the touch where it is
  /// drawn.
  public func location(in view: UIView?) -> CGPoint {
    view?.fromRoot(point) ?? point
  }

  /// Touches are equal when they are the same touch.
  nonisolated public static func == (lhs: UITouch, rhs: UITouch) -> Bool { lhs === rhs }

  /// Hashes the touch's identity.
  nonisolated public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

extension UIWindow {
  /// A tap at `point` of the window, as a finger makes it: the hit test finds the view, which
  /// gets `touchesBegan` and then `touchesEnded` (each passed up the responder chain unless the
  /// view handles it). Returns the view the hit test found, nil when nothing takes the point.
  @discardableResult
  public func tap(at point: CGPoint) -> UIView? {
    let event = UIEvent()
    guard let view = hitTest(point, with: event) else { return nil }
    let touch = UITouch(at: point, in: self, view: view)
    event.allTouches = [touch]
    view.touchesBegan([touch], with: event)
    touch.phase = .ended
    view.touchesEnded([touch], with: event)
    return view
  }
}
