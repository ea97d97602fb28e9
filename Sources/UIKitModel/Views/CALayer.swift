// Layers: the properties of a view's layer the seeds use (shadow, corner radius, opacity), and
// CABasicAnimation on the virtual clock, its delegate told through the runtime.
public import Foundation
public import ObjCRuntime

/// What an animation tells its delegate (Core Animation's `CAAnimationDelegate`). A delegate
/// that is an `ObjCObject` whose class's table has `animationDidStop:finished:` hears it through
/// the runtime (hookable); any other hears the Swift method.
@preconcurrency @MainActor
public protocol CAAnimationDelegate: AnyObject {
  /// The animation started.
  func animationDidStart(_ animation: CABasicAnimation)
  /// The animation stopped: `finished` is false when it was removed before its end.
  func animationDidStop(_ animation: CABasicAnimation, finished: Bool)
}

extension CAAnimationDelegate {
  /// Nothing.
  public func animationDidStart(_ animation: CABasicAnimation) {}
  /// Nothing.
  public func animationDidStop(_ animation: CABasicAnimation, finished: Bool) {}
}

/// An animation of one scalar property of a layer from one value to another, linear in time
/// (Core Animation's `CABasicAnimation` with its default timing). Values are numbers
/// (`Double`, `Float`, `CGFloat`, `Int`).
///
/// ```swift
/// let fade = CABasicAnimation(keyPath: "shadowOpacity")
/// fade.fromValue = 0.5
/// fade.toValue = 0
/// fade.duration = 0.25
/// view.layer.add(fade, forKey: "shadow")
/// ```
///
/// As in Core Animation, the animation changes what is drawn (``CALayer/presentation()``), not
/// the layer's own value: set the property too, or keep the end value with
/// ``isRemovedOnCompletion`` false.
@preconcurrency @MainActor
public final class CABasicAnimation: ObjCObject {
  /// The property animated: `opacity`, `shadowOpacity`, `shadowRadius` or `cornerRadius`.
  public var keyPath: String?
  /// The value at the start; nil starts from the layer's current value.
  public var fromValue: Any?
  /// The value at the end; nil ends at the layer's own value.
  public var toValue: Any?
  /// The length in seconds of virtual time; 0 (the default) means Core Animation's 0.25.
  public var duration: TimeInterval = 0
  /// Whether the animation is taken off the layer at its end (true, the default); false keeps
  /// its end value drawn until it is removed.
  public var isRemovedOnCompletion = true
  /// The delegate, held strongly, as Core Animation holds it.
  public var delegate: (any CAAnimationDelegate)?

  /// An animation of `keyPath`.
  public init(keyPath: String?) {
    self.keyPath = keyPath
    super.init()
  }

  /// An animation with no key path yet.
  public convenience init() {
    self.init(keyPath: nil)
  }

  /// The duration Core Animation uses: 0.25 s when none is set.
  var effectiveDuration: TimeInterval { duration > 0 ? duration : 0.25 }

  /// A copy, as `add(_:forKey:)` takes one.
  func copy() -> CABasicAnimation {
    let copy = CABasicAnimation(keyPath: keyPath)
    copy.fromValue = fromValue
    copy.toValue = toValue
    copy.duration = duration
    copy.isRemovedOnCompletion = isRemovedOnCompletion
    copy.delegate = delegate
    return copy
  }

  /// Tells the delegate the animation stopped.
  func tellStopped(finished: Bool) {
    guard let delegate else { return }
    let selector = LayerSelectors.animationDidStop
    if let object = delegate as? ObjCObject, object.responds(to: selector) {
      do {
        try objc_msgSend(object, selector, self as ObjCObject, finished) as Void
      } catch {
        Diagnostics.warn("-[\(type(of: object)) \(selector)]", refused: error)
      }
      return
    }
    delegate.animationDidStop(self, finished: finished)
  }

  static func number(_ value: Any?) -> CGFloat? {
    switch value {
    case let value as CGFloat: value
    case let value as Double: CGFloat(value)
    case let value as Float: CGFloat(value)
    case let value as Int: CGFloat(value)
    default: nil
    }
  }
}

/// A view's layer: the shadow and corner properties the seeds set, `opacity` (the view's
/// alpha), and animations of them on the virtual clock.
@preconcurrency @MainActor
public final class CALayer: ObjCObject {
  /// The properties a ``CABasicAnimation`` can animate.
  public static let animatableKeyPaths: Set<String> = [
    "opacity", "shadowOpacity", "shadowRadius", "cornerRadius",
  ]

