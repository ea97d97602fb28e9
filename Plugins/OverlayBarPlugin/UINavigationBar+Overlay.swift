// LTNavigationBar's category: lt_setBackgroundColor, lt_setTranslationY, lt_setElementsAlpha and
// lt_reset, in the seed's mode and the fixed one.
public import Foundation
import Hooks
public import ObjCRuntime
public import UIKitModel

/// The overlay view of a bar, as the seed's `overlay` associated object.
private let overlayKey = AssociatedKey<UIView?>()
/// The one-shot layout hook of a bar whose background was not in it when its overlay was asked
/// for.
private let pendingLayoutKey = AssociatedKey<HookToken?>()
/// The background image the bar had before the overlay, which the fixed mode's reset gives back.
private let previousImageKey = AssociatedKey<UIImage?>()

// The seed's names, `lt_` and all, as an Objective-C category prefixes its methods.
extension UINavigationBar {
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The overlay `lt_setBackgroundColor` inserted, until `lt_reset()` takes it out.
  public var lt_overlay: UIView? { self[overlayKey] }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Colours the bar with an overlay view, as LTNavigationBar does: the first call sets an
  /// empty background image (the system background turns clear) and inserts an overlay at
  /// index 0 of the bar's first subview (its background), not taking touches (the seed's first
  /// bug: an overlay that took them swallowed the back button's taps) and as wide as the bar;
  /// every call sets the overlay's colour.
  ///
  /// - ``OverlayMode/seed``: the overlay is the bar's height plus 20 points, the status bar of
  ///   the iPhones before the X; on a notch device the bar's lower 24 points are left
  ///   uncovered. On a bar with no subviews the overlay is never shown.
  /// - ``OverlayMode/fixed``: the overlay covers the whole background, status bar included,
  ///   whatever the device, and follows its size; on a bar whose background is not in it yet,
  ///   it appears when the bar is next laid out. With `controller`, a call from a controller that is no longer
  ///   the top of its navigation controller is ignored (a scroll view still decelerating after
  ///   its page was popped would paint the next page's bar: the seed's issue 10).
  ///
  /// A colour never has a NaN component: `UIColor` takes one as 0 and reports it.
  public func lt_setBackgroundColor(
    _ color: UIColor, from controller: UIViewController? = nil,
    mode: OverlayMode = OverlayBarPlugin.mode.value
  ) {
    guard !isStale(controller, mode: mode) else { return }
    if let overlay = lt_overlay {
      overlay.backgroundColor = color
      return
    }
    let overlay = UIView(frame: .zero)
    overlay.isUserInteractionEnabled = false
    overlay.backgroundColor = color
    switch mode {
    case .seed:
      // The seed's order: the empty image, then the overlay into the first subview.
      clearBackground(keeping: overlay)
      overlay.frame = CGRect(x: 0, y: 0, width: bounds.width, height: bounds.height + 20)
      overlay.autoresizingMask = .flexibleWidth
      subviews.first?.insertSubview(overlay, at: 0)
    case .fixed:
      overlay.autoresizingMask = [.flexibleWidth, .flexibleHeight]
      // The one step that can fail comes first, so that a failure changes nothing.
      guard placeWhenLaidOut(overlay) else { return }
      clearBackground(keeping: overlay)
    }
  }

