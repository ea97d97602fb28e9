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
      // The properties as UIKit declares them (class_copyPropertyList lists them).
      ObjCPropertyDeclaration("alpha", attributes: "Td,N")
      ObjCPropertyDeclaration("hidden", attributes: "TB,N,GisHidden")
      ObjCPropertyDeclaration("backgroundColor", attributes: #"T@"UIColor",C,N"#)
      ObjCPropertyDeclaration("tintColor", attributes: #"T@"UIColor",&,N"#)
    }
  }

  /// The view an IMP's `self` is (IMPs of UIView's table are only installed on views).
  @inline(__always)
  static func view(_ me: id) -> UIView {
    me.receiver(as: UIView.self)
  }

  /// The view an object argument is, or nil.
  @inline(__always)
  static func optionalView(_ object: id?) -> UIView? {
    object.unretainedObject as? UIView
  }

  // MARK: State

  // The model values and running animations. The model is confined to one thread at a time
  // (`VirtualRunLoop`), and every access to these is a plain read or write that never spans a
  // call: Swift's dynamic exclusivity checks (about 200 instructions for each write of a class's
  // stored property) could find nothing, and are switched off for them.
  @exclusivity(unchecked) var modelFrame: CGRect
  @exclusivity(unchecked) var modelTransform = CGAffineTransform.identity
  @exclusivity(unchecked) var modelAlpha: CGFloat = 1
  @exclusivity(unchecked) var modelBackgroundColor: UIColor?
  var ownTintColor: UIColor?
  /// The running animations, one per property at most: a short list searched by key (a view
  /// animates a handful of properties at once; comparing short keys is cheaper than hashing
  /// them, which a dictionary did at every set, about 7,000 instructions of a push and pop).
  @exclusivity(unchecked) var animations: [RunningAnimation] = []
  var needsLayout = true
  /// Whether the view waits for the frame's layout pass (``VirtualRunLoop``).
  var layoutScheduled = false

  // The tree, read on every walk of it (hit tests, compositing, effective alpha): unchecked for
  // the same reason as the model values above (no access spans a call that could reach it).
  /// The superview, if the view is in a tree.
  @exclusivity(unchecked) public internal(set) weak var superview: UIView?
  /// The controller whose root view this is: the view's next responder, as in UIKit.
  internal weak var owningController: UIViewController?

  /// A view's next responder: its view controller for a controller's root view, else its
  /// superview.
  internal override var defaultNextResponder: UIResponder? { owningController ?? superview }
  /// The subviews, back to front.
  @exclusivity(unchecked) public internal(set) var subviews: [UIView] = []
  @exclusivity(unchecked) var hiddenFlag = false
  /// Whether the view takes touches: when false, ``hitTest(_:with:)`` passes over the view and
  /// its subviews. True by default; image views and labels say false, as UIKit's do.
  public var isUserInteractionEnabled = true
  /// Whether subviews are clipped to the bounds (kept; the model neither clips nor reads it).
  public var clipsToBounds = false
  /// A number to find the view by.
  public var tag = 0
  /// The gesture recognizers attached to the view (`UIView+Gestures.swift`).
  var recognizers: [UIGestureRecognizer] = []
  /// Makes the recognizers a view of this class has from its creation in UIKit (a scroll
  /// view's pan), which the model makes when first needed: before ``recognizers`` is read or
  /// changed. None for a plain view.
  func prepareBuiltInRecognizers() {}
  /// The layer, made on first use: most views never need one.
  var layerStorage: CALayer?

  /// The view's layer: its shadow, corner radius and opacity, and their animations.
  public var layer: CALayer {
    if let layerStorage { return layerStorage }
    let layer = CALayer(view: self)
    layerStorage = layer
    return layer
  }
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

  /// What Objective-C's `+alloc` makes (the GNUObjC module): a view with a zero frame, for this class itself;
  /// a subclass Objective-C should allocate overrides it too.
  open override class func makeInstance() -> ObjCObject? {
    self == UIView.self ? MainThread.assumeIsolated { UIView() } : nil
  }

  // MARK: Geometry

  /// The view's rectangle in its superview's coordinates. Setting it moves and resizes the view
  /// (animated inside `UIView.animate`); a NaN or infinite value is refused.
  ///
  /// Under a transform it is what UIKit returns (its documentation calls the value undefined;
  /// what it answers is the layer's frame): the bounding box of the bounds transformed about the
  /// centre, so a bar translated by −22 reports a frame 22 points higher, and a view scaled by 2
  /// one twice as large around the same centre. Setting it under a transform moves the centre to
  /// the new rectangle's (less the translation) and, for a scale without rotation, sizes the
  /// bounds so that the scaled view fills it; under a rotation only the centre moves.
  open var frame: CGRect {
    get {
      modelTransform.isIdentity ? modelFrame : UIView.boundingBox(modelFrame, modelTransform)
    }
    set {
      guard UIView.isFinite(newValue) else {
        UIKitModelIssues.report(.invalidGeometry(view: description, value: "frame \(newValue)"))
        return
      }
      setUntransformedFrame(UIView.untransformedFrame(newValue, under: modelTransform, modelFrame))
    }
  }

  /// Moves and resizes the view to `rect`, the rectangle of its centre and bounds (animated
  /// inside `UIView.animate`); what the frame, bounds and centre setters share.
  private func setUntransformedFrame(_ rect: CGRect) {
    let old = modelFrame
    animate("frame", from: { .rect($0.presentationFrame) }, to: .rect(rect))
    modelFrame = rect
    if old.size != rect.size { boundsSizeChanged(from: old.size) }
  }

  /// The bounding box of `rect` transformed by `transform` about its centre (Core Animation's
  /// frame, with the anchor point in the middle).
  static func boundingBox(_ rect: CGRect, _ transform: CGAffineTransform) -> CGRect {
    let halfWidth = rect.width / 2
    let halfHeight = rect.height / 2
    let extentX = abs(transform.a * halfWidth) + abs(transform.c * halfHeight)
    let extentY = abs(transform.b * halfWidth) + abs(transform.d * halfHeight)
    let centerX = rect.midX + transform.tx
    let centerY = rect.midY + transform.ty
    return CGRect(
      x: centerX - extentX, y: centerY - extentY, width: extentX * 2, height: extentY * 2)
  }

  /// The untransformed rectangle whose transformed bounding box is `frame`, as far as one exists:
  /// the centre always, the size for a scale without rotation (a zero scale keeps the size).
  static func untransformedFrame(
    _ frame: CGRect, under transform: CGAffineTransform, _ current: CGRect
  ) -> CGRect {
    if transform.isIdentity { return frame }
    var size = current.size
    if transform.b == 0, transform.c == 0 {
      if transform.a != 0 { size.width = frame.width / abs(transform.a) }
      if transform.d != 0 { size.height = frame.height / abs(transform.d) }
    }
    let centerX = frame.midX - transform.tx
    let centerY = frame.midY - transform.ty
    return CGRect(
      x: centerX - size.width / 2, y: centerY - size.height / 2, width: size.width,
      height: size.height)
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
      setUntransformedFrame(
        CGRect(
          x: center.x - newValue.width / 2, y: center.y - newValue.height / 2,
          width: newValue.width, height: newValue.height))
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
      setUntransformedFrame(
        CGRect(
          x: newValue.x - modelFrame.width / 2, y: newValue.y - modelFrame.height / 2,
          width: modelFrame.width, height: modelFrame.height))
    }
  }

  /// The view's transform, applied about its centre when it is drawn (animated inside
  /// `UIView.animate`). The centre and bounds do not change with it; `frame` does, as UIKit's.
  open var transform: CGAffineTransform {
    get { modelTransform }
    set {
      animate(
        "transform", from: { .transform($0.presentationTransform) }, to: .transform(newValue))
      modelTransform = newValue
    }
  }

  static func isFinite(_ rect: CGRect) -> Bool {
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

  var rootView: UIView {
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

  /// Called when the view, or an ancestor, entered a window or left one (``window`` tells
  /// which). UIKit applies appearance proxies here.
  open func didMoveToWindow() {}

  /// The window the view is in: the root of its tree, when that is a window.
  public var window: UIWindow? { rootView as? UIWindow }

  // MARK: Hit testing

  /// The deepest view of this view's subtree that takes a touch at `point` (in this view's
  /// coordinates), front to back, as UIKit's: a view that is hidden, has an alpha below 0.01,
  /// has ``isUserInteractionEnabled`` false, or does not contain the point
  /// (``point(inside:with:)``) answers nil, and so does its subtree. Subviews are tried from the
  /// front; the view itself answers when none takes the point. Frames and transforms are the
  /// model values, not the ones drawn mid-animation, as in UIKit.
  open func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
    guard isUserInteractionEnabled, !hiddenFlag, modelAlpha >= 0.01,
      self.point(inside: point, with: event)
    else { return nil }
    for subview in subviews.reversed() {
      if let hit = subview.hitTest(subview.fromSuperview(point), with: event) { return hit }
    }
    return self
  }

  /// `point` of the superview's coordinates in this view's, as touches see it: through the
  /// model frame and the transform's translation.
  func fromSuperview(_ point: CGPoint) -> CGPoint {
    CGPoint(
      x: point.x - modelFrame.origin.x - modelTransform.tx,
      y: point.y - modelFrame.origin.y - modelTransform.ty)
  }

  /// `point` of the root view's (the window's) coordinates in this view's, as
  /// ``hitTest(_:with:)`` maps it down the tree.
  func fromRoot(_ point: CGPoint) -> CGPoint {
    guard let superview else { return point }
    return fromSuperview(superview.fromRoot(point))
  }

  /// Whether `point` (in this view's coordinates) is inside the view: in its bounds.
  open func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
    bounds.contains(point)
  }

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
}

extension Optional where Wrapped == id {
  /// The object an IMP's optional object argument points at, unretained; nil for `nil`. Not
  /// `Optional.map`: in main-actor code its closure checks the executor on every call (SE-0423),
  /// and the model's IMPs read such arguments on every send.
  @inline(__always)
  var unretainedObject: ObjCObject? {
    switch self {
    case .some(let pointer): pointer.takeUnretainedObject()
    case .none: nil
    }
  }
}

extension Array where Element: AnyObject {
  /// The index of `object` itself (`===`), found by a loop. Not `firstIndex(where:)`: in
  /// main-actor code, its closure checks the executor on every call (SE-0423), and the view tree
  /// and the stacks look up their members on every move.
  @inline(__always)
  func firstIndex(ofIdentical object: Element) -> Int? {
    for index in indices where self[index] === object { return index }
    return nil
  }
}
