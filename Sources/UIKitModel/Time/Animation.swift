// Animations on the virtual clock: the model value changes at once, the presentation value
// follows it over time, and completions run when the animations end.
public import Foundation

/// A value a view animates: what `UIView.animate` interpolates.
public enum AnimatableValue: Equatable, Sendable {
  /// A number (alpha).
  case scalar(CGFloat)
  /// A point (center).
  case point(CGPoint)
  /// A rectangle (frame, bounds).
  case rect(CGRect)
  /// A transform.
  case transform(CGAffineTransform)
  /// A colour (background colour, tint colour); nil is clear.
  case color(UIColorComponents)

  /// Whether `other` is this value component by component: what a set inside an animation
  /// block asks before it starts no animation. Rectangles are compared as given, not
  /// standardized as `==` may, so that only an identical frame counts, without the cross-module
  /// call (a layout compares every frame it sets).
  @inline(__always)
  func isIdentical(to other: AnimatableValue) -> Bool {
    switch (self, other) {
    case (.rect(let a), .rect(let b)):
      a.origin.x == b.origin.x && a.origin.y == b.origin.y && a.size.width == b.size.width
        && a.size.height == b.size.height
    case (.scalar(let a), .scalar(let b)): a == b
    default: self == other
    }
  }

  /// The value `fraction` of the way from `self` to `other` (values of different kinds jump).
  public func interpolated(to other: AnimatableValue, fraction t: CGFloat) -> AnimatableValue {
    func lerp(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * t }
    switch (self, other) {
    case (.scalar(let a), .scalar(let b)): return .scalar(lerp(a, b))
    case (.point(let a), .point(let b)):
      return .point(CGPoint(x: lerp(a.x, b.x), y: lerp(a.y, b.y)))
    case (.rect(let a), .rect(let b)):
      return .rect(
        CGRect(
          x: lerp(a.origin.x, b.origin.x), y: lerp(a.origin.y, b.origin.y),
          width: lerp(a.width, b.width), height: lerp(a.height, b.height)))
    case (.transform(let a), .transform(let b)):
      return .transform(
        CGAffineTransform(
          a: lerp(a.a, b.a), b: lerp(a.b, b.b), c: lerp(a.c, b.c), d: lerp(a.d, b.d),
          tx: lerp(a.tx, b.tx), ty: lerp(a.ty, b.ty)))
    case (.color(let a), .color(let b)):
      return .color(
        UIColorComponents(
          red: lerp(a.red, b.red), green: lerp(a.green, b.green), blue: lerp(a.blue, b.blue),
          alpha: lerp(a.alpha, b.alpha)))
    default: return t < 1 ? self : other
    }
  }
}

/// A colour's components as a value, for interpolation.
public struct UIColorComponents: Equatable, Sendable {
  /// The components.
  public var red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

  /// Components from their values.
  public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The components of `color`; clear for nil.
  public init(_ color: UIColor?) {
    let color = color ?? .clear
    self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
  }

  /// The colour.
  public var color: UIColor { UIColor(red: red, green: green, blue: blue, alpha: alpha) }
}

/// A timing curve, as UIKit's `UIView.AnimationCurve` (which names this type too), with UIKit's
/// raw values: the cubic Béziers of Core Animation's named timing functions.
public enum AnimationCurve: Int, Sendable, CaseIterable {
  /// Constant speed.
  case linear = 3
  /// Slow start: (0.42, 0, 1, 1).
  case easeIn = 1
  /// Slow end: (0, 0, 0.58, 1).
  case easeOut = 2
  /// Slow start and end: (0.42, 0, 0.58, 1), UIKit's default.
  case easeInOut = 0

  /// The progress at `time`, both from 0 to 1.
  public func progress(at time: Double) -> Double {
    let t = max(0, min(1, time))
    switch self {
    case .linear: return t
    case .easeIn: return AnimationCurve.bezier(x1: 0.42, y1: 0, x2: 1, y2: 1, t)
    case .easeOut: return AnimationCurve.bezier(x1: 0, y1: 0, x2: 0.58, y2: 1, t)
    case .easeInOut: return AnimationCurve.bezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1, t)
    }
  }

  /// The y of the cubic Bézier (0,0) (x1,y1) (x2,y2) (1,1) at x, found by bisection (exact to
  /// 1e-9, and deterministic).
  private static func bezier(x1: Double, y1: Double, x2: Double, y2: Double, _ x: Double)
    -> Double
  {
    func coordinate(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
      let inverse = 1 - s
      return 3 * inverse * inverse * s * p1 + 3 * inverse * s * s * p2 + s * s * s
    }
    var low = 0.0
    var high = 1.0
    var s = x
    for _ in 0..<60 {
      s = (low + high) / 2
      if coordinate(x1, x2, s) < x { low = s } else { high = s }
      if high - low < 1e-12 { break }
    }
    return coordinate(y1, y2, s)
  }
}

