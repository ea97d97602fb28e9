// What the user sees of a navigation bar: the whole bar composited at a point, back to front.
public import Foundation

extension UINavigationBar {
  /// The bar as the user sees it now, over `behind`: computed from the view tree (presentation
  /// values: mid animation, the interpolated ones), never stored beside it.
  ///
  /// The background is the colour the user sees at the middle of the bar, and the status-bar
  /// area's colour at the middle of the strip above it (``color(at:over:)``): every view of the
  /// bar that covers the point counts, whoever put it there (the bar's own `backgroundColor`, its
  /// background, an overlay a plugin inserted), with its alpha, hidden state, frame and
  /// translation.
  public func asSeen(over behind: UIColor = .white) -> SeenBar {
    let middle = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
    let color = color(at: middle, over: behind)
    // How opaque the background is: what it lets through of white against black.
    let overWhite = self.color(at: middle, over: .white)
    let overBlack = self.color(at: middle, over: .black)
    let seeThrough = max(
      overWhite.red - overBlack.red, overWhite.green - overBlack.green,
      overWhite.blue - overBlack.blue)
    let statusBarArea =
      statusBarHeight > 0
      ? self.color(at: CGPoint(x: middle.x, y: -statusBarHeight / 2), over: behind) : color
    let shadowVisible = shadowView.effectiveAlpha > 0 && !shadowView.isHidden
    let buttonAlpha =
      buttonViews.first.map { $0.effectiveAlpha } ?? (contentContainer.effectiveAlpha)
    return SeenBar(
      backgroundColor: color, statusBarAreaColor: statusBarArea,
      backgroundOpacity: max(0, min(1, 1 - seeThrough)),
      titleColor: (titleLabel.textColor ?? .black).withAlphaComponent(
        (titleLabel.textColor?.alpha ?? 1) * titleLabel.effectiveAlpha),
      tintColor: presentationTintColor, buttonAlpha: buttonAlpha,
      shadowVisible: shadowVisible, translationY: presentationTransform.ty,
      statusBarStyle: UIApplication.shared.resolvedStatusBarStyle, isHidden: isHidden,
      frame: frame)
  }

  /// The colour the user sees at `point` of the bar (in the bar's coordinates: the status-bar
  /// strip above it has negative y), over `behind`: the bar's views drawn back to front, each
  /// that covers the point with its background colour (or its image's) at its opacity, the
  /// product of its alpha and its ancestors', none if it or an ancestor is hidden. Subviews are
  /// not clipped to the bar, so the background that extends under the status bar counts there.
  public func color(at point: CGPoint, over behind: UIColor) -> UIColor {
    var color = behind
    composite(self, at: point, opacity: superview?.effectiveAlpha ?? 1, into: &color)
    return color
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
}
