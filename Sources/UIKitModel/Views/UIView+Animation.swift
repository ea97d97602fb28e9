// UIView's animations on the virtual clock, and the presentation values drawn mid-animation.
public import Foundation
import ObjCRuntime

extension UIView {
  // MARK: What is drawn

  /// The frame as drawn now (mid-animation, the interpolated value), before the transform: the
  /// rectangle of the centre and bounds, which `presentationTransform` moves when drawn.
  public var presentationFrame: CGRect {
    if case .rect(let rect)? = presentationValue("frame") { return rect }
    return modelFrame
  }

  /// The alpha as drawn now: a running `UIView` animation's, else a running `opacity`
  /// animation of the layer's, else the model value.
  public var presentationAlpha: CGFloat {
    if case .scalar(let value)? = presentationValue("alpha") { return value }
    if let layerStorage, let value = layerStorage.animatedValue(of: "opacity") { return value }
    return modelAlpha
  }

  /// The background colour as drawn now.
  public var presentationBackgroundColor: UIColor? {
    if case .color(let components)? = presentationValue("backgroundColor") {
      return components.color
    }
    return modelBackgroundColor
  }

  /// The transform as drawn now.
  public var presentationTransform: CGAffineTransform {
    if case .transform(let value)? = presentationValue("transform") { return value }
    return modelTransform
  }

  /// The tint colour as drawn now.
  public var presentationTintColor: UIColor {
    if case .color(let components)? = presentationValue("tintColor") { return components.color }
    return ownTintColor ?? superview?.presentationTintColor ?? .systemBlue
  }

  /// The opacity the view is drawn with: the product of its and its ancestors' presentation
  /// alphas, 0 if it or an ancestor is hidden.
  public var effectiveAlpha: CGFloat {
    var product: CGFloat = 1
    var current: UIView? = self
    while let view = current {
      if view.hiddenFlag { return 0 }
      product *= view.presentationAlpha
      current = view.superview
    }
    return product
  }

  func presentationValue(_ key: String) -> AnimatableValue? {
    // Most views animate nothing: no key is hashed for them.
    guard !animations.isEmpty else { return nil }
    return animations.first { $0.key == key }?.value(at: VirtualRunLoop.main.currentTime)
  }

  /// The properties animating now, by name (`alpha`, `frame`, `backgroundColor`...).
  public var animatingProperties: [String] { animations.map(\.key).sorted() }
}

// MARK: - Animation

extension UIView: AnimationTarget {
  /// Starts an animation of `key` if a `UIView.animate` block is running and the value changes;
  /// a running animation of the same property is replaced, the new one starting from the
  /// current presentation value.
  ///
  /// `from` reads the presentation value from the view it is given only when an animation
  /// starts: a closure that captures nothing, so a set outside an animation costs no retain.
  func animate(
    _ key: String, from: (UIView) -> AnimatableValue, to: AnimatableValue
  ) {
    guard let context = AnimationContext.current, context.duration > 0 || context.delay > 0 else {
      // Outside an animation block (or in one of no time) the change is immediate, and ends any
      // running animation, unless it sets the value that animation is heading to (a layout
      // that runs again after an animated one, as Core Animation leaves an animation running
      // when the model value is set again).
      guard !animations.isEmpty, animations.first(where: { $0.key == key })?.to != to else {
        return
      }
      if let running = removeAnimation(of: key) {
        VirtualRunLoop.main.animations.interrupt(running)
      }
      return
    }
    let runLoop = VirtualRunLoop.main
    // The presentation value before the running animation of the key (if any) is replaced.
    let from = from(self)
    let running = removeAnimation(of: key)
    // A value set again to what it is, with nothing in flight, changes nothing on screen: no
    // animation (a layout inside the block sets every subview's frame, most of them unchanged).
    // The block's completion and its transactions' still wait for the time it would have taken.
    if running == nil, from.isIdentical(to: to) {
      let end = runLoop.currentTime + context.delay + context.duration
      let group = context.group
      let innermost = ObjectIdentifier(runLoop.transactions.current)
      // A layout skips many sets in one block: the transactions are held once for them.
      guard end > group.heldUntil || group.heldTransactions != innermost else { return }
      group.heldUntil = max(group.heldUntil, end)
      group.heldTransactions = innermost
      runLoop.transactions.hold(until: end)
      return
    }
    if let running { runLoop.animations.interrupt(running) }
    let animation = RunningAnimation(
      target: self, key: key, from: from, to: to, start: runLoop.currentTime + context.delay,
      duration: context.duration, curve: context.curve, group: context.group,
      transactions: runLoop.transactions.open)
    animations.append(animation)
    runLoop.animations.add(animation)
  }

