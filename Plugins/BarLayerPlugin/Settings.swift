// The plugin's global settings: the defaults every controller starts from, the lists of
// controller classes it leaves alone, and the transition timing.
public import Foundation
public import Hooks
import ObjCRuntime
public import UIKitModel

/// The bar-layer plugin's global settings, as WRNavigationBar's `WRNavigationBar` class
/// variables (`defaultNavBarBarTintColor`...) plus the lists and timing it adds.
public struct BarLayerSettings: Sendable {
  /// The bar background colour of a controller that set none: white.
  public var defaultBarTintColor: UIColorComponents = UIColorComponents(.white)
  /// The background image of a controller that set none.
  public var defaultBackgroundImageName: String?
  /// The button tint: `(0, 0.478431, 1, 1)`, the system blue.
  public var defaultTintColor = UIColorComponents(red: 0, green: 0.478431, blue: 1, alpha: 1)
  /// The title colour: black.
  public var defaultTitleColor = UIColorComponents(.black)
  /// The status bar style: `.default`.
  public var defaultStatusBarStyle: UIStatusBarStyle = .default
  /// Whether the hairline is hidden: no.
  public var defaultShadowImageHidden = false
  /// The background alpha: 1 (WRNavigationBar does not let it be set).
  public let defaultBackgroundAlpha: CGFloat = 1
  /// Controller classes the plugin leaves alone (WRNavigationBar's answer to image pickers),
  /// by runtime class name.
  public var blacklist: Set<String> = []
  /// When not empty, the only controller classes the plugin manages.
  public var whitelist: Set<String> = []
  /// The duration of the display-link progress of a push: 0.13 s.
  public var pushDuration: TimeInterval = 0.13
  /// The duration of the display-link progress of a pop, popTo and popToRoot: 0.13 s.
  public var popDuration: TimeInterval = 0.13
  /// Whether a cancelled swipe-back snaps back at once, as the Objective-C version does, instead
  /// of animating over `duration x percent`.
  public var instantCancel = false

  /// The default settings.
  public init() {}
}

/// The settings in force.
public enum BarLayer {
  /// The settings in force; change them through `value` (for example at launch, as the seed's
  /// demo sets a blue bar with white text).
  public static let settings = PluginSetting(BarLayerSettings())

  /// The progress of a display-link transition after `ticks` frames of a transition lasting
  /// `duration`: `min(all, ticks) / all` with `all = 60 x duration`, WRNavigationBar's formula,
  /// without its integer truncation (the Objective-C pop stopped at 7 / 7.2).
  public static func progress(ticks: Int, duration: TimeInterval) -> CGFloat {
    let all = CGFloat(60 * duration)
    guard all > 0 else { return 1 }
    return min(all, CGFloat(ticks)) / all
  }

  /// `from + (to - from) x percent` per RGBA component, each clamped to 0...1 (the originals do
  /// not clamp).
  public static func middleColor(
    _ from: UIColorComponents, _ to: UIColorComponents, _ percent: CGFloat
  ) -> UIColorComponents {
    func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat { max(0, min(1, a + (b - a) * percent)) }
    return UIColorComponents(
      red: mix(from.red, to.red), green: mix(from.green, to.green), blue: mix(from.blue, to.blue),
      alpha: mix(from.alpha, to.alpha))
  }

  /// `from + (to - from) x percent`, clamped to 0...1.
  public static func middleAlpha(_ from: CGFloat, _ to: CGFloat, _ percent: CGFloat) -> CGFloat {
    max(0, min(1, from + (to - from) * percent))
  }
}