/// Something with animatable properties (a view).
@preconcurrency @MainActor
internal protocol AnimationTarget: AnyObject {
  /// The running animation of `key` ended (finished or replaced).
  func animationEnded(_ animation: RunningAnimation)
  /// Sets the model value of `key` back to `value`, without animation.
  func restore(_ key: String, to value: AnimatableValue)
}

/// Animations created by one `UIView.animate` call: their completion runs once all have ended.
///
/// Its counters are `@exclusivity(unchecked)`, as the run loop's queues are (VirtualRunLoop.swift):
/// the model runs on one thread at a time, and no access spans a call.
@preconcurrency @MainActor
internal final class AnimationGroup {
  @exclusivity(unchecked) var remaining = 0
  @exclusivity(unchecked) var interrupted = false
  let completion: ((Bool) -> Void)?
  /// The latest time an animation skipped in the block would have ended (a value set to what it
  /// was): the completion waits for it as it would have waited for that animation.
  @exclusivity(unchecked) var heldUntil = -TimeInterval.infinity
  /// The innermost transaction open when the open transactions were last held for the group:
  /// the next skip in the same block, under the same transactions, holds nothing new.
  @exclusivity(unchecked) var heldTransactions: ObjectIdentifier?

  init(completion: ((Bool) -> Void)?) {
    self.completion = completion
  }

  /// Runs the completion with `finished`, now that no animation of the group runs: at the end
  /// of the turn, or once the time it is held until has come.
  func complete(finished: Bool) {
    guard let completion else { return }
    let runLoop = VirtualRunLoop.main
    if heldUntil > runLoop.currentTime {
      runLoop.perform(after: heldUntil - runLoop.currentTime, waitedFor: true) {
        completion(finished)
      }
    } else {
      runLoop.atEndOfTurn { completion(finished) }
    }
  }
}

/// One property animating.
@preconcurrency @MainActor
internal final class RunningAnimation {
  weak var target: (any AnimationTarget)?
  let key: String
  let from: AnimatableValue
  let to: AnimatableValue
  private(set) var start: TimeInterval
  private(set) var duration: TimeInterval
  let curve: AnimationCurve
  let group: AnimationGroup
  var transactions: [Transaction]
  /// While paused by a percent-driven transition, the fraction of its time it is held at.
  var scrub: Double?
  /// The span of the animation's own time this run covers: 0 to 1 normally; from the scrub
  /// point to 1 when a percent-driven transition finishes, or back to 0 when it is cancelled.
  private(set) var fromProgress = 0.0
  private(set) var toProgress = 1.0
  /// The timing of a resumed run (a percent-driven transition's `completionCurve`): linear for
  /// a run that was never paused.
  private(set) var resumeCurve = AnimationCurve.linear

  init(
    target: any AnimationTarget, key: String, from: AnimatableValue, to: AnimatableValue,
    start: TimeInterval, duration: TimeInterval, curve: AnimationCurve, group: AnimationGroup,
    transactions: [Transaction]
  ) {
    self.target = target
    self.key = key
    self.from = from
    self.to = to
    self.start = start
    self.duration = duration
    self.curve = curve
    self.group = group
    self.transactions = transactions
  }

  var end: TimeInterval { start + duration }

  /// Whether the run goes backwards, towards the `from` value.
  var isReversed: Bool { toProgress < fromProgress }

  /// Runs the animation on from its scrub point to `progress` (1: the end, 0: back to the start)
  /// over `duration` from `time`.
  func resume(
    towards progress: Double, over duration: TimeInterval, at time: TimeInterval,
    curve: AnimationCurve = .linear
  ) {
    fromProgress = scrub ?? 0
    toProgress = progress
    scrub = nil
    start = time
    resumeCurve = curve
    self.duration = max(0, duration)
  }

  /// The presentation value at `time`.
  func value(at time: TimeInterval) -> AnimatableValue {
    let timeFraction: Double
    if let scrub {
      timeFraction = scrub
    } else if duration <= 0 {
      timeFraction = toProgress
    } else {
      let run = resumeCurve.progress(at: max(0, min(1, (time - start) / duration)))
      timeFraction = fromProgress + (toProgress - fromProgress) * run
    }
    if timeFraction <= 0 { return from }
    if timeFraction >= 1 { return to }
    return from.interpolated(to: to, fraction: CGFloat(curve.progress(at: timeFraction)))
  }
}

/// The running animations of the run loop.
@preconcurrency @MainActor
internal final class AnimationEngine {
  // Read every frame; unchecked as the run loop's queues are (VirtualRunLoop.swift).
  @exclusivity(unchecked) private(set) var running: [RunningAnimation] = []

