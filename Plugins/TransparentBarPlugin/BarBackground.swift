// The bar techniques of ETNavBarTransparent and EMNavigationBarTransition: the background's alpha
// set the seed's way (the shadow view read as an ivar, the effect view of a translucent bar, or
// the first subview), a background view for EM's colour, the title colour and the hairline.
public import Foundation
import Hooks
import ObjCRuntime
public import UIKitModel

private let backgroundViewKey = AssociatedKey<UIView?>()
/// The scroll-edge appearance the fixed mode gave a bar, so that uninstalling takes it back.
private let scrollEdgeKey = AssociatedKey<UINavigationBarAppearance?>()

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
  ///    alpha, and stops there, leaving `_colorView`, which draws a bar tint colour: with
  ///    `barTintColor` set the bar never turned clear (ET issue 14);
  /// 4. otherwise the first subview takes the alpha: EM's iOS 11 variant sets every subview of
  ///    `_UIBarBackground` except the image views instead.
  ///
  /// A step whose ivar the running profile lacks is skipped, and said once per profile.
  ///
  /// That is ``TransparentMode/seed``. ``TransparentMode/fixed`` finds the background by its
  /// class (while a bar has taken it out, nothing is set: the plugin sets it again when the bar
  /// inserts it) and sets the alpha on everything in it, image views and the plugin's own view
  /// included, so a bar with a background image or an opaque one fades too.
  public func transparentSetBackgroundAlpha(_ alpha: CGFloat) {
    let bar = self
    if TransparentBarPlugin.mode.value == .fixed {
      keepBackgroundAtScrollEdge()
      guard let background = subviews.first(where: UINavigationBar.isBackground) else { return }
      if UIDevice.current.majorSystemVersion >= 11 {
        for view in background.subviews { view.alpha = alpha }
      } else {
        background.alpha = alpha
      }
      let shadow = ivarView(named: "_shadowView", of: background)
      shadow?.isHidden = alpha == 0
      return
    }
    guard let background = bar.subviews.first else { return }
    if let shadow = ivarView(named: "_shadowView", of: background) {
      shadow.alpha = alpha
      shadow.isHidden = alpha == 0
    }
    // A background view the plugin drew for a controller's colour fades with the bar.
    bar[backgroundViewKey]?.alpha = alpha
    if bar.isTranslucent, bar.backgroundImage(for: .default) == nil {
      if let effect = ivarView(named: "_backgroundEffectView", of: background) {
        // The seed stopped here: a bar tint colour, drawn by `_colorView`, stayed (ET #14).
        effect.alpha = alpha
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

  /// iOS 15 draws every navigation bar's `scrollEdgeAppearance` while the page's content is at
  /// its top, transparent when unset, for an app built with the iOS 15 SDK: a bar styled only
  /// with the legacy properties, as ET styles it, turns clear there (infinum/ios-loggie issue
  /// 22; RTRootNavigationController issue 299). The fixed mode gives such a bar a scroll-edge
  /// appearance with its legacy look, as issue 299's maintainer advises: the default background
  /// with the bar tint, or the legacy background image (none for an empty one: another plugin's
  /// own view draws the bar then); the fade then works on it as on the legacy look. An
  /// appearance the app set is left alone. From iOS 13 a bar that prefers large titles draws
  /// its scroll edge too, while a large title shows (Apple's documentation of
  /// `scrollEdgeAppearance`; scenario `transparent-large-title`): such a bar gets it from 13.
  private func keepBackgroundAtScrollEdge() {
    let linked = UIDevice.current.linkedMajorVersion
    guard linked >= 15 || (linked >= 13 && prefersLargeTitles) else { return }
    let given = self[scrollEdgeKey]
    guard scrollEdgeAppearance == nil || (given != nil && scrollEdgeAppearance === given) else {
      return
    }
    let appearance = standardAppearance?.copy() ?? legacyLook()
    guard given.map({ !$0.looksLike(appearance) }) ?? true else { return }
    scrollEdgeAppearance = appearance
    self[scrollEdgeKey] = scrollEdgeAppearance
  }

  /// The bar's legacy properties as an appearance.
  private func legacyLook() -> UINavigationBarAppearance {
    let appearance = UINavigationBarAppearance()
    if let image = backgroundImage(for: .default) {
      appearance.configureWithTransparentBackground()
      appearance.backgroundImage = image.isEmpty ? nil : image
    } else {
      appearance.configureWithDefaultBackground()
      appearance.backgroundColor = barTintColor
    }
    if let shadow = shadowImage { appearance.shadowImage = shadow }
    appearance.titleTextAttributes = titleTextAttributes ?? [:]
    return appearance
  }

  /// After the bar's legacy background image changed: the scroll-edge look the fixed mode gave
  /// follows it.
  internal func transparentFollowLegacyLook() {
    guard TransparentBarPlugin.mode.value == .fixed, self[scrollEdgeKey] != nil else { return }
    keepBackgroundAtScrollEdge()
  }

  /// Whether `view` is a bar's background container, by its class's name, as an app finds it.
  private static func isBackground(_ view: UIView) -> Bool {
    let name = object_getClass(view)?.name
    return name == "_UIBarBackground" || name == "_UINavigationBarBackground"
  }

  /// The fixed mode's answer to a bar inserting its background (again): the top controller's
  /// values are set on it, as HBDNavigationBar's iOS 18 fix does in `didAddSubview:` and
  /// WRNavigationBar issue 153's in `insertSubview:atIndex:`.
  internal func transparentBackgroundInserted(_ view: UIView) {
    guard TransparentBarPlugin.mode.value == .fixed, UINavigationBar.isBackground(view),
      let navigation = delegate as? UINavigationController, navigation.navigationBar === self,
      let top = navigation.topViewController
    else { return }
    navigation.transparentApply(top)
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
  /// colour at index 0 of the first subview, as tall as the status bar and the bar
  /// (``TransparentMode/fixed``; found by its class there) or, as the EM article wrote it,
  /// `deviceName == .iPhoneX ? 64 : 88` (``TransparentMode/seed``): 64 points on a phone with
  /// the notch, 88 on the others, the wrong way round.
  public func transparentSetBackgroundColor(_ color: UIColor) {
    let seed = TransparentBarPlugin.mode.value == .seed
    let container = seed ? subviews.first : subviews.first(where: UINavigationBar.isBackground)
    if let view = self[backgroundViewKey], let superview = view.superview,
      superview.superview === self || (!seed && UINavigationBar.isBackground(superview))
    {
      view.backgroundColor = color
      return
    }
    guard let container else { return }
    setBackgroundImage(UIImage(), for: .default)
    let notch = UIScreen.main.profile.statusBarHeight >= 44
    let height =
      seed ? (notch ? 64 : 88) : UIScreen.main.profile.statusBarHeight + UINavigationBar.height
    let view = UIView(frame: CGRect(x: 0, y: 0, width: bounds.width, height: height))
    view.autoresizingMask = .flexibleWidth
    view.backgroundColor = color
    container.insertSubview(view, at: 0)
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
    // The scroll-edge appearance the fixed mode gave, unless the app replaced it since.
    if let given = self[scrollEdgeKey], scrollEdgeAppearance === given {
      scrollEdgeAppearance = nil
    }
    self[scrollEdgeKey] = nil
  }
}

extension UINavigationBarAppearance {
  /// Whether the two draw the same bar.
  fileprivate func looksLike(_ other: UINavigationBarAppearance) -> Bool {
    hasBackgroundEffect == other.hasBackgroundEffect && backgroundColor == other.backgroundColor
      && backgroundImage === other.backgroundImage && shadowColor == other.shadowColor
      && shadowImage === other.shadowImage
      && titleTextAttributes.foregroundColor == other.titleTextAttributes.foregroundColor
  }
}
