// UIView: the view tree, its geometry and appearance, animations, and the methods the
// navigation-bar techniques swizzle, all dispatched through the runtime's tables.
public import Foundation
public import ObjCRuntime
import ObjCRuntimeGeometry

/// A view, as UIKit's: a rectangle in its superview, with subviews, alpha, colours and a
/// transform, laid out and animated on the model's virtual clock.
///
/// The methods the seeds swizzle, override or send (`insertSubview:atIndex:`, `addSubview:`,
/// `setHidden:`, `setAlpha:`, `setBackgroundColor:`, `setTintColor:`, `layoutSubviews`...) are in
/// the runtime's method table with a Swift entry point: calling `view.insertSubview(v, at: 0)`
/// from Swift, or sending `insertSubview:atIndex:` through `objc_msgSend`, runs Swift overrides
/// first and then whatever the table holds, swizzles and hooks included
/// (`Docs/Architecture.md`, section 6).
///
/// Bad input is refused as UIKit would raise for it, with the view unchanged and a
/// ``UIKitModelIssue`` reported: a view inserted into itself or a subview of its own, an index out
/// of range, a NaN in a frame.
open class UIView: UIResponder {
  // MARK: Declarations

  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIView.self) {
      ObjCMethodDeclaration("addSubview:", Base.addSubview, swiftEntry: Entry.addSubview)
      ObjCMethodDeclaration(
        "insertSubview:atIndex:", Base.insertAt, swiftEntry: Entry.insertAt)
      ObjCMethodDeclaration(
        "insertSubview:belowSubview:", Base.insertBelow, swiftEntry: Entry.insertBelow)
      ObjCMethodDeclaration(
        "insertSubview:aboveSubview:", Base.insertAbove, swiftEntry: Entry.insertAbove)
      ObjCMethodDeclaration(
        "removeFromSuperview", Base.removeFromSuperview, swiftEntry: Entry.removeFromSuperview)
      ObjCMethodDeclaration(
        "bringSubviewToFront:", Base.bringToFront, swiftEntry: Entry.bringToFront)
      ObjCMethodDeclaration("sendSubviewToBack:", Base.sendToBack, swiftEntry: Entry.sendToBack)
      ObjCMethodDeclaration(
        "exchangeSubviewAtIndex:withSubviewAtIndex:", Base.exchange, swiftEntry: Entry.exchange)
      ObjCMethodDeclaration("setHidden:", Base.setHidden, swiftEntry: Entry.setHidden)
      ObjCMethodDeclaration("setAlpha:", Base.setAlpha, swiftEntry: Entry.setAlpha)
      ObjCMethodDeclaration(
        "setBackgroundColor:", Base.setBackgroundColor, swiftEntry: Entry.setBackgroundColor)
      ObjCMethodDeclaration("setTintColor:", Base.setTintColor, swiftEntry: Entry.setTintColor)
      ObjCMethodDeclaration("layoutSubviews", Base.layoutSubviews, swiftEntry: Entry.layoutSubviews)
      ObjCMethodDeclaration("setNeedsLayout", Base.setNeedsLayout, swiftEntry: Entry.setNeedsLayout)
      ObjCMethodDeclaration(
        "layoutIfNeeded", Base.layoutIfNeeded, swiftEntry: Entry.layoutIfNeeded)
    }
  }

  /// The view an IMP's `self` is (IMPs of UIView's table are only installed on views).
  @inline(__always)
  fileprivate static func view(_ me: id) -> UIView {
    me.receiver(as: UIView.self)
  }

  /// The view an object argument is, or nil.
  @inline(__always)
  fileprivate static func optionalView(_ object: id?) -> UIView? {
    object.map { $0.takeUnretainedObject() } as? UIView
  }

  // MARK: State

  /// Autoresizing, as UIKit's `UIView.AutoresizingMask`.
  public struct AutoresizingMask: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt
    /// A mask from its bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The left margin follows the superview's width.
    public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
    /// The width follows the superview's width.
    public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
    /// The right margin follows the superview's width.
    public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
    /// The top margin follows the superview's height.
    public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
    /// The height follows the superview's height.
    public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    /// The bottom margin follows the superview's height.
    public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
  }

  // The model values and running animations. The model is confined to one thread at a time
  // (`VirtualRunLoop`), and every access to these is a plain read or write that never spans a
  // call: Swift's dynamic exclusivity checks (about 200 instructions for each write of a class's
  // stored property) could find nothing, and are switched off for them.
  @exclusivity(unchecked) private var modelFrame: CGRect
  @exclusivity(unchecked) private var modelTransform = CGAffineTransform.identity
  @exclusivity(unchecked) private var modelAlpha: CGFloat = 1
  @exclusivity(unchecked) private var modelBackgroundColor: UIColor?
  private var ownTintColor: UIColor?
  @exclusivity(unchecked) private var animations: [String: RunningAnimation] = [:]
  private var needsLayout = true

  /// The superview, if the view is in a tree.
  public private(set) weak var superview: UIView?
  /// The controller whose root view this is: the view's next responder, as in UIKit.
  internal weak var owningController: UIViewController?

  /// A view's next responder: its view controller for a controller's root view, else its
  /// superview.
  internal override var defaultNextResponder: UIResponder? { owningController ?? superview }
  /// The subviews, back to front.
  public private(set) var subviews: [UIView] = []
  @exclusivity(unchecked) private var hiddenFlag = false
  /// Whether the view takes touches (kept; the model has no touches).
  public var isUserInteractionEnabled = true
  /// Whether subviews are clipped to the bounds (kept; used by what-the-user-sees queries).
  public var clipsToBounds = false
  /// A number to find the view by.
  public var tag = 0
  /// How the view resizes when its superview's bounds change.
  public var autoresizingMask: AutoresizingMask = []

  /// A view with `frame`.
  public init(frame: CGRect) {
    modelFrame = UIView.isFinite(frame) ? frame : .zero
    super.init()
  }

  /// A view with a zero frame.
  public convenience override init() {
    self.init(frame: .zero)
  }

  // MARK: Geometry

  /// The view's rectangle in its superview's coordinates. Setting it moves and resizes the view
  /// (animated inside `UIView.animate`); a NaN or infinite value is refused.
  open var frame: CGRect {
    get { modelFrame }
    set {
      guard UIView.isFinite(newValue) else {
        UIKitModelIssues.report(.invalidGeometry(view: description, value: "frame \(newValue)"))
        return
      }
      let old = modelFrame
      animate("frame", from: { .rect($0.presentationFrame) }, to: .rect(newValue))
      modelFrame = newValue
      if old.size != newValue.size { boundsSizeChanged(from: old.size) }
    }
  }

  /// The view's rectangle in its own coordinates: its origin is zero, its size the frame's.
  open var bounds: CGRect {
    get { CGRect(origin: .zero, size: modelFrame.size) }
    set {
      guard UIView.isFinite(newValue) else {
        UIKitModelIssues.report(.invalidGeometry(view: description, value: "bounds \(newValue)"))
        return
      }
      let center = self.center
      frame = CGRect(
        x: center.x - newValue.width / 2, y: center.y - newValue.height / 2,
        width: newValue.width, height: newValue.height)
    }
  }

  /// The centre of the frame, in the superview's coordinates.
  open var center: CGPoint {
    get { CGPoint(x: modelFrame.midX, y: modelFrame.midY) }
    set {
      guard newValue.x.isFinite, newValue.y.isFinite else {
        UIKitModelIssues.report(.invalidGeometry(view: description, value: "center \(newValue)"))
        return
      }
      frame = CGRect(
        x: newValue.x - modelFrame.width / 2, y: newValue.y - modelFrame.height / 2,
        width: modelFrame.width, height: modelFrame.height)
    }
  }

  /// The view's transform, applied about its centre when it is drawn (animated inside
  /// `UIView.animate`). The frame does not change with it in the model.
  open var transform: CGAffineTransform {
    get { modelTransform }
    set {
      animate(
        "transform", from: { .transform($0.presentationTransform) }, to: .transform(newValue))
      modelTransform = newValue
    }
  }

  private static func isFinite(_ rect: CGRect) -> Bool {
    rect.origin.x.isFinite && rect.origin.y.isFinite && rect.width.isFinite
      && rect.height.isFinite
  }

  /// Converts `rect` from this view's coordinates to `view`'s (the window's when nil), through
  /// the common ancestor; transforms are not applied.
  public func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
    let mine = originInRoot
    let theirs = view?.originInRoot ?? .zero
    return rect.offsetBy(dx: mine.x - theirs.x, dy: mine.y - theirs.y)
  }

  /// Converts `rect` from `view`'s coordinates to this view's.
  public func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
    (view ?? rootView).convert(rect, to: self)
  }

  private var originInRoot: CGPoint {
    var point = CGPoint.zero
    var current: UIView? = self
    while let view = current, let parent = view.superview {
      point.x += view.modelFrame.origin.x
      point.y += view.modelFrame.origin.y
      current = parent
    }
    return point
  }

  private var rootView: UIView {
    var view = self
    while let parent = view.superview { view = parent }
    return view
  }

  // MARK: Appearance

  /// The opacity, from 0 to 1 (a value outside is clamped, as UIKit does), animated inside
  /// `UIView.animate`. Sent through the table: `setAlpha:` can be swizzled.
  open var alpha: CGFloat {
    get { modelAlpha }
    set { sendToTableReportingFailure(ViewSelectors.setAlpha, newValue) }
  }

  /// Whether the view is hidden. Sent through the table: `setHidden:` can be swizzled (the
  /// seeds hook it on `_UIBarBackground`).
  open var isHidden: Bool {
    get { hiddenFlag }
    set { sendToTableReportingFailure(ViewSelectors.setHidden, newValue) }
  }

  /// The background colour; nil is transparent. Animated inside `UIView.animate`.
  open var backgroundColor: UIColor? {
    get { modelBackgroundColor }
    set { sendToTableReportingFailure(ViewSelectors.setBackgroundColor, newValue) }
  }

  /// The tint colour: the view's own, or else its superview's, or else the default blue
  /// (UIKit's inheritance down the tree). Setting nil goes back to inheriting.
  open var tintColor: UIColor! {
    get { ownTintColor ?? superview?.tintColor ?? .systemBlue }
    set { sendToTableReportingFailure(ViewSelectors.setTintColor, newValue as UIColor?) }
  }

  /// The tint colour set on this view itself, if any.
  public var explicitTintColor: UIColor? { ownTintColor }

  // MARK: The tree

  /// Adds `view` on top of the subviews, taking it from its old superview.
  open func addSubview(_ view: UIView) {
    sendToTableReportingFailure(ViewSelectors.addSubview, view)
  }

  /// Inserts `view` at `index` of the subviews (0 is the back). An index past the end is
  /// refused, as UIKit raises for it.
  open func insertSubview(_ view: UIView, at index: Int) {
    sendToTableReportingFailure(ViewSelectors.insertSubviewAtIndex, view, index)
  }

  /// Inserts `view` just below `sibling`.
  open func insertSubview(_ view: UIView, belowSubview sibling: UIView) {
    sendToTableReportingFailure(ViewSelectors.insertSubviewBelowSubview, view, sibling)
  }

  /// Inserts `view` just above `sibling`.
  open func insertSubview(_ view: UIView, aboveSubview sibling: UIView) {
    sendToTableReportingFailure(ViewSelectors.insertSubviewAboveSubview, view, sibling)
  }

  /// Takes the view out of its superview.
  open func removeFromSuperview() {
    sendToTableReportingFailure(ViewSelectors.removeFromSuperview)
  }

  /// Moves `view`, a subview, to the front.
  open func bringSubviewToFront(_ view: UIView) {
    sendToTableReportingFailure(ViewSelectors.bringSubviewToFront, view)
  }

  /// Moves `view`, a subview, to the back.
  open func sendSubviewToBack(_ view: UIView) {
    sendToTableReportingFailure(ViewSelectors.sendSubviewToBack, view)
  }

  /// Swaps the subviews at two indexes.
  open func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
    sendToTableReportingFailure(
      ViewSelectors.exchangeSubviewAtIndexWithSubviewAtIndex, index1, index2)
  }

  /// Whether `view` is this view or one of its descendants.
  public func isDescendant(of view: UIView) -> Bool {
    var current: UIView? = self
    while let candidate = current {
      if candidate === view { return true }
      current = candidate.superview
    }
    return false
  }

  /// The first view with `tag` in this view's subtree (this view included), depth first.
  public func viewWithTag(_ tag: Int) -> UIView? {
    if self.tag == tag { return self }
    for subview in subviews {
      if let found = subview.viewWithTag(tag) { return found }
    }
    return nil
  }

  /// Called when the view moved to a new superview (nil when removed).
  open func didMoveToSuperview() {}

  /// Called after a subview was added.
  open func didAddSubview(_ subview: UIView) {}

  /// Called before a subview is removed.
  open func willRemoveSubview(_ subview: UIView) {}

  // MARK: Layout

  /// Lays out the subviews; the base does nothing (autoresizing happens when the bounds
  /// change). Subclasses override it, calling super. Sent through the table.
  open func layoutSubviews() {
    sendToTableReportingFailure(ViewSelectors.layoutSubviews)
  }

  /// Marks the view as needing layout at the next `layoutIfNeeded` or frame.
  open func setNeedsLayout() {
    sendToTableReportingFailure(ViewSelectors.setNeedsLayout)
  }

  /// Lays out the view now if it needs it, then its subviews.
  open func layoutIfNeeded() {
    sendToTableReportingFailure(ViewSelectors.layoutIfNeeded)
  }

  private func boundsSizeChanged(from old: CGSize) {
    needsLayout = true
    let new = modelFrame.size
    for subview in subviews where !subview.autoresizingMask.isEmpty {
      subview.frame = UIView.autoresized(
        subview.modelFrame, mask: subview.autoresizingMask, from: old, to: new)
    }
  }

  /// `frame` resized by UIKit's autoresizing rules, when the superview goes from `old` to `new`.
  static func autoresized(
    _ frame: CGRect, mask: AutoresizingMask, from old: CGSize, to new: CGSize
  ) -> CGRect {
    func axis(
      _ origin: CGFloat, _ size: CGFloat, _ oldTotal: CGFloat, _ newTotal: CGFloat,
      flexibleStart: Bool, flexibleSize: Bool, flexibleEnd: Bool
    ) -> (CGFloat, CGFloat) {
      let delta = newTotal - oldTotal
      let end = oldTotal - origin - size
      var parts: [(CGFloat, Bool)] = [
        (origin, flexibleStart), (size, flexibleSize), (end, flexibleEnd),
      ]
      let flexibleTotal = parts.filter(\.1).reduce(0) { $0 + $1.0 }
      let flexibleCount = CGFloat(parts.filter(\.1).count)
      guard flexibleCount > 0 else { return (origin, size) }
      for index in parts.indices where parts[index].1 {
        let share =
          flexibleTotal > 0 ? parts[index].0 / flexibleTotal * delta : delta / flexibleCount
        parts[index].0 += share
      }
      return (parts[0].0, parts[1].0)
    }
    let (x, width) = axis(
      frame.origin.x, frame.width, old.width, new.width,
      flexibleStart: mask.contains(.flexibleLeftMargin),
      flexibleSize: mask.contains(.flexibleWidth),
      flexibleEnd: mask.contains(.flexibleRightMargin))
    let (y, height) = axis(
      frame.origin.y, frame.height, old.height, new.height,
      flexibleStart: mask.contains(.flexibleTopMargin),
      flexibleSize: mask.contains(.flexibleHeight),
      flexibleEnd: mask.contains(.flexibleBottomMargin))
    return CGRect(x: x, y: y, width: width, height: height)
  }

  // MARK: What is drawn

  /// The frame as drawn now (mid-animation, the interpolated value).
  public var presentationFrame: CGRect {
    if case .rect(let rect)? = presentationValue("frame") { return rect }
    return modelFrame
  }

  /// The alpha as drawn now.
  public var presentationAlpha: CGFloat {
    if case .scalar(let value)? = presentationValue("alpha") { return value }
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

  private func presentationValue(_ key: String) -> AnimatableValue? {
    // Most views animate nothing: no key is hashed for them.
    guard !animations.isEmpty else { return nil }
    return animations[key]?.value(at: VirtualRunLoop.main.currentTime)
  }

  /// The properties animating now, by name (`alpha`, `frame`, `backgroundColor`...).
  public var animatingProperties: [String] { animations.keys.sorted() }
}

