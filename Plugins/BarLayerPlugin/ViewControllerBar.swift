// The one-line API: each view controller's bar, stored as associated objects, with the
// original's rules for when a change reaches the live bar.
public import Foundation
import Hooks
import ObjCRuntime
import Synchronization
public import UIKitModel

private enum Keys {
  static let barTintColor = AssociatedKey<UIColor?>()
  static let backgroundImage = AssociatedKey<UIImage?>()
  static let backgroundAlpha = AssociatedKey<CGFloat?>(default: nil)
  static let tintColor = AssociatedKey<UIColor?>()
  static let titleColor = AssociatedKey<UIColor?>()
  static let statusBarStyle = AssociatedKey<Int?>(default: nil)
  static let shadowHidden = AssociatedKey<Bool?>(default: nil)
  static let customBar = AssociatedKey<UIView?>()
  static let pushToCurrentFinished = AssociatedKey<Bool>(default: false)
  static let pushToNextFinished = AssociatedKey<Bool>(default: false)
}

extension UIViewController {
  // MARK: The one-line API

  /// The bar's background colour for this controller (default: the settings'). Applied at once
  /// when the controller is on top and not being covered or uncovered by a transition.
  public var navBarBarTintColor: UIColor {
    get { self[Keys.barTintColor] ?? BarLayer.settings.value.defaultBarTintColor.color }
    set {
      self[Keys.barTintColor] = newValue
      if canUpdateBarTintOrAlpha { barLayerBar?.barLayerSetBackgroundColor(newValue) }
    }
  }

  /// The bar's background image for this controller, shown instead of the colour.
  public var navBarBackgroundImage: UIImage? {
    get {
      self[Keys.backgroundImage]
        ?? BarLayer.settings.value.defaultBackgroundImageName.flatMap(UIImage.init(named:))
    }
    set {
      self[Keys.backgroundImage] = newValue
      if canUpdateBarTintOrAlpha, let newValue { barLayerBar?.barLayerSetBackgroundImage(newValue) }
    }
  }

  /// The background's alpha for this controller (default 1).
  public var navBarBackgroundAlpha: CGFloat {
    get { self[Keys.backgroundAlpha] ?? BarLayer.settings.value.defaultBackgroundAlpha }
    set {
      guard !newValue.isNaN else {
        Diagnostics.warn(
          "bar-layer: navBarBackgroundAlpha of \(self) was set to NaN; it stays"
            + " \(navBarBackgroundAlpha)", kind: .refusedValue)
        return
      }
      let alpha = max(0, min(1, newValue))
      self[Keys.backgroundAlpha] = alpha
      if canUpdateBarTintOrAlpha { barLayerBar?.barLayerSetBackgroundAlpha(alpha) }
    }
  }

  /// The buttons' tint for this controller.
  public var navBarTintColor: UIColor {
    get { self[Keys.tintColor] ?? BarLayer.settings.value.defaultTintColor.color }
    set {
      self[Keys.tintColor] = newValue
      if canUpdateBarLayer, !pushToNextVCFinished { barLayerBar?.tintColor = newValue }
    }
  }

  /// The title's colour for this controller.
  public var navBarTitleColor: UIColor {
    get { self[Keys.titleColor] ?? BarLayer.settings.value.defaultTitleColor.color }
    set {
      self[Keys.titleColor] = newValue
      if canUpdateBarLayer, !pushToNextVCFinished { barLayerBar?.barLayerSetTitleColor(newValue) }
    }
  }

  /// The status bar style for this controller; setting it asks for the status bar to update.
  public var statusBarStyle: UIStatusBarStyle {
    get {
      self[Keys.statusBarStyle].flatMap(UIStatusBarStyle.init(rawValue:))
        ?? BarLayer.settings.value.defaultStatusBarStyle
    }
    set {
      self[Keys.statusBarStyle] = newValue.rawValue
      setNeedsStatusBarAppearanceUpdate()
    }
  }

