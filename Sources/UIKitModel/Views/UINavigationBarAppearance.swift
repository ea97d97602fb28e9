// iOS 13's UINavigationBarAppearance: a bar's look as a value, standard, at the scroll edge and
// compact, and iOS 15's rule that applies the scroll-edge one (transparent unless set) at the top.
import Foundation

/// A bar's look as a value, as UIKit's `UINavigationBarAppearance` (iOS 13): a background
/// (effect, colour, image), a hairline (colour, image) and title attributes. Give one to a
/// bar's ``UINavigationBar/standardAppearance``, ``UINavigationBar/scrollEdgeAppearance`` or
/// ``UINavigationBar/compactAppearance``; the bar keeps a copy.
///
/// ```swift
/// let appearance = UINavigationBarAppearance()
/// appearance.configureWithOpaqueBackground()
/// appearance.backgroundColor = .blue
/// bar.standardAppearance = appearance
/// bar.scrollEdgeAppearance = appearance   // iOS 15: or the bar turns transparent at the top
/// ```
public final class UINavigationBarAppearance {
  /// Whether the background blurs what is behind it (UIKit's `backgroundEffect`, the system
  /// blur by default): the model draws it as the bar style's translucent colour.
  public var hasBackgroundEffect = true
  /// A colour over the effect; nil for none.
  public var backgroundColor: UIColor?
  /// An image over the colour; nil for none.
  public var backgroundImage: UIImage?
  /// The hairline's colour; nil or clear hides it.
  public var shadowColor: UIColor? = .systemBarShadow
  /// The hairline's image, drawn instead of its colour.
  public var shadowImage: UIImage?
  /// The title's attributes; empty uses the bar's.
  public var titleTextAttributes: TextAttributes = [:]

  /// The default appearance: the system's translucent background and hairline.
  public init() {}

  /// The system's translucent background with the hairline, as a new appearance has it.
  public func configureWithDefaultBackground() {
    hasBackgroundEffect = true
    backgroundColor = nil
    backgroundImage = nil
    shadowColor = .systemBarShadow
    shadowImage = nil
  }

  /// An opaque background of the system's bar colour, with the hairline.
  public func configureWithOpaqueBackground() {
    hasBackgroundEffect = false
    backgroundColor = .systemBarBackground
    backgroundImage = nil
    shadowColor = .systemBarShadow
    shadowImage = nil
  }

  /// No background and no hairline: what shows behind the bar shows through.
  public func configureWithTransparentBackground() {
    hasBackgroundEffect = false
    backgroundColor = nil
    backgroundImage = nil
    shadowColor = nil
    shadowImage = nil
  }

  /// A copy (a bar keeps copies, as UIKit's appearances are copied when set).
  public func copy() -> UINavigationBarAppearance {
    let copy = UINavigationBarAppearance()
    copy.hasBackgroundEffect = hasBackgroundEffect
    copy.backgroundColor = backgroundColor
    copy.backgroundImage = backgroundImage
    copy.shadowColor = shadowColor
    copy.shadowImage = shadowImage
    copy.titleTextAttributes = titleTextAttributes
    return copy
  }
}
