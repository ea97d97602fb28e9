// What the user sees at a point of a view: its subtree composited back to front, as the bars'
// `asSeen` values read it, in one walk of the tree and without an object per layer.
public import Foundation

extension UIView {
  /// The colour the user sees at `point` of this view (in its coordinates: a point outside its
  /// bounds, such as the status-bar strip above a navigation bar, has negative y), over
  /// `behind`: the view and its subviews drawn back to front, each that covers the point with its
  /// background colour (or its image's) at its opacity, the product of its alpha and its
  /// ancestors', none if it or an ancestor is hidden. Subviews are not clipped to the view, so a
  /// bar's background that extends under the status bar counts there.
  public func color(at point: CGPoint, over behind: UIColor) -> UIColor {
    seen(at: point, over: behind).color
  }

  /// How opaque the view and its subtree are at `point`, from 0 (what is behind shows through)
  /// to 1: what they let through of white against black.
  public func opacity(at point: CGPoint) -> CGFloat {
    seen(at: point, over: .white).opacity
  }

  /// The colour at `point` over `behind` and the opacity there, from one walk of the tree: the
  /// subtree composited over `behind`, over white and over black at once.
  func seen(at point: CGPoint, over behind: UIColor) -> (color: UIColor, opacity: CGFloat) {
    var layers = CompositeLayers(behind: behind)
    UIView.composite(self, at: point, opacity: superview?.effectiveAlpha ?? 1, into: &layers)
    let (white, black) = (layers.overWhite, layers.overBlack)
    let seeThrough = max(white.red - black.red, white.green - black.green, white.blue - black.blue)
    return (layers.overBehind.color, max(0, min(1, 1 - seeThrough)))
  }

  /// Draws `view` and its subtree at `point` (in `view`'s coordinates) over `layers`.
  private static func composite(
    _ view: UIView, at point: CGPoint, opacity inherited: CGFloat,
    into layers: inout CompositeLayers
  ) {
    guard !view.isHidden else { return }
    let opacity = inherited * view.presentationAlpha
    guard opacity > 0 else { return }
    let size = view.presentationFrame.size
    if point.x >= 0, point.y >= 0, point.x < size.width, point.y < size.height,
      let fill = view.presentationBackgroundColor ?? (view as? UIImageView)?.imageColor,
      fill.alpha > 0
    {
      layers.draw(fill, opacity: opacity)
    }
    for subview in view.subviews {
      let frame = subview.presentationFrame
      let transform = subview.presentationTransform
      let local = CGPoint(
        x: point.x - frame.origin.x - transform.tx, y: point.y - frame.origin.y - transform.ty)
      composite(subview, at: local, opacity: opacity, into: &layers)
    }
  }

  /// The first scroll view of this view's tree, depth first (the view itself first): the
  /// content a bar over or under it watches for its scroll edge.
  var firstScrollView: UIScrollView? {
    if let scrollView = self as? UIScrollView { return scrollView }
    for subview in subviews {
      if let found = subview.firstScrollView { return found }
    }
    return nil
  }
}

/// A colour being composited, as plain numbers: ``UIColor/composited(over:opacity:)``'s
/// arithmetic, without an object for each layer drawn.
private struct CompositeColor {
  var red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

  init(_ color: UIColor) {
    (red, green, blue, alpha) = (color.red, color.green, color.blue, color.alpha)
  }

  /// Draws `fill` over this colour with `opacity` (Porter-Duff "over").
  mutating func draw(_ fill: UIColor, opacity: CGFloat) {
    let top = fill.alpha * max(0, min(1, opacity))
    let outAlpha = top + alpha * (1 - top)
    guard outAlpha > 0 else {
      (red, green, blue, alpha) = (0, 0, 0, 0)
      return
    }
    let backgroundAlpha = alpha
    // The same expression as UIColor's, term for term, so that the results are the same bits.
    func mix(_ upper: CGFloat, _ lower: CGFloat) -> CGFloat {
      (upper * top + lower * backgroundAlpha * (1 - top)) / outAlpha
    }
    (red, green, blue) = (mix(fill.red, red), mix(fill.green, green), mix(fill.blue, blue))
    alpha = max(0, min(1, outAlpha))
  }

  var color: UIColor { UIColor(red: red, green: green, blue: blue, alpha: alpha) }
}

/// The three backgrounds a walk composites over at once: what is behind, white and black (the
/// last two give the opacity).
private struct CompositeLayers {
  var overBehind: CompositeColor
  var overWhite = CompositeColor(.white)
  var overBlack = CompositeColor(.black)

  init(behind: UIColor) { overBehind = CompositeColor(behind) }

  mutating func draw(_ fill: UIColor, opacity: CGFloat) {
    overBehind.draw(fill, opacity: opacity)
    overWhite.draw(fill, opacity: opacity)
    overBlack.draw(fill, opacity: opacity)
  }
}
