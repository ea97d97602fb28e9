// The bar's layout: its background, title, buttons and back button placed in its bounds, as
// UIKit's bar lays out its content view.
import Foundation
import ObjCRuntime

extension UINavigationBar {
  /// The bar's own layout, the base of `-[UINavigationBar layoutSubviews]` (which seeds
  /// swizzle): the background up under the status bar, the content over the bar.
  func performLayout() {
    let width = bounds.width
    backgroundContainer.frame = CGRect(
      x: 0, y: -statusBarHeight, width: width, height: barHeight + statusBarHeight)
    // The background's own views fill it; a view someone else put there keeps its frame (and
    // follows its autoresizing mask), so an overlay sized for a 20-point status bar stays short.
    // (No array of them: this runs for every layout of every bar.)
    let filled = backgroundContainer.bounds
    if let bar = backgroundContainer as? _UIBarBackground {
      bar.backgroundImageView.frame = filled
      bar.backgroundEffectView.frame = filled
      bar.colorView.frame = filled
    } else if let legacy = backgroundContainer as? _UINavigationBarBackground {
      legacy.backgroundEffectView.frame = filled
      legacy.colorView.frame = filled
    }
    let hairline = 1 / 3.0
    shadowView.frame = CGRect(
      x: 0, y: backgroundContainer.bounds.height, width: width, height: hairline)
    if contentContainer !== self && contentContainer.superview === self {
      contentContainer.frame = CGRect(x: 0, y: 0, width: width, height: contentHeight)
    }
    largeTitleView?.frame = CGRect(
      x: 0, y: contentHeight, width: width, height: largeTitleExtent)
    largeTitleView?.label.frame = CGRect(
      x: 16, y: max(0, largeTitleExtent - 41), width: max(0, width - 32), height: 41)
    if let searchBar = ownSearchBar {
      searchBar.frame = CGRect(
        x: 0, y: contentHeight + largeTitleExtent, width: width, height: searchBarExtent)
      searchBar.isHidden = searchBarExtent == 0
    }
    let title = CGRect(x: width / 2 - 80, y: 11, width: 160, height: 22)
    if let titleItemView {
      titleItemView.frame = title
      titleLabel.frame = titleItemView.bounds
    } else {
      titleLabel.frame = title
    }
    backIndicatorView.frame = CGRect(x: 8, y: 11, width: 13, height: 21)
    backButtonView?.frame = CGRect(x: 21, y: 11, width: backButtonFrame.width - 21, height: 22)
    let height = contentHeight
    // The button bars share the width beside the title; the buttons sit 44 points apart, the
    // left ones after the back button, the right ones from the right edge.
    let side = max(0, width / 2 - 80)
    buttonBars?.left.frame = CGRect(x: 0, y: 0, width: side, height: height)
    buttonBars?.right.frame = CGRect(x: width - side, y: 0, width: side, height: height)
    // Left items start after the back button when it shows beside them.
    let leftStart: CGFloat = showsBackButton ? backButtonFrame.width : 8
    for (index, view) in leftButtonViews.enumerated() {
      view.frame = CGRect(x: leftStart + CGFloat(index) * 44, y: 0, width: 44, height: height)
    }
    var right = (buttonBars == nil ? width : side) - 8
    for view in rightButtonViews.reversed() {
      view.frame = CGRect(x: right - 44, y: 0, width: 44, height: height)
      right -= 44
    }
  }

  var shadowView: UIView {
    (backgroundContainer as? _UIBarBackground)?.shadowView
      ?? (backgroundContainer as? _UINavigationBarBackground)?.shadowView ?? UIView()
  }
}
