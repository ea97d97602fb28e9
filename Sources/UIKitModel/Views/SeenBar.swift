// What the user sees of a navigation bar, as a value (`UINavigationBar.asSeen(over:)`).
public import Foundation
import ObjCRuntime

/// What the user sees of a navigation bar at one moment (``UINavigationBar/asSeen(over:)``). A
/// test states what it expects of it with the testing side's `ExpectedBar`, whose fields are
/// these, each optional; a check's difference reads `expected …, seen …`.
public struct SeenBar: Equatable, Sendable, CustomStringConvertible {
  /// The background, composited over what is behind the bar, at the bar's middle.
  public let backgroundColor: UIColorComponents
  /// The background in the status-bar area above the bar, at the middle of the strip: the
  /// same as ``backgroundColor`` unless something covers one and not the other (a background
  /// view too short for a notch device's status bar).
  public let statusBarAreaColor: UIColorComponents
  /// How opaque the background is, from 0 (what is behind shows through) to 1.
  public let backgroundOpacity: CGFloat
  /// The title colour, with the title's opacity in its alpha.
  public let titleColor: UIColorComponents
  /// The tint of the bar's buttons.
  public let tintColor: UIColorComponents
  /// The opacity of the bar's buttons.
  public let buttonAlpha: CGFloat
  /// Whether the hairline under the bar shows.
  public let shadowVisible: Bool
  /// The bar's vertical offset (its transform's `ty`).
  public let translationY: CGFloat
  /// The status bar style on screen (``UIApplication/resolvedStatusBarStyle``).
  public let statusBarStyle: UIStatusBarStyle
  /// Whether the bar is hidden (`isHidden`, as `setNavigationBarHidden(_:animated:)` sets it):
  /// then nothing of it shows, and the colours above are what is behind it.
  public let isHidden: Bool
  /// The bar's frame in its superview.
  public let frame: CGRect
  /// The large title's colour, with its opacity in its alpha, while the bar shows a large title
  /// (iOS 11 and later, a bar that prefers them); nil otherwise. The row's title is then
  /// transparent: the large title stands for it.
  public let largeTitleColor: UIColorComponents?
  /// How far the bar, as drawn (mid-animation, where it is), reaches below its row: the large
  /// title's area and the search bar's, or what is left of them while the bar's height
  /// animates after they went (0 for a bar of its row's height).
  public let grownHeight: CGFloat
  /// How much of the large title's area shows below the row, as drawn (0 without one).
  public let largeTitleHeight: CGFloat
  /// How much of a search bar shows below the row and the large title, as drawn (iOS 11 and
  /// later, a top item with a search controller; 0 without one, or once it has scrolled away).
  public let searchBarHeight: CGFloat
  /// Whether a search bar shows in the bar.
  public var showsSearchBar: Bool { searchBarHeight > 0 }

  init(
    backgroundColor: UIColor, statusBarAreaColor: UIColor, backgroundOpacity: CGFloat,
    titleColor: UIColor,
    tintColor: UIColor, buttonAlpha: CGFloat, shadowVisible: Bool, translationY: CGFloat,
    statusBarStyle: UIStatusBarStyle, isHidden: Bool = false, frame: CGRect = .zero,
    largeTitleColor: UIColor? = nil, grownHeight: CGFloat = 0, largeTitleHeight: CGFloat = 0,
    searchBarHeight: CGFloat = 0
  ) {
    self.grownHeight = grownHeight
    self.largeTitleHeight = largeTitleHeight
    self.searchBarHeight = searchBarHeight
    self.isHidden = isHidden
    self.largeTitleColor = largeTitleColor.map(UIColorComponents.init)
    self.frame = frame
    self.backgroundOpacity = backgroundOpacity
    self.statusBarStyle = statusBarStyle
    self.backgroundColor = UIColorComponents(backgroundColor)
    self.statusBarAreaColor = UIColorComponents(statusBarAreaColor)
    self.titleColor = UIColorComponents(titleColor)
    self.tintColor = UIColorComponents(tintColor)
    self.buttonAlpha = buttonAlpha
    self.shadowVisible = shadowVisible
    self.translationY = translationY
  }

  /// The bar's frame as four numbers, `x y width height` (`0 20 375 44`): whole points without
  /// a fraction, and any value (an infinite one too) written as it is otherwise.
  public var frameDescription: String {
    [frame.minX, frame.minY, frame.width, frame.height].map { value in
      value.isFinite && value == value.rounded() && abs(value) < 1e15
        ? String(Int(value)) : "\(value)"
    }.joined(separator: " ")
  }

  /// `background #RRGGBBAA, title ..., tint ..., buttons 1.0, shadow, offset 0, status bar ...`,
  /// with `status bar area #RRGGBBAA` after the background when that differs from it, and
  /// `hidden (frame x y w h)` first when the bar is hidden, and `large title #RRGGBBAA` after
  /// the title while a large title shows, and `search bar` after the shadow while one shows.
  public var description: String {
    let statusBarArea =
      statusBarAreaColor == backgroundColor
      ? "" : " status bar area \(statusBarAreaColor.color.hexDescription),"
    let hidden = isHidden ? "hidden (frame \(frameDescription)), " : ""
    return hidden + "background \(backgroundColor.color.hexDescription)"
      + " (opacity \(String(format: "%.2f", Double(backgroundOpacity)))),"
      + statusBarArea
      + " title \(titleColor.color.hexDescription),"
      + (largeTitleColor.map { " large title \($0.color.hexDescription)," } ?? "")
      + " tint \(tintColor.color.hexDescription), buttons \(buttonAlpha),"
      + " \(shadowVisible ? "shadow" : "no shadow"),"
      + (showsSearchBar ? " search bar," : "") + " offset \(translationY),"
      + " status bar \(statusBarStyle)"
  }
}