// MARK: - The base IMPs and Swift entry points

extension UIView {
  /// The base behaviour of each runtime method, as the table holds it.
  fileprivate enum Base {
    static let addSubview: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      guard let child = UIView.optionalView(view) else { return }
      UIView.view(me).place(child) { others in others.count }
    }
    static let insertAt: @convention(c) (id, SEL, id?, Int) -> Void = { me, _, view, index in
      guard let child = UIView.optionalView(view) else { return }
      UIView.view(me).place(child) { _ in index }
    }
    static let insertBelow: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, view, sibling in
      guard let child = UIView.optionalView(view), let sibling = UIView.optionalView(sibling),
        sibling !== child
      else { return }
      UIView.view(me).place(child) { others in others.firstIndex { $0 === sibling } }
    }
    static let insertAbove: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, view, sibling in
      guard let child = UIView.optionalView(view), let sibling = UIView.optionalView(sibling),
        sibling !== child
      else { return }
      UIView.view(me).place(child) { others in others.firstIndex { $0 === sibling }.map { $0 + 1 } }
    }
    static let removeFromSuperview: @convention(c) (id, SEL) -> Void = { me, _ in
      UIView.view(me).detachFromSuperview()
    }
    static let bringToFront: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      let parent = UIView.view(me)
      guard let child = UIView.optionalView(view),
        let index = parent.subviews.firstIndex(where: { $0 === child })
      else { return }
      parent.subviews.append(parent.subviews.remove(at: index))
    }
    static let sendToBack: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      let parent = UIView.view(me)
      guard let child = UIView.optionalView(view),
        let index = parent.subviews.firstIndex(where: { $0 === child })
      else { return }
      parent.subviews.insert(parent.subviews.remove(at: index), at: 0)
    }
    static let exchange: @convention(c) (id, SEL, Int, Int) -> Void = { me, _, first, second in
      let parent = UIView.view(me)
      let count = parent.subviews.count
      for index in [first, second] where !(0..<count).contains(index) {
        UIKitModelIssues.report(
          .indexOutOfRange(view: parent.description, index: index, count: count))
        return
      }
      parent.subviews.swapAt(first, second)
    }
    static let setHidden: @convention(c) (id, SEL, Bool) -> Void = { me, _, hidden in
      UIView.view(me).hiddenFlag = hidden
    }
    // CGFloat is a Swift struct, which C cannot pass: IMPs take the Double it wraps.
    static let setAlpha: @convention(c) (id, SEL, Double) -> Void = { me, _, value in
      me.withReceiver(as: UIView.self) { view in
        let alpha = CGFloat(value)
        if alpha.isNaN {
          UIKitModelIssues.report(.invalidGeometry(view: view.description, value: "alpha nan"))
        }
        let clamped = alpha.isNaN ? view.modelAlpha : max(0, min(1, alpha))
        view.animate("alpha", from: { .scalar($0.presentationAlpha) }, to: .scalar(clamped))
        view.modelAlpha = clamped
      }
    }
    static let setBackgroundColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      let view = UIView.view(me)
      let newColor = color.map { $0.takeUnretainedObject() } as? UIColor
      view.animate(
        "backgroundColor", from: { .color(UIColorComponents($0.presentationBackgroundColor)) },
        to: .color(UIColorComponents(newColor)))
      view.modelBackgroundColor = newColor
    }
    static let setTintColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      let view = UIView.view(me)
      let newColor = color.map { $0.takeUnretainedObject() } as? UIColor
      view.animate(
        "tintColor", from: { .color(UIColorComponents($0.presentationTintColor)) },
        to: .color(UIColorComponents(newColor ?? view.superview?.tintColor ?? .systemBlue)))
      view.ownTintColor = newColor
    }
    static let layoutSubviews: @convention(c) (id, SEL) -> Void = { _, _ in }
    static let setNeedsLayout: @convention(c) (id, SEL) -> Void = { me, _ in
      UIView.view(me).needsLayout = true
    }
    static let layoutIfNeeded: @convention(c) (id, SEL) -> Void = { me, _ in
      let view = UIView.view(me)
      if view.needsLayout {
        view.needsLayout = false
        view.layoutSubviews()
      }
      for subview in view.subviews { subview.layoutIfNeeded() }
    }
  }

  /// The Swift entry points: a send of the selector calls the Swift method, virtually.
  fileprivate enum Entry {
    static let addSubview: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      if let child = UIView.optionalView(view) { UIView.view(me).addSubview(child) }
    }
    static let insertAt: @convention(c) (id, SEL, id?, Int) -> Void = { me, _, view, index in
      if let child = UIView.optionalView(view) { UIView.view(me).insertSubview(child, at: index) }
    }
    static let insertBelow: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, view, sibling in
      if let child = UIView.optionalView(view), let sibling = UIView.optionalView(sibling) {
        UIView.view(me).insertSubview(child, belowSubview: sibling)
      }
    }
    static let insertAbove: @convention(c) (id, SEL, id?, id?) -> Void = { me, _, view, sibling in
      if let child = UIView.optionalView(view), let sibling = UIView.optionalView(sibling) {
        UIView.view(me).insertSubview(child, aboveSubview: sibling)
      }
    }
    static let removeFromSuperview: @convention(c) (id, SEL) -> Void = { me, _ in
      UIView.view(me).removeFromSuperview()
    }
    static let bringToFront: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      if let child = UIView.optionalView(view) { UIView.view(me).bringSubviewToFront(child) }
    }
    static let sendToBack: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
      if let child = UIView.optionalView(view) { UIView.view(me).sendSubviewToBack(child) }
    }
    static let exchange: @convention(c) (id, SEL, Int, Int) -> Void = { me, _, first, second in
      UIView.view(me).exchangeSubview(at: first, withSubviewAt: second)
    }
    static let setHidden: @convention(c) (id, SEL, Bool) -> Void = { me, _, hidden in
      UIView.view(me).isHidden = hidden
    }
    static let setAlpha: @convention(c) (id, SEL, Double) -> Void = { me, _, alpha in
      UIView.view(me).alpha = CGFloat(alpha)
    }
    static let setBackgroundColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      UIView.view(me).backgroundColor = color.map { $0.takeUnretainedObject() } as? UIColor
    }
    static let setTintColor: @convention(c) (id, SEL, id?) -> Void = { me, _, color in
      UIView.view(me).tintColor = color.map { $0.takeUnretainedObject() } as? UIColor
    }
    static let layoutSubviews: @convention(c) (id, SEL) -> Void = { me, _ in
      UIView.view(me).layoutSubviews()
    }
    static let setNeedsLayout: @convention(c) (id, SEL) -> Void = { me, _ in
      UIView.view(me).setNeedsLayout()
    }
    static let layoutIfNeeded: @convention(c) (id, SEL) -> Void = { me, _ in
      UIView.view(me).layoutIfNeeded()
    }
  }
}

