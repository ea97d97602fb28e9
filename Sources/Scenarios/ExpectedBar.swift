// What a test or a scenario expects the user to see of a bar, compared with a tolerance.
public import Foundation
public import UIKitModel

/// What a test expects the user to see of a bar. Every field is optional: only those given are
/// checked.
///
/// ```swift
/// expectBar(session.navigationController.navigationBar,
///           ExpectedBar(background: .blue, backgroundAlpha: 1, titleColor: .white))
/// ```
public struct ExpectedBar: Sendable, Equatable {
  /// The background as composited over what is behind the bar.
  public var background: UIColor?
  /// How opaque the background is, 0 to 1.
  public var backgroundAlpha: CGFloat?
  /// The buttons' tint.
  public var tint: UIColor?
  /// The title colour, its alpha the title's opacity.
  public var titleColor: UIColor?
  /// The large title's colour, its alpha the large title's opacity: a large title must show.
  public var largeTitleColor: UIColor?
  /// The status bar style.
  public var statusBarStyle: UIStatusBarStyle?
  /// The bar's vertical offset.
  public var translationY: CGFloat?
  /// Whether the hairline shows.
  public var hairline: Bool?
  /// The bar's height.
  public var height: CGFloat?
  /// Whether the bar is hidden (`isNavigationBarHidden`).
  public var hidden: Bool?

  /// An expectation of the given values.
  public init(
    background: UIColor? = nil, backgroundAlpha: CGFloat? = nil, tint: UIColor? = nil,
    titleColor: UIColor? = nil, statusBarStyle: UIStatusBarStyle? = nil,
    translationY: CGFloat? = nil, hairline: Bool? = nil, height: CGFloat? = nil,
    hidden: Bool? = nil, largeTitleColor: UIColor? = nil
  ) {
    self.hidden = hidden
    self.largeTitleColor = largeTitleColor
    self.background = background
    self.backgroundAlpha = backgroundAlpha
    self.tint = tint
    self.titleColor = titleColor
    self.statusBarStyle = statusBarStyle
    self.translationY = translationY
    self.hairline = hairline
    self.height = height
  }

  /// The differences between this expectation and what `seen` shows (of a bar `height` tall), one
  /// line each (`background: expected #0000FFFF, seen #FF0000FF`); colours and numbers match
  /// within `tolerance` on each component. Empty when everything given matches. When the bar
  /// seen is hidden, each other line says so: its colours are then what is behind it.
  public func differences(
    from seen: SeenBar, height seenHeight: CGFloat? = nil,
    tolerance: CGFloat = 0.01
  ) -> [String] {
    var lines: [String] = []
    if let hidden, hidden != seen.isHidden {
      lines.append(
        "hidden: expected \(hidden ? "hidden" : "shown"), seen \(seen.isHidden ? "hidden" : "shown")"
          + " (frame \(seen.frameDescription))")
    }
    let count = lines.count
    func number(_ name: String, _ expected: CGFloat?, _ actual: CGFloat?) {
      guard let expected, let actual, abs(expected - actual) > tolerance else { return }
      lines.append("\(name): expected \(expected), seen \(actual)")
    }
    func color(_ name: String, _ expected: UIColor?, _ actual: UIColorComponents) {
      guard let expected else { return }
      let wanted = UIColorComponents(expected)
      let off =
        [
          wanted.red - actual.red, wanted.green - actual.green, wanted.blue - actual.blue,
          wanted.alpha - actual.alpha,
        ].map(abs).max() ?? 0
      guard off > tolerance else { return }
      lines.append(
        "\(name): expected \(wanted.color.hexDescription), seen \(actual.color.hexDescription)")
    }
    color("background", background, seen.backgroundColor)
    number("background alpha", backgroundAlpha, seen.backgroundOpacity)
    color("tint", tint, seen.tintColor)
    color("title", titleColor, seen.titleColor)
    if let largeTitleColor {
      if let seenLarge = seen.largeTitleColor {
        color("large title", largeTitleColor, seenLarge)
      } else {
        lines.append(
          "large title: expected \(UIColorComponents(largeTitleColor).color.hexDescription),"
            + " seen none")
      }
    }
    if let statusBarStyle, statusBarStyle != seen.statusBarStyle {
      lines.append("status bar: expected \(statusBarStyle), seen \(seen.statusBarStyle)")
    }
    number("offset", translationY, seen.translationY)
    if let hairline, hairline != seen.shadowVisible {
      lines.append("hairline: expected \(hairline ? "shown" : "hidden"), seen the other")
    }
    number("height", height, seenHeight)
    if seen.isHidden {
      for index in count..<lines.count { lines[index] += " (the bar is hidden)" }
    }
    return lines
  }
}
