// The bar techniques of ETNavBarTransparent and EMNavigationBarTransition: the background's alpha
// set the seed's way (the shadow view read as an ivar, the effect view of a translucent bar, or
// the first subview), a background view for EM's colour, the title colour and the hairline.
public import Foundation
import ObjCRuntime
public import UIKitModel

private let backgroundViewKey = AssociatedKey<UIView?>()

/// The profiles on which a step of the seed's alpha path found nothing to change, each said once.
private let skippedSteps = RuntimeLock<Set<String>>([])

extension UINavigationController {
  /// Sets the bar background's alpha the seed's way (see
  /// `UINavigationBar.transparentSetBackgroundAlpha(_:)`).
  public func transparentSetBackgroundAlpha(_ alpha: CGFloat) {
    navigationBar.transparentSetBackgroundAlpha(alpha)
  }
}

extension UINavigationBar {
  /// Sets the background's alpha as ET's `setNeedsNavigationBackground(alpha:)` does:
  ///
  /// 1. the bar's first subview is the background (`_UIBarBackground` on iOS 11 and later,
  ///    `_UINavigationBarBackground` before);
  /// 2. its `_shadowView` ivar, read with `class_getInstanceVariable` and `object_getIvar`, gets
  ///    the alpha, and is hidden at 0;
  /// 3. a translucent bar with no custom background image sets its `_backgroundEffectView`'s
  ///    alpha, and stops there; the plugin also fades `_colorView`, which draws a bar tint
  ///    colour (the seed did not: with `barTintColor` set its bar never turned clear, ET
  ///    issue 14);
  /// 4. otherwise the first subview takes the alpha: EM's iOS 11 variant sets every subview of
  ///    `_UIBarBackground` except the image views instead.
  ///
  /// A step whose ivar the running profile lacks is skipped, and said once per profile.
  public func transparentSetBackgroundAlpha(_ alpha: CGFloat) {
    let bar = self
    guard let background = bar.subviews.first else { return }
    if let shadow = ivarView(named: "_shadowView", of: background) {
      shadow.alpha = alpha
      shadow.isHidden = alpha == 0
    }
    // A background view the plugin drew for a controller's colour fades with the bar.
    bar[backgroundViewKey]?.alpha = alpha
    if bar.isTranslucent, bar.backgroundImage(for: .default) == nil {
      if let effect = ivarView(named: "_backgroundEffectView", of: background) {
        effect.alpha = alpha
        ivarView(named: "_colorView", of: background)?.alpha = alpha
        return
      }
    }
    if UIDevice.current.majorSystemVersion >= 11 {
      for view in background.subviews where !(view is UIImageView) {
        view.alpha = alpha
      }
    } else {
      background.alpha = alpha
    }
  }

  /// The view in `object`'s ivar `name`, or nil (said once per class) when its class has no
  /// such ivar.
  private func ivarView(named name: String, of object: UIView) -> UIView? {
    guard let cls = object_getClass(object) else { return nil }
    guard let ivar = class_getInstanceVariable(cls, name) else {
      let step = "\(cls.name).\(name)"
      if skippedSteps.withLock({ $0.insert(step).inserted }) {
        Diagnostics.warn(
          "transparent: \(cls.name) has no ivar \(name) on iOS"
            + " \(UIDevice.current.systemVersion); that step of the alpha is skipped",
          kind: .plugin)
      }
      return nil
    }
    return object_getIvar(object, ivar) as? UIView
  }
}

extension UINavigationBar {
  /// Shows `color` behind the bar, as EM does: an empty background image, then a view of that
  /// colour at index 0 of the first subview, as tall as the status bar and the bar.
  public func transparentSetBackgroundColor(_ color: UIColor) {
    if let view = self[backgroundViewKey], view.superview?.superview === self {
      view.backgroundColor = color
      return
    }
    setBackgroundImage(UIImage(), for: .default)
    let height = UIScreen.main.profile.statusBarHeight + UINavigationBar.height
    let view = UIView(frame: CGRect(x: 0, y: 0, width: bounds.width, height: height))
    view.autoresizingMask = .flexibleWidth
    view.backgroundColor = color
    subviews.first?.insertSubview(view, at: 0)
    self[backgroundViewKey] = view
  }

  /// Sets the title's colour, keeping the other title attributes.
  public func transparentSetTitleColor(_ color: UIColor) {
    var attributes = titleTextAttributes ?? [:]
    attributes[.foregroundColor] = color
    titleTextAttributes = attributes
  }

  /// Hides or shows the hairline with an empty shadow image, as EM does.
  public func transparentSetShadowHidden(_ hidden: Bool) {
    shadowImage = hidden ? UIImage() : nil
  }

  /// Takes the plugin's background view off and gives back UIKit's opaque background: what
  /// uninstalling does to every bar the plugin changed.
  internal func transparentRemoveBackground() {
    self[backgroundViewKey]?.removeFromSuperview()
    self[backgroundViewKey] = nil
    setBackgroundImage(nil, for: .default)
    transparentSetBackgroundAlpha(1)
  }
}