  /// Takes the running animation of `key` out of the view's list and returns it; nil if none.
  private func removeAnimation(of key: String) -> RunningAnimation? {
    // A loop, not `firstIndex(where:)` (see `animationEnded(_:)`).
    for index in animations.indices where animations[index].key == key {
      return animations.remove(at: index)
    }
    return nil
  }

  func animationEnded(_ animation: RunningAnimation) {
    // A loop, not `firstIndex(where:)`: the closure would check its executor on each call
    // (`AnimationEngine.advance(to:)` says why).
    for index in animations.indices where animations[index] === animation {
      animations.remove(at: index)
      return
    }
  }

  func restore(_ key: String, to value: AnimatableValue) {
    switch (key, value) {
    case ("alpha", .scalar(let alpha)): modelAlpha = alpha
    case ("frame", .rect(let frame)): modelFrame = frame
    case ("transform", .transform(let transform)): modelTransform = transform
    case ("backgroundColor", .color(let components)):
      modelBackgroundColor = components.alpha == 0 ? nil : components.color
    case ("tintColor", .color(let components)): ownTintColor = components.color
    default: break
    }
  }

  /// Options of `UIView.animate`, as UIKit's `UIView.AnimationOptions` (the curves and
  /// `beginFromCurrentState`; the model always begins from the current presentation value).
  public struct AnimationOptions: OptionSet, Sendable, Hashable {
    /// The bits, as UIKit numbers them.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Start from the current presentation value (what the model always does).
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
    /// Ease in and out, the default.
    public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
    /// Ease in.
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
    /// Ease out.
    public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
    /// Linear.
    public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

    var curve: AnimationCurve {
      switch (rawValue >> 16) & 3 {
      case 1: .easeIn
      case 2: .easeOut
      case 3: .linear
      default: .easeInOut
      }
    }
  }

  /// Runs `animations`, animating the property changes made inside over `duration` seconds of
  /// virtual time after `delay`, with the options' curve; then calls `completion` with true, or
  /// false if an animation was replaced by a later one before it ended.
  public static func animate(
    withDuration duration: TimeInterval, delay: TimeInterval = 0, options: AnimationOptions = [],
    animations: () -> Void, completion: ((Bool) -> Void)? = nil
  ) {
    let group = AnimationGroup(completion: completion)
    AnimationContext.stack.append(
      AnimationContext(
        duration: max(0, duration), delay: max(0, delay), curve: options.curve, group: group,
        beginFromCurrentState: options.contains(.beginFromCurrentState)))
    animations()
    AnimationContext.stack.removeLast()
    // Nothing animated: UIKit still calls the completion, on the next turn (or once the time
    // of a value set to what it was has passed, as if it had animated).
    if group.remaining == 0 { group.complete(finished: true) }
  }

  /// `animate(withDuration:animations:)` with a completion.
  public static func animate(
    withDuration duration: TimeInterval, animations: () -> Void,
    completion: ((Bool) -> Void)? = nil
  ) {
    animate(
      withDuration: duration, delay: 0, options: [], animations: animations,
      completion: completion)
  }

  /// Runs `actions` with animations off, even inside an animation block.
  public static func performWithoutAnimation(_ actions: () -> Void) {
    AnimationContext.stack.append(nil)
    actions()
    AnimationContext.stack.removeLast()
  }
}