  /// The view the layer draws (UIKit's `layer.delegate`).
  public private(set) weak var view: UIView?
  /// The blur radius of the shadow; 3 by default.
  public var shadowRadius: CGFloat = 3
  /// The colour of the shadow; black by default.
  public var shadowColor: UIColor? = .black
  /// The opacity of the shadow, 0 (the default: no shadow) to 1.
  public var shadowOpacity: Float = 0
  /// The offset of the shadow; (0, −3) by default.
  public var shadowOffset = CGSize(width: 0, height: -3)
  /// The radius of the corners.
  public var cornerRadius: CGFloat = 0
  /// Whether sublayers are clipped to the corners (kept).
  public var masksToBounds = false

  private struct Running {
    let animation: CABasicAnimation
    let from: CGFloat
    let to: CGFloat
    let start: TimeInterval
    /// The order it was added in: of two animations of one key path, the later draws.
    let sequence: Int
    let timer: VirtualRunLoop.Timer?
    /// The clock of an animation a percent-driven transition holds (made while it started, in
    /// its container): the engine runs it, scrubs it and ends it; nil for one on the timer.
    let clock: RunningAnimation?
    /// The clock's target, held here (the engine holds targets weakly).
    let clockTarget: AnyObject?
    var ended = false
    /// Where an ended animation stays: its end, or its start when a cancelled transition ran
    /// it back.
    var endFraction: CGFloat = 1
  }

  private var running: [String: Running] = [:]
  private var unnamed = 0
  private var added = 0

  init(view: UIView?) {
    self.view = view
    super.init()
  }

  /// A layer of no view (a ``presentation()`` copy).
  public convenience init() {
    self.init(view: nil)
  }

  /// The opacity: the view's `alpha` (setting one sets the other); a ``presentation()``
  /// copy's is the opacity drawn.
  public var opacity: Float {
    get { presentedOpacity ?? Float(view?.alpha ?? 1) }
    set { view?.alpha = CGFloat(newValue) }
  }

  // MARK: Animations

  /// Adds a copy of `animation` under `key` (a running animation of that key is removed first,
  /// its delegate told it did not finish). An animation of a key path the model does not draw
  /// is refused with an issue, and so is one whose values are NaN or infinite.
  public func add(_ animation: CABasicAnimation, forKey key: String?) {
    guard let keyPath = animation.keyPath, CALayer.animatableKeyPaths.contains(keyPath) else {
      UIKitModelIssues.report(
        .unsupportedAnimation(
          layer: view.map { "\($0)" } ?? "a layer", keyPath: animation.keyPath ?? "nil"))
      return
    }
    let current = value(of: keyPath)
    let from = CABasicAnimation.number(animation.fromValue) ?? current
    let to = CABasicAnimation.number(animation.toValue) ?? current
    guard from.isFinite, to.isFinite else {
      UIKitModelIssues.report(
        .invalidGeometry(
          view: view.map { "\($0)" } ?? "a layer", value: "\(keyPath) from \(from) to \(to)"))
      return
    }
    let name =
      key
      ?? {
        unnamed += 1
        return "animation-\(unnamed)"
      }()
    removeAnimation(forKey: name)
    let copy = animation.copy()
    added += 1
    let runLoop = VirtualRunLoop.main
    // Made in a percent-driven transition's container while it starts: the transition holds it
    // and drives it with its percent, as UIKit pauses the container's layer (section 8).
    if let view, runLoop.animations.wouldCapture(view) {
      let target = LayerClock(layer: self, key: name)
      let clock = RunningAnimation(
        target: target, key: keyPath, from: .scalar(0), to: .scalar(1),
        start: runLoop.currentTime, duration: copy.effectiveDuration, curve: .linear,
        group: AnimationGroup(completion: nil), transactions: [])
      running[name] = Running(
        animation: copy, from: from, to: to, start: runLoop.currentTime, sequence: added,
        timer: nil, clock: clock, clockTarget: target)
      runLoop.animations.add(clock, scope: view)
    } else {
      let timer = runLoop.scheduledTimer(
        withTimeInterval: copy.effectiveDuration, repeats: false, modes: [.common],
        keepsRunLoopBusy: true
      ) { [weak self] _ in self?.animationEnded(name) }
      running[name] = Running(
        animation: copy, from: from, to: to, start: runLoop.currentTime, sequence: added,
        timer: timer, clock: nil, clockTarget: nil)
    }
    copy.delegate?.animationDidStart(copy)
  }