// MARK: - Tree edits

extension UIView {
  /// Puts `child` among the subviews at the index `position` gives for the subviews without
  /// `child` (nil: a sibling that is not a subview, and nothing happens), refusing cycles and
  /// bad indexes.
  fileprivate func place(_ child: UIView, at position: ([UIView]) -> Int?) {
    guard !isDescendant(of: child) else {
      UIKitModelIssues.report(.viewCycle(view: child.description, into: description))
      return
    }
    // The index counts the subviews as they are once the child left its current place, as in
    // UIKit, which takes the view out first (even from this view).
    let others = subviews.filter { $0 !== child }
    guard let index = position(others) else { return }
    guard (0...others.count).contains(index) else {
      UIKitModelIssues.report(
        .indexOutOfRange(view: description, index: index, count: others.count))
      return
    }
    let moved = child.superview !== self
    child.detachFromSuperview(notify: moved)
    subviews.insert(child, at: index)
    child.superview = self
    if moved {
      didAddSubview(child)
      child.didMoveToSuperview()
    }
    setNeedsLayout()
  }

  fileprivate func detachFromSuperview(notify: Bool = true) {
    guard let parent = superview else { return }
    if notify { parent.willRemoveSubview(self) }
    parent.subviews.removeAll { $0 === self }
    superview = nil
    if notify { didMoveToSuperview() }
  }
}

