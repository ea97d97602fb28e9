// UIColor: an immutable sRGB colour with UIKit's names.
public import Foundation
public import ObjCRuntime

/// A colour in the sRGB space with an alpha, as UIKit's `UIColor` in the sRGB case.
///
/// Colours are immutable objects that travel through the runtime as `@`. The red, green and blue
/// components are stored as given (UIKit keeps extended-range values too); the alpha is clamped
/// to 0...1, as Apple documents for `init(red:green:blue:alpha:)` ("values below 0.0 are
/// interpreted as 0.0, and values above 1.0 are interpreted as 1.0").
/// `getRed(_:green:blue:alpha:)` answers them.
/// Two colours are equal when their components are; the named colours (`white`, `clear`...) are
/// shared instances, as in UIKit.
public final class UIColor: ObjCObject, @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable, and the isa is atomic.

  /// The components.
  public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

  /// A colour from its sRGB components, each from 0 to 1; an alpha outside 0...1 is clamped. A
  /// NaN or infinite component, which names no colour, is taken as 0 and reported
  /// (``UIKitModelIssue/invalidColor(_:)``), so it never reaches what tests compare.
  public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    // Tested without an array: colours are made on every redraw of a bar.
    if !(red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite) {
      let given = [red, green, blue, alpha]
      UIKitModelIssues.report(.invalidColor(given.map { "\($0)" }.joined(separator: ", ")))
    }
    func finite(_ value: CGFloat) -> CGFloat { value.isFinite ? value : 0 }
    self.red = finite(red)
    self.green = finite(green)
    self.blue = finite(blue)
    self.alpha = max(0, min(1, finite(alpha)))
    super.init()
  }

  /// A grey: `white` from 0 (black) to 1 (white).
  public convenience init(white: CGFloat, alpha: CGFloat) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  /// A colour from a 24-bit `0xRRGGBB` value.
  public convenience init(hex: UInt32, alpha: CGFloat = 1) {
    self.init(
      red: CGFloat((hex >> 16) & 0xFF) / 255, green: CGFloat((hex >> 8) & 0xFF) / 255,
      blue: CGFloat(hex & 0xFF) / 255, alpha: alpha)
  }

  /// Writes the components to the pointers that are not nil; returns true, as UIKit does for a
  /// colour in an RGB-compatible space (every colour here is).
  @discardableResult
  public func getRed(
    _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
    blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
  ) -> Bool {
    red?.pointee = self.red
    green?.pointee = self.green
    blue?.pointee = self.blue
    alpha?.pointee = self.alpha
    return true
  }

  /// The same colour with another alpha.
  public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
    UIColor(red: red, green: green, blue: blue, alpha: alpha)
  }

  /// `self` drawn over `background` with `opacity` (Porter-Duff "over"): how the model
  /// composites what the user sees.
  public func composited(over background: UIColor, opacity: CGFloat = 1) -> UIColor {
    let top = alpha * max(0, min(1, opacity))
    let outAlpha = top + background.alpha * (1 - top)
    guard outAlpha > 0 else { return .clear }
    func mix(_ upper: CGFloat, _ lower: CGFloat) -> CGFloat {
      (upper * top + lower * background.alpha * (1 - top)) / outAlpha
    }
    return UIColor(
      red: mix(red, background.red), green: mix(green, background.green),
      blue: mix(blue, background.blue), alpha: outAlpha)
  }

  /// The colour `fraction` of the way from `self` to `other`, component by component (what the
  /// seeds' colour interpolation computes).
  public func interpolated(to other: UIColor, fraction: CGFloat) -> UIColor {
    // NaN or an infinity is no point between the two: the colour stays as it is.
    guard fraction.isFinite else { return self }
    func lerp(_ from: CGFloat, _ to: CGFloat) -> CGFloat { from + (to - from) * fraction }
    return UIColor(
      red: lerp(red, other.red), green: lerp(green, other.green), blue: lerp(blue, other.blue),
      alpha: lerp(alpha, other.alpha))
  }

  /// `#RRGGBBAA`, each component rounded to 8 bits.
  public var hexDescription: String {
    func byte(_ value: CGFloat) -> String {
      let clamped = Int((max(0, min(1, value)) * 255).rounded())
      let digits = String(clamped, radix: 16, uppercase: true)
      return digits.count == 1 ? "0" + digits : digits
    }
    return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
  }

  /// `UIColor #RRGGBBAA`.
  public override var description: String { "UIColor \(hexDescription)" }

  /// Equal components.
  public override func isEqual(_ other: ObjCObject?) -> Bool {
    guard let other = other as? UIColor else { return false }
    return red == other.red && green == other.green && blue == other.blue
      && alpha == other.alpha
  }

  /// A hash of the components.
  public override var hash: Int {
    var hasher = Hasher()
    for component in [red, green, blue, alpha] { hasher.combine(component) }
    return hasher.finalize()
  }

  /// Opaque white.
  public static let white = UIColor(white: 1, alpha: 1)
  /// Opaque black.
  public static let black = UIColor(white: 0, alpha: 1)
  /// Transparent black.
  public static let clear = UIColor(white: 0, alpha: 0)
  /// UIKit's `systemBlue` (light appearance), the default tint: (0, 0.478431, 1, 1).
  public static let systemBlue = UIColor(red: 0, green: 122.0 / 255, blue: 1, alpha: 1)
  /// UIKit's `red`.
  public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
  /// UIKit's `green`.
  public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
  /// UIKit's `blue`.
  public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
  /// UIKit's `orange`.
  public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
  /// Cyan (`UIColor.cyanColor`: 0, 1, 1).
  public static let cyan = UIColor(red: 0, green: 1, blue: 1, alpha: 1)
  /// UIKit's `yellow` (1, 1, 0).
  public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
  /// UIKit's `magenta` (1, 0, 1).
  public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
  /// UIKit's `purple` (0.5, 0, 0.5).
  public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
  /// UIKit's `brown` (0.6, 0.4, 0.2).
  public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
  /// UIKit's `gray` (white 0.5).
  public static let gray = UIColor(white: 0.5, alpha: 1)
  /// UIKit's `lightGray` (white 2/3).
  public static let lightGray = UIColor(white: 2.0 / 3, alpha: 1)
  /// UIKit's `darkGray` (white 1/3).
  public static let darkGray = UIColor(white: 1.0 / 3, alpha: 1)
  /// The bar background of a default translucent navigation bar, as seen over white (light
  /// appearance): (0.97, 0.97, 0.97).
  public static let systemBarBackground = UIColor(white: 0.97, alpha: 1)
  /// The same, translucent: what the bar's effect view is filled with, (0.97, 0.97, 0.97) at
  /// 80 %.
  static let systemBarTranslucentBackground = UIColor(white: 0.97, alpha: 0.8)
  /// The hairline under a navigation bar: black at 30 %.
  public static let systemBarShadow = UIColor(white: 0, alpha: 0.3)
}