  /// The animation under `key`, if any.
  public func animation(forKey key: String) -> CABasicAnimation? { running[key]?.animation }

  /// The keys of the animations on the layer, sorted.
  public func animationKeys() -> [String]? {
    running.isEmpty ? nil : running.keys.sorted()
  }

  /// Removes the animation under `key`; its delegate is told it did not finish (if it was still
  /// running).
  public func removeAnimation(forKey key: String) {
    guard let entry = running.removeValue(forKey: key) else { return }
    entry.timer?.invalidate()
    if let clock = entry.clock { VirtualRunLoop.main.animations.interrupt(clock) }
    if !entry.ended { entry.animation.tellStopped(finished: false) }
  }

  /// Removes every animation.
  public func removeAllAnimations() {
    for key in running.keys.sorted() { removeAnimation(forKey: key) }
  }

  fileprivate func animationEnded(_ key: String, reversed: Bool = false) {
    guard var entry = running[key] else { return }
    entry.ended = true
    entry.endFraction = reversed ? 0 : 1
    if entry.animation.isRemovedOnCompletion {
      running[key] = nil
    } else {
      running[key] = entry
    }
    entry.animation.tellStopped(finished: true)
  }

  // MARK: What is drawn

  /// The layer as drawn now: a copy whose properties have the running animations' values.
  public func presentation() -> CALayer? {
    let copy = CALayer(view: nil)
    copy.shadowRadius = presentationValue(of: "shadowRadius")
    copy.shadowColor = shadowColor
    copy.shadowOpacity = Float(presentationValue(of: "shadowOpacity"))
    copy.shadowOffset = shadowOffset
    copy.cornerRadius = presentationValue(of: "cornerRadius")
    copy.masksToBounds = masksToBounds
    copy.presentedOpacity = Float(presentationValue(of: "opacity"))
    return copy
  }

  /// A presentation copy's opacity (it has no view).
  private var presentedOpacity: Float?

  /// The value of `keyPath` as drawn now: the latest running animation of it, else the layer's
  /// own.
  func presentationValue(of keyPath: String) -> CGFloat {
    animatedValue(of: keyPath) ?? value(of: keyPath)
  }

  /// The value a running animation of `keyPath` draws now, if one is running.
  func animatedValue(of keyPath: String) -> CGFloat? {
    guard !running.isEmpty else { return nil }
    let now = VirtualRunLoop.main.currentTime
    let entries = running.values.filter { $0.animation.keyPath == keyPath }
    guard let entry = entries.max(by: { $0.sequence < $1.sequence }) else { return nil }
    let fraction: CGFloat
    if entry.ended {
      fraction = entry.endFraction
    } else if let clock = entry.clock, case .scalar(let held) = clock.value(at: now) {
      fraction = held
    } else {
      fraction = CGFloat(
        min(1, max(0, (now - entry.start) / entry.animation.effectiveDuration)))
    }
    return entry.from + (entry.to - entry.from) * fraction
  }

  private func value(of keyPath: String) -> CGFloat {
    switch keyPath {
    case "opacity": CGFloat(view?.alpha ?? CGFloat(presentedOpacity ?? 1))
    case "shadowOpacity": CGFloat(shadowOpacity)
    case "shadowRadius": shadowRadius
    case "cornerRadius": cornerRadius
    default: 0
    }
  }
}

/// The selectors a layer's animation sends through the runtime.
private enum LayerSelectors {
  static let animationDidStop: Selector = "animationDidStop:finished:"
}

/// The engine's side of a layer animation a percent-driven transition holds: its end tells the
/// layer, which tells the animation's delegate.
@preconcurrency @MainActor
private final class LayerClock: AnimationTarget {
  weak var layer: CALayer?
  let key: String

  init(layer: CALayer, key: String) {
    self.layer = layer
    self.key = key
  }

  func animationEnded(_ animation: RunningAnimation) {
    layer?.animationEnded(key, reversed: animation.isReversed)
  }

  /// A layer animation changes no model value.
  func restore(_ key: String, to value: AnimatableValue) {}
}