// MARK: - Animation

extension UIView: AnimationTarget {
  /// Starts an animation of `key` if a `UIView.animate` block is running and the value changes;
  /// a running animation of the same property is replaced, the new one starting from the
  /// current presentation value.
  ///
  /// `from` reads the presentation value from the view it is given only when an animation
  /// starts: a closure that captures nothing, so a set outside an animation costs no retain.
  fileprivate func animate(
    _ key: String, from: (UIView) -> AnimatableValue, to: AnimatableValue
  ) {
    guard let context = AnimationContext.current, context.duration > 0 || context.delay > 0 else {
      // Outside an animation block (or in one of no time) the change is immediate, and ends any
      // running animation.
      if !animations.isEmpty, let running = animations.removeValue(forKey: key) {
        VirtualRunLoop.main.animations.interrupt(running)
      }
      return
    }
    let runLoop = VirtualRunLoop.main
    // The presentation value before the running animation of the key (if any) is replaced.
    let from = from(self)
    if !animations.isEmpty, let running = animations.removeValue(forKey: key) {
      runLoop.animations.interrupt(running)
    }
    let animation = RunningAnimation(
      target: self, key: key, from: from, to: to, start: runLoop.currentTime + context.delay,
      duration: context.duration, curve: context.curve, group: context.group,
      transactions: runLoop.transactions.open)
    animations[key] = animation
    runLoop.animations.add(animation)
  }