  /// Remembers the background image and the overlay, and makes the system background clear.
  private func clearBackground(keeping overlay: UIView) {
    self[previousImageKey] = backgroundImage(for: .default)
    self[overlayKey] = overlay
    setBackgroundImage(UIImage(), for: .default)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Moves the bar by `translationY` points (its transform), as the seed does. NaN or an
  /// infinity is refused (UIKit would raise on the layer's position), the bar unchanged. With
  /// `controller` in ``OverlayMode/fixed``, a call from a controller no longer on top is
  /// ignored.
  public func lt_setTranslationY(
    _ translationY: CGFloat, from controller: UIViewController? = nil,
    mode: OverlayMode = OverlayBarPlugin.mode.value
  ) {
    guard translationY.isFinite else {
      return refuse("lt_setTranslationY:", "a translation of \(translationY)")
    }
    guard !isStale(controller, mode: mode) else { return }
    transform = CGAffineTransform(translationX: 0, y: translationY)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fades the bar's title and buttons to `alpha` (clamped to 0...1, as UIKit clamps alpha; NaN
  /// is refused, the bar unchanged).
  ///
  /// - ``OverlayMode/seed``: reads `_leftViews`, `_rightViews` and `_titleView` through
  ///   key-value coding, then the subviews of class `UINavigationItemView` and
  ///   `_UINavigationBarBackIndicatorView`, as LTNavigationBar did (it never faded the back
  ///   button's title). From iOS 11, `_titleView` is an undefined key: where LTNavigationBar
  ///   crashed, this throws, having changed nothing.
  /// - ``OverlayMode/fixed``: fades every element of the running hierarchy: on iOS 10 every
  ///   view of the bar but its background (the overlay is in the background), on iOS 11 and
  ///   later every view of
  ///   `_UINavigationBarContentView`. It never throws.
  ///
  /// - Throws: `ObjCRuntimeError.undefinedKey(className: "UINavigationBar", key: "_titleView")`
  ///   in ``OverlayMode/seed`` on iOS 11 and later.
  public func lt_setElementsAlpha(
    _ alpha: CGFloat, from controller: UIViewController? = nil,
    mode: OverlayMode = OverlayBarPlugin.mode.value
  ) throws(ObjCRuntimeError) {
    guard !alpha.isNaN else { return refuse("lt_setElementsAlpha:", "an alpha of NaN") }
    guard !isStale(controller, mode: mode) else { return }
    let alpha = max(0, min(1, alpha))
    for view in try elements(mode: mode) { view.alpha = alpha }
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Takes the overlay out and sets the background image back; the shadow image is left as it
  /// is (the seed's commit 0240055).
  ///
  /// In ``OverlayMode/seed`` the background image becomes nil on every call, as the seed did
  /// (an image the app had set is lost). In ``OverlayMode/fixed`` the image the bar had before
  /// the overlay comes back, and only when there is an overlay: a reset twice, or before any
  /// setter, changes nothing.
  public func lt_reset(mode: OverlayMode = OverlayBarPlugin.mode.value) {
    if mode == .fixed, lt_overlay == nil { return }
    setBackgroundImage(mode == .fixed ? self[previousImageKey] : nil, for: .default)
    lt_overlay?.removeFromSuperview()
    self[overlayKey] = nil
    self[previousImageKey] = nil
    self[pendingLayoutKey]?.remove()
    self[pendingLayoutKey] = nil
  }

  // MARK: The parts

  /// Whether an update from `controller` comes too late: in ``OverlayMode/fixed`` only, the
  /// controller is no longer the top of the navigation controller this bar belongs to.
  private func isStale(_ controller: UIViewController?, mode: OverlayMode) -> Bool {
    guard mode == .fixed, let controller else { return false }
    guard let navigation = controller.navigationController, navigation.navigationBar === self
    else { return true }
    return navigation.topViewController !== controller
  }

  /// Inserts `overlay` at the back of the bar's background (``UINavigationBar/backgroundContainer``),
  /// covering it. A bar whose background is not in it yet gets the overlay at its next layout:
  /// a hook of this one bar's `layoutSubviews` (a per-object hook, which moves the bar to a
  /// subclass of its own, as key-value observing does) that removes itself. Returns false,
  /// having changed nothing, when that hook cannot be made.
  private func placeWhenLaidOut(_ overlay: UIView) -> Bool {
    let background = backgroundContainer
    if background.superview === self {
      overlay.frame = background.bounds
      background.insertSubview(overlay, at: 0)
      return true
    }
    do {
      self[pendingLayoutKey] = try hook(after: "layoutSubviews") { (bar: UINavigationBar) in
        MainThread.assumeIsolated { bar.placePendingOverlay() }
      }
      return true
    } catch {
      Diagnostics.warn(
        "-[UINavigationBar lt_setBackgroundColor:] could not wait for the bar's layout: \(error)",
        kind: .plugin)
      return false
    }
  }

  /// The pending layout hook's work: once the background is in the bar, the overlay goes in it
  /// (if the overlay is still the bar's and not placed), and the hook comes off.
  private func placePendingOverlay() {
    let background = backgroundContainer
    guard background.superview === self else { return }
    self[pendingLayoutKey]?.remove()
    self[pendingLayoutKey] = nil
    guard let overlay = lt_overlay, overlay.superview == nil else { return }
    overlay.frame = background.bounds
    background.insertSubview(overlay, at: 0)
  }

  /// The views `lt_setElementsAlpha` fades, all found before any is changed.
  private func elements(mode: OverlayMode) throws(ObjCRuntimeError) -> [UIView] {
    switch mode {
    case .seed:
      let left = try value(forKey: "_leftViews") as? [UIView] ?? []
      let right = try value(forKey: "_rightViews") as? [UIView] ?? []
      let title = try value(forKey: "_titleView") as? UIView
      let others = subviews.filter {
        $0 is UINavigationItemView || $0 is _UINavigationBarBackIndicatorView
      }
      return left + right + (title.map { [$0] } ?? []) + others
    case .fixed:
      if let content = subviews.first(where: { $0 is _UINavigationBarContentView }) {
        return content.subviews
      }
      return subviews.filter { $0 !== backgroundContainer }
    }
  }

  private func refuse(_ method: String, _ value: String) {
    Diagnostics.warn(
      "-[UINavigationBar \(method)] refused \(value): the bar is unchanged", kind: .refusedValue)
  }
}