  /// Whether the hairline under the bar is hidden for this controller; always applied at once.
  public var navBarShadowImageHidden: Bool {
    get { self[Keys.shadowHidden] ?? BarLayer.settings.value.defaultShadowImageHidden }
    set {
      self[Keys.shadowHidden] = newValue
      if canUpdateBarLayer { barLayerBar?.barLayerSetShadowHidden(newValue) }
    }
  }

  /// A bar view of the controller's own (a `UINavigationBar` it added to its view): the same
  /// one-line API is then applied to it, and the system bar is left alone.
  public var customNavBar: UIView? {
    get { self[Keys.customBar] }
    set {
      self[Keys.customBar] = newValue
      if BarLayerPluginRules.isInstalled, let bar = newValue as? UINavigationBar {
        applyBarLayer(to: bar)
      }
    }
  }

  // MARK: Rules

  /// The bar this controller's values go to: its custom bar, else its navigation controller's.
  internal var barLayerBar: UINavigationBar? {
    (self[Keys.customBar] as? UINavigationBar) ?? navigationController?.navigationBar
  }

  /// Whether the plugin manages this controller: the plugin is installed (taken off, it
  /// changes no bar, whatever is set here: the values are kept for the next install), the
  /// controller is in a navigation controller's stack (WR-O's rule, which also excludes embedded
  /// children), and the black- and whitelists allow it.
  public var canUpdateBarLayer: Bool {
    guard BarLayerPluginRules.isInstalled else { return false }
    if self[Keys.customBar] is UINavigationBar { return true }
    // Identity by a loop, not `contains(where:)`: a main-actor closure the standard library
    // calls checks its executor each time (SE-0423), and this runs on every appearance callback.
    guard let navigation = navigationController else { return false }
    var inStack = false
    for controller in navigation.viewControllers where controller === self {
      inStack = true
      break
    }
    guard inStack else { return false }
    return BarLayerPluginRules.manages(self)
  }

  /// Whether the controller finished being pushed onto (WRNavigationBar's
  /// `pushToCurrentVCFinished`).
  internal var pushToCurrentVCFinished: Bool {
    get { self[Keys.pushToCurrentFinished] }
    set { self[Keys.pushToCurrentFinished] = newValue }
  }

  /// Whether a push covering the controller finished (`pushToNextVCFinished`).
  internal var pushToNextVCFinished: Bool {
    get { self[Keys.pushToNextFinished] }
    set { self[Keys.pushToNextFinished] = newValue }
  }

  private var isRootOfStack: Bool { navigationController?.viewControllers.first === self }

  /// The original's gate for the background: the controller is in (or is the root) and not
  /// covered, so a display link or gesture is not driving the bar for it.
  private var canUpdateBarTintOrAlpha: Bool {
    if self[Keys.customBar] is UINavigationBar { return canUpdateBarLayer }
    return canUpdateBarLayer && (pushToCurrentVCFinished || isRootOfStack)
      && !pushToNextVCFinished && navigationController?.topViewController === self
  }

  /// Applies every value of this controller to `bar`.
  internal func applyBarLayer(to bar: UINavigationBar) {
    if let image = navBarBackgroundImage {
      bar.barLayerSetBackgroundImage(image)
    } else {
      bar.barLayerSetBackgroundColor(navBarBarTintColor)
    }
    bar.barLayerSetBackgroundAlpha(navBarBackgroundAlpha)
    bar.tintColor = navBarTintColor
    bar.barLayerSetTitleColor(navBarTitleColor)
    bar.barLayerSetShadowHidden(navBarShadowImageHidden)
  }
}

/// Whether the plugin is on, and the black- and whitelists.
internal enum BarLayerPluginRules {
  /// Whether the plugin is installed (``BarLayerPlugin``'s flag).
  static var isInstalled: Bool { BarLayerPlugin.isOn.load(ordering: .acquiring) }

  static func manages(_ controller: UIViewController) -> Bool {
    let settings = BarLayer.settings.value
    var cls: Class? = object_getClass(controller)
    var names: [String] = []
    while let current = cls {
      names.append(current.name)
      cls = current.superclass
    }
    if names.contains(where: settings.blacklist.contains) { return false }
    if !settings.whitelist.isEmpty { return names.contains(where: settings.whitelist.contains) }
    return true
  }
}
