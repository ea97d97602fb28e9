// What the user sees of a navigation bar: the whole bar composited at a point, back to front.
import Foundation

extension UINavigationBar {
  /// The bar as the user sees it now, over `behind`: computed from the view tree (presentation
  /// values: mid animation, the interpolated ones), never stored beside it.
  ///
  /// The background is the colour the user sees at the middle of the bar, and the status-bar
  /// area's colour at the middle of the strip above it (``UIView/color(at:over:)``): every view of the
  /// bar that covers the point counts, whoever put it there (the bar's own `backgroundColor`, its
  /// background, an overlay a plugin inserted), with its alpha, hidden state, frame and
  /// translation.
  ///
  /// While the bar shows a large title, its colour is given too (its label's colour with the
  /// label's opacity), and the row's title is transparent.
  public func asSeen(over behind: UIColor = .white) -> SeenBar {
    // The parts below the row as drawn: the search bar nearest the content, then the large title
    // (none on a bar that never had either).
    let mayHaveGrown = prefersLargeTitlesStorage || largeTitleView != nil || shownSearchBar != nil
    let grown = mayHaveGrown ? max(0, presentationFrame.height - contentHeight) : 0
    let search = ownSearchBar?.isHidden == false ? min(searchBarExtent, grown) : 0
    let large = showsLargeTitle ? min(largeTitleExtent, grown - search) : 0
    let middle = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
    let (color, opacity) = seen(at: middle, over: behind)
    let statusBarArea =
      statusBarHeight > 0
      ? self.color(at: CGPoint(x: middle.x, y: -statusBarHeight / 2), over: behind) : color
    let shadowVisible = shadowView.effectiveAlpha > 0 && !shadowView.isHidden
    let buttonAlpha =
      buttonViews.first.map { $0.effectiveAlpha } ?? (contentContainer.effectiveAlpha)
    return SeenBar(
      backgroundColor: color, statusBarAreaColor: statusBarArea,
      backgroundOpacity: opacity,
      titleColor: (titleLabel.textColor ?? .black).withAlphaComponent(
        (titleLabel.textColor?.alpha ?? 1) * titleLabel.effectiveAlpha),
      tintColor: presentationTintColor, buttonAlpha: buttonAlpha,
      shadowVisible: shadowVisible, translationY: presentationTransform.ty,
      statusBarStyle: UIApplication.shared.resolvedStatusBarStyle, isHidden: isHidden,
      frame: frame, largeTitleColor: seenLargeTitleColor,
      grownHeight: grown, largeTitleHeight: large, searchBarHeight: search)
  }

  /// The large title's colour with its label's opacity, while one shows.
  private var seenLargeTitleColor: UIColor? {
    guard showsLargeTitle, largeTitleExtent > 0, let label = largeTitleView?.label,
      !label.isHidden
    else { return nil }
    let color = label.textColor ?? .black
    return color.withAlphaComponent(color.alpha * label.effectiveAlpha)
  }
}
