// The bar techniques of WRNavigationBar, on UIKitModel's navigation bar: a background view at
// index 0 of the bar's first subview, alpha on that subview or its children, translation-Y,
// button alpha, the hairline and the title colour.
public import Foundation
import ObjCRuntime
public import UIKitModel

/// The plugin's background view of a bar, kept under every other background view.
private let backgroundViewKey = AssociatedKey<UIView?>()
private let backgroundImageViewKey = AssociatedKey<UIImageView?>()

extension UINavigationBar {
  /// The height from the top of the screen to the bottom of the bar: the device's status bar
  /// plus the bar, not WRNavigationBar's hard-coded 64 / 88.
  public var barLayerBottom: CGFloat {
    UIScreen.main.profile.statusBarHeight + UINavigationBar.height
  }

  /// The plugin's background view, if it made one.
  public var barLayerBackgroundView: UIView? { self[backgroundViewKey] }

  /// Shows `color` behind the bar: clears the system background with an empty image, then
  /// inserts a view of that colour at index 0 of the bar's first subview (`_UIBarBackground`).
  public func barLayerSetBackgroundColor(_ color: UIColor) {
    self[backgroundImageViewKey]?.removeFromSuperview()
    self[backgroundImageViewKey] = nil
    let view = attached(self[backgroundViewKey]) ?? makeBackgroundView()
    view.backgroundColor = color
  }

  /// `view` if it is still in the bar's hierarchy; a view taken off (by an uninstall, or a bar
  /// that rebuilt its subviews) is forgotten, so that a new one is made.
  private func attached<View: UIView>(_ view: View?) -> View? {
    guard let view, view.superview?.superview === self else { return nil }
    return view
  }

  /// Takes the plugin's background views off the bar and forgets them, and gives back UIKit's
  /// background: what uninstalling does to every bar the plugin changed.
  internal func barLayerRemoveBackground() {
    self[backgroundViewKey]?.removeFromSuperview()
    self[backgroundViewKey] = nil
    self[backgroundImageViewKey]?.removeFromSuperview()
    self[backgroundImageViewKey] = nil
    setBackgroundImage(nil, for: .default)
    shadowImage = nil
    barLayerSetBackgroundAlpha(1)
  }

  /// Shows `image` behind the bar, as the colour path does with an image view.
  public func barLayerSetBackgroundImage(_ image: UIImage) {
    self[backgroundViewKey]?.removeFromSuperview()
    self[backgroundViewKey] = nil
    let imageView = attached(self[backgroundImageViewKey]) ?? makeBackgroundImageView()
    imageView.image = image
    imageView.backgroundColor = image.solidColor
  }

  private func makeBackgroundView() -> UIView {
    let view = UIView(frame: .zero)
    insertBackground(view)
    self[backgroundViewKey] = view
    return view
  }

  private func makeBackgroundImageView() -> UIImageView {
    let view = UIImageView(frame: .zero)
    insertBackground(view)
    self[backgroundImageViewKey] = view
    return view
  }

  /// Clears the system background and puts `view` at index 0 of the bar's first subview, as
  /// tall as that subview and following it: WRNavigationBar's view is as tall as the status bar
  /// and the bar's row (its hard-coded 64 or 88), so a large title's part of the bar, below the
  /// row, showed the cleared background (WRNavigationBar issue 88); the bar's background grows
  /// and shrinks with the large title, and the view with it.
  private func insertBackground(_ view: UIView) {
    setBackgroundImage(UIImage(), for: .default)
    let background = subviews.first
    let height =
      background.map { $0.bounds.height > 0 ? $0.bounds.height : barLayerBottom }
      ?? barLayerBottom
    view.frame = CGRect(x: 0, y: 0, width: bounds.width, height: height)
    view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    background?.insertSubview(view, at: 0)
  }

  /// Sets the background's alpha as the original does: on each subview of the bar's first
  /// subview on iOS 11 and later ("sometimes we can't change _UIBarBackground alpha"), on the
  /// first subview itself before.
  public func barLayerSetBackgroundAlpha(_ alpha: CGFloat) {
    guard !alpha.isNaN else {
      Diagnostics.warn(
        "bar-layer: a background alpha of NaN was refused for \(self)", kind: .refusedValue)
      return
    }
    guard let background = subviews.first else { return }
    if UIDevice.current.majorSystemVersion >= 11 {
      for view in background.subviews { view.alpha = alpha }
    } else {
      background.alpha = alpha
    }
  }

  /// Sets the alpha of everything in the bar but its background (the buttons and the title);
  /// the back indicator too unless `hasSystemBackIndicator` is false.
  public func barLayerSetBarButtonItemsAlpha(_ alpha: CGFloat, hasSystemBackIndicator: Bool = true)
  {
    guard !alpha.isNaN else {
      Diagnostics.warn(
        "bar-layer: a button alpha of NaN was refused for \(self)", kind: .refusedValue)
      return
    }
    for view in subviews {
      let name = object_getClass(view)?.name ?? ""
      if name == "_UIBarBackground" || name == "_UINavigationBarBackground" { continue }
      if !hasSystemBackIndicator, name == "_UINavigationBarBackIndicatorView" { continue }
      view.alpha = alpha
    }
  }

  /// Moves the bar up or down by `translationY` points (its transform).
  public func barLayerSetTranslationY(_ translationY: CGFloat) {
    guard translationY.isFinite else {
      Diagnostics.warn(
        "bar-layer: a translation of \(translationY) was refused for \(self)", kind: .refusedValue)
      return
    }
    transform = CGAffineTransform(translationX: 0, y: translationY)
  }

  /// The bar's vertical offset.
  public var barLayerTranslationY: CGFloat { transform.ty }

  /// Hides or shows the hairline (an empty shadow image, which UIKit honours because the plugin
  /// always sets a custom background image).
  public func barLayerSetShadowHidden(_ hidden: Bool) {
    shadowImage = hidden ? UIImage() : nil
  }

  /// Sets the title colour, keeping the other title attributes; on a bar that prefers large
  /// titles (iOS 11 and later), the large title's too. WRNavigationBar sets only the title
  /// attributes, and the large title, which has attributes of its own (Apple's
  /// `largeTitleTextAttributes`), kept the system's black (WRNavigationBar issue 88: with
  /// `prefersLargeTitles` "all of WR's settings fail").
  public func barLayerSetTitleColor(_ color: UIColor) {
    var attributes = titleTextAttributes ?? [:]
    attributes[.foregroundColor] = color
    titleTextAttributes = attributes
    // Only when it changes: an interactive pop sets the title colour on every frame.
    guard prefersLargeTitles,
      largeTitleTextAttributes?.foregroundColor.map(UIColorComponents.init)
        != UIColorComponents(color)
    else { return }
    var large = largeTitleTextAttributes ?? [:]
    large[.foregroundColor] = color
    largeTitleTextAttributes = large
  }

  /// Puts the plugin's background view back at index 0 of the first subview if something was
  /// inserted under it (WR-O's fix for the bar vanishing after a presentation).
  internal func barLayerKeepBackgroundAtBottom() {
    for view in [self[backgroundViewKey], self[backgroundImageViewKey] as UIView?] {
      guard let view, let container = view.superview, container.subviews.first !== view else {
        continue
      }
      container.insertSubview(view, at: 0)
    }
  }
}