  func animationEnded(_ animation: RunningAnimation) {
    if animations[animation.key] === animation { animations[animation.key] = nil }
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
    if group.remaining == 0, let completion {
      // Nothing animated: UIKit still calls the completion, on the next turn.
      VirtualRunLoop.main.atEndOfTurn { completion(true) }
    }
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

/// The selectors of UIView's table methods, registered once and kept in static storage: a literal
/// is looked up on every use, and a `static let` of type `Selector` costs a `swift_once` per read.
private enum ViewSelectors {
  static let addSubview = SelectorReference("addSubview:")
  static let bringSubviewToFront = SelectorReference("bringSubviewToFront:")
  static let exchangeSubviewAtIndexWithSubviewAtIndex = SelectorReference(
    "exchangeSubviewAtIndex:withSubviewAtIndex:")
  static let insertSubviewAboveSubview = SelectorReference("insertSubview:aboveSubview:")
  static let insertSubviewAtIndex = SelectorReference("insertSubview:atIndex:")
  static let insertSubviewBelowSubview = SelectorReference("insertSubview:belowSubview:")
  static let layoutIfNeeded = SelectorReference("layoutIfNeeded")
  static let layoutSubviews = SelectorReference("layoutSubviews")
  static let removeFromSuperview = SelectorReference("removeFromSuperview")
  static let sendSubviewToBack = SelectorReference("sendSubviewToBack:")
  static let setAlpha = SelectorReference("setAlpha:")
  static let setBackgroundColor = SelectorReference("setBackgroundColor:")
  static let setHidden = SelectorReference("setHidden:")
  static let setNeedsLayout = SelectorReference("setNeedsLayout")
  static let setTintColor = SelectorReference("setTintColor:")
}