  var isEmpty: Bool { running.isEmpty }

  /// Animations made while a percent-driven transition starts, paused for it to scrub: those of
  /// the views in `scope`'s subtree, less the subtrees of `excluded`.
  private var captures: [(scope: UIView, excluded: [UIView], animations: [RunningAnimation])] = []

  /// Starts capturing the animations made from now on of `scope` and the views inside it but
  /// not inside one of `excluded`: they are paused at their start. Animations of other views
  /// run as usual.
  func beginCapture(within scope: UIView, excluding excluded: [UIView] = []) {
    captures.append((scope, excluded, []))
  }

  /// Stops capturing and returns what was captured.
  func endCapture() -> [RunningAnimation] { captures.popLast()?.animations ?? [] }

  /// Whether an animation of `view` made now would be captured.
  func wouldCapture(_ view: UIView) -> Bool {
    guard let capture = captures.last else { return false }
    return view.isDescendant(of: capture.scope)
      && !capture.excluded.contains(where: { view.isDescendant(of: $0) })
  }

  /// Adds `animation`, of `scope` (its target, when that is a view): captured when it is made
  /// inside a capture.
  func add(_ animation: RunningAnimation, scope: UIView? = nil) {
    if let view = scope ?? (animation.target as? UIView), wouldCapture(view) {
      animation.scrub = 0
      captures[captures.count - 1].animations.append(animation)
    }
    running.append(animation)
    animation.group.remaining += 1
    for transaction in animation.transactions { transaction.pendingAnimations += 1 }
  }

  /// Ends the animations whose time is over, in the order they were added.
  func advance(to time: TimeInterval) {
    guard !running.isEmpty else { return }
    // A loop, not `removeAll(where:)`: a main-actor closure the standard library calls checks
    // its executor on every call (SE-0423), about 400 instructions per running animation per
    // frame, which made an animated push and pop a third dearer. The ones kept keep their order.
    // Most frames end none: a read-only scan finds the first that ends, if any.
    func ends(_ animation: RunningAnimation) -> Bool {
      animation.scrub == nil && time >= animation.end - 1e-9
    }
    var first = running.endIndex
    for index in running.indices where ends(running[index]) {
      first = index
      break
    }
    guard first < running.endIndex else { return }
    var ended: [RunningAnimation] = [running[first]]
    var kept = first
    for index in (first + 1)..<running.endIndex {
      let animation = running[index]
      if ends(animation) {
        ended.append(animation)
      } else {
        running[kept] = animation
        kept += 1
      }
    }
    running.removeSubrange(kept...)
    for animation in ended { finish(animation, interrupted: false) }
  }

  /// Ends `animation` early: a later animation of the same property replaced it.
  func interrupt(_ animation: RunningAnimation) {
    guard let index = running.firstIndex(ofIdentical: animation) else { return }
    running.remove(at: index)
    finish(animation, interrupted: true)
  }

  private func finish(_ animation: RunningAnimation, interrupted: Bool) {
    if animation.isReversed, !interrupted {
      // A cancelled percent-driven transition runs its animations back: the model value goes
      // back to where it started, as UIKit's reversed animations leave it.
      animation.target?.restore(animation.key, to: animation.from)
    }
    animation.target?.animationEnded(animation)
    let group = animation.group
    if interrupted { group.interrupted = true }
    group.remaining -= 1
    if group.remaining == 0 { group.complete(finished: !group.interrupted) }
    for transaction in animation.transactions {
      transaction.pendingAnimations -= 1
    }
    animation.transactions.removeAll()
  }

  func removeAll() { running.removeAll() }
}

/// The `UIView.animate` call being run, if any: property changes inside it animate.
internal struct AnimationContext {
  let duration: TimeInterval
  let delay: TimeInterval
  let curve: AnimationCurve
  let group: AnimationGroup
  let beginFromCurrentState: Bool

  /// The innermost `animate` or `performWithoutAnimation` block running; nil outside one.
  // nonisolated(unsafe): the model is used on the main thread (MainThread), and its IMPs enter
  // the main actor unchecked, so the stack's readers are all there. Unchecked
  // exclusivity: pushes and pops never overlap a read, and every property set asks for it.
  @exclusivity(unchecked) nonisolated(unsafe) static var stack: [AnimationContext?] = []

  static var current: AnimationContext? {
    // Outside every block (most property sets) the answer needs no copy of the array.
    guard !stack.isEmpty else { return nil }
    return stack.last ?? nil
  }
}

extension UIView {
  /// UIKit's name of the timing curves: `UIView.AnimationCurve.easeOut`.
  public typealias AnimationCurve = UIKitModel.AnimationCurve
}
