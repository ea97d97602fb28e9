// The one-line API of ETNavBarTransparent and EMNavigationBarTransition: each view controller's
// bar, stored as associated objects, applied at once when the controller is on top.
public import Foundation
import ObjCRuntime
public import UIKitModel

private enum Keys {
  static let backgroundAlpha = AssociatedKey<CGFloat?>(default: nil)
  static let tintColor = AssociatedKey<UIColor?>()
  static let backgroundColor = AssociatedKey<UIColor?>()
  static let titleColor = AssociatedKey<UIColor?>()
  static let statusBarStyle = AssociatedKey<Int?>(default: nil)
  static let shadowHidden = AssociatedKey<Bool?>(default: nil)
}

/// The seeds' defaults.
public enum TransparentBarDefaults {
  /// ET's `defaultNavBarTintColor`: red 0, green 0.478431, blue 1.
  public static let tintColor = UIColor(red: 0, green: 0.478431, blue: 1, alpha: 1)
  /// EM's bar colour: white.
  public static let backgroundColor = UIColor.white
  /// EM's title colour: black.
  public static let titleColor = UIColor.black
}

extension UIViewController {
  /// The bar background's alpha while this controller is on top (default 1). Clamped to
  /// `0...1`; NaN and infinities are refused with a warning and the stored value kept. Applied
  /// at once when the controller is its navigation controller's top one, as ET's setter does.
  public var navBarBgAlpha: CGFloat {
    get { self[Keys.backgroundAlpha] ?? 1 }
    set {
      guard newValue.isFinite else {
        Diagnostics.warn(
          "transparent: navBarBgAlpha of \(self) was set to \(newValue); it stays \(navBarBgAlpha)",
          kind: .refusedValue)
        return
      }
      let alpha = max(0, min(1, newValue))
      self[Keys.backgroundAlpha] = alpha
      if let navigation = transparentNavigation {
        navigation.transparentSetBackgroundAlpha(alpha)
      }
    }
  }

  /// The bar's button tint while this controller is on top (default ET's system blue).
  public var navBarTintColor: UIColor {
    get { self[Keys.tintColor] ?? TransparentBarDefaults.tintColor }
    set {
      // ET sets the live bar first, then stores the value.
      transparentNavigation?.navigationBar.tintColor = newValue
      self[Keys.tintColor] = newValue
    }
  }

  /// The bar's background colour while this controller is on top (EM; default white). ET has
  /// no colour: the plugin leaves the bar's own background alone until a controller sets one.
  public var navBarBgColor: UIColor {
    get { self[Keys.backgroundColor] ?? TransparentBarDefaults.backgroundColor }
    set {
      self[Keys.backgroundColor] = newValue
      transparentNavigation?.navigationBar.transparentSetBackgroundColor(newValue)
    }
  }

  /// The title's colour while this controller is on top (EM; default black).
  public var navBarTitleColor: UIColor {
    get { self[Keys.titleColor] ?? TransparentBarDefaults.titleColor }
    set {
      self[Keys.titleColor] = newValue
      transparentNavigation?.navigationBar.transparentSetTitleColor(newValue)
    }
  }

  /// The status bar style while this controller is on top (EM; default `.default`). Setting it
  /// asks for a status bar update.
  public var statusBarStyle: UIStatusBarStyle {
    get { self[Keys.statusBarStyle].flatMap(UIStatusBarStyle.init(rawValue:)) ?? .default }
    set {
      self[Keys.statusBarStyle] = newValue.rawValue
      setNeedsStatusBarAppearanceUpdate()
    }
  }

  /// Whether the bar's hairline is hidden while this controller is on top (EM; default false).
  public var isHiddenShadowImage: Bool {
    get { self[Keys.shadowHidden] ?? false }
    set {
      self[Keys.shadowHidden] = newValue
      transparentNavigation?.navigationBar.transparentSetShadowHidden(newValue)
    }
  }

  /// Whether this controller has set a status bar style of its own.
  internal var hasOwnStatusBarStyle: Bool { self[Keys.statusBarStyle] != nil }

  /// Whether this controller has set a background colour of its own (the plugin draws a
  /// background view only for those).
  internal var hasOwnBarBackgroundColor: Bool { self[Keys.backgroundColor] != nil }

  /// The navigation controller whose bar this controller's values go to now: its own, when it
  /// is that controller's top one.
  internal var transparentNavigation: UINavigationController? {
    guard let navigation = navigationController, navigation.topViewController === self else {
      return nil
    }
    return navigation
  }
}
