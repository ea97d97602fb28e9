// What the user sees at a point of a view: its subtree composited back to front, as the bars'
// `asSeen` values read it.
public import Foundation

extension UIView {
  /// The colour the user sees at `point` of this view (in its coordinates: a point outside its
  /// bounds, such as the status-bar strip above a navigation bar, has negative y), over
  /// `behind`: the view and its subviews drawn back to front, each that covers the point with its
  /// background colour (or its image's) at its opacity, the product of its alpha and its
  /// ancestors', none if it or an ancestor is hidden. Subviews are not clipped to the view, so a
  /// bar's background that extends under the status bar counts there.
  public func color(at point: CGPoint, over behind: UIColor) -> UIColor {
    var color = behind
    composite(self, at: point, opacity: superview?.effectiveAlpha ?? 1, into: &color)
    return color
  }

  /// How opaque the view and its subtree are at `point`, from 0 (what is behind shows through)
  /// to 1: what they let through of white against black.
  public func opacity(at point: CGPoint) -> CGFloat {
    let overWhite = color(at: point, over: .white)
    let overBlack = color(at: point, over: .black)
    let seeThrough = max(
      overWhite.red - overBlack.red, overWhite.green - overBlack.green,
      overWhite.blue - overBlack.blue)
    return max(0, min(1, 1 - seeThrough))
  }

  /// Draws `view` and its subtree at `point` (in `view`'s coordinates) over `color`.
  private func composite(
    _ view: UIView, at point: CGPoint, opacity inherited: CGFloat, into color: inout UIColor
  ) {
    guard !view.isHidden else { return }
    let opacity = inherited * view.presentationAlpha
    guard opacity > 0 else { return }
    let size = view.presentationFrame.size
    if point.x >= 0, point.y >= 0, point.x < size.width, point.y < size.height,
      let fill = view.presentationBackgroundColor ?? (view as? UIImageView)?.imageColor,
      fill.alpha > 0
    {
      color = fill.composited(over: color, opacity: opacity)
    }
    for subview in view.subviews {
      let frame = subview.presentationFrame
      let transform = subview.presentationTransform
      let local = CGPoint(
        x: point.x - frame.origin.x - transform.tx, y: point.y - frame.origin.y - transform.ty)
      composite(subview, at: local, opacity: opacity, into: &color)
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
