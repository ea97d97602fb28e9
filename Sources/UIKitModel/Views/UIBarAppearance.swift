// iOS 13's bar appearances: a bar's look as a value (`UIBarAppearance`), with the navigation
// bar's title attributes (`UINavigationBarAppearance`) and the tab bar's (`UITabBarAppearance`).
import Foundation

/// A bar's background and hairline as a value, as UIKit's `UIBarAppearance` (iOS 13), the base
/// of ``UINavigationBarAppearance`` and ``UITabBarAppearance``: a background (effect, colour,
/// image) and a hairline (colour, image). A bar keeps a copy of what it is given.
@preconcurrency @MainActor
public class UIBarAppearance {
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

  /// The default appearance: the system's translucent background and hairline.
  public required init() {}

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
  public func copy() -> Self {
    let copy = Self()
    copy.takeValues(of: self)
    return copy
  }

  /// Takes every value of `other`; a subclass adds its own.
  func takeValues(of other: UIBarAppearance) {
    hasBackgroundEffect = other.hasBackgroundEffect
    backgroundColor = other.backgroundColor
    backgroundImage = other.backgroundImage
    shadowColor = other.shadowColor
    shadowImage = other.shadowImage
  }
}

/// A navigation bar's look as a value, as UIKit's `UINavigationBarAppearance` (iOS 13): the
/// background and hairline of every bar appearance, and title attributes. Give one to a bar's
/// ``UINavigationBar/standardAppearance``, ``UINavigationBar/scrollEdgeAppearance`` or
/// ``UINavigationBar/compactAppearance``; the bar keeps a copy.
///
/// ```swift
/// let appearance = UINavigationBarAppearance()
/// appearance.configureWithOpaqueBackground()
/// appearance.backgroundColor = .blue
/// bar.standardAppearance = appearance
/// bar.scrollEdgeAppearance = appearance   // iOS 15: or the bar turns transparent at the top
/// ```
public final class UINavigationBarAppearance: UIBarAppearance {
  /// The title's attributes; empty uses the bar's.
  public var titleTextAttributes: TextAttributes = [:]
  /// The large title's attributes (iOS 11's large titles); nil uses the bar's.
  public var largeTitleTextAttributes: TextAttributes?

  /// The default appearance: the system's translucent background and hairline.
  public required init() {
    super.init()
  }

  override func takeValues(of other: UIBarAppearance) {
    super.takeValues(of: other)
    titleTextAttributes = (other as? UINavigationBarAppearance)?.titleTextAttributes ?? [:]
    largeTitleTextAttributes = (other as? UINavigationBarAppearance)?.largeTitleTextAttributes
  }
}

/// A tab bar's look as a value, as UIKit's `UITabBarAppearance` (iOS 13): the background and
/// hairline of every bar appearance (the items' looks are not modelled). Give one to a tab
/// bar's ``UITabBar/standardAppearance`` or, from iOS 15, ``UITabBar/scrollEdgeAppearance``.
public final class UITabBarAppearance: UIBarAppearance {
  /// The default appearance: the system's translucent background and hairline.
  public required init() {
    super.init()
  }
}

extension UIBarAppearance {
  /// What a bar draws at its content's edge from iOS 15, for an application built with the iOS
  /// 15 SDK: its scroll-edge appearance, or else its standard look (`standard`, or the legacy
  /// properties' when none is set) with a transparent background (Apple developer forums
  /// thread 682420: the scroll-edge appearance "by default produces a transparent background").
  static func drawnAtScrollEdge<Appearance: UIBarAppearance>(
    _ scrollEdge: Appearance?, standard: Appearance?, legacy: () -> Appearance
  ) -> Appearance {
    if let scrollEdge { return scrollEdge }
    let transparent = standard?.copy() ?? legacy()
    transparent.configureWithTransparentBackground()
    return transparent
  }
}

/// A bar that draws another look when its content reaches an edge (iOS 15 with its SDK): the
/// navigation bar at the top of its page's content, the tab bar at the bottom.
@preconcurrency @MainActor
protocol ScrollEdgeDrawing: AnyObject {
  /// Whether the content is at the bar's edge now.
  var isAtScrollEdge: Bool { get }
  /// Whether the bar was last drawn at the edge.
  var drawnAtScrollEdge: Bool { get set }
  /// Draws the bar again.
  func redrawForScrollEdge()
}

extension ScrollEdgeDrawing {
  /// Draws the bar again if its content crossed the edge since the bar was last drawn (iOS 15
  /// with its SDK): the scroll view tells the bars as it scrolls, the controllers as the page
  /// on screen changes.
  func scrollEdgeMayHaveChanged() {
    guard UIDevice.current.linkedMajorVersion >= 15 else { return }
    let atEdge = isAtScrollEdge
    guard atEdge != drawnAtScrollEdge else { return }
    drawnAtScrollEdge = atEdge
    redrawForScrollEdge()
  }
}

extension UIColor {
  /// A bar tint colour as a bar draws it: a little see-through when the bar is translucent.
  func asBarTint(translucent: Bool) -> UIColor {
    translucent ? withAlphaComponent(alpha * 0.85) : self
  }
}
