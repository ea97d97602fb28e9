// UIImage, UIFont and title text attributes, as far as the navigation-bar techniques use them.
public import Foundation
public import ObjCRuntime

/// An image: empty (`UIImage()`, what the seeds set to make a bar background clear), a solid
/// colour, or a named image; the model keeps its size and, for solid images, its colour.
public final class UIImage: ObjCObject, @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable, and the isa is atomic.

  /// The image's size in points; zero for an empty image.
  public let size: CGSize
  /// The colour of a solid image; nil for an empty or named one.
  public let solidColor: UIColor?
  /// The name of a named image.
  public let name: String?

  /// An empty image, zero by zero.
  public init() {
    size = .zero
    solidColor = nil
    name = nil
    super.init()
  }

  /// An image filled with `color`.
  public init(color: UIColor, size: CGSize = CGSize(width: 1, height: 1)) {
    self.size = size
    solidColor = color
    name = nil
    super.init()
  }

  /// A named image; the model knows no files, so every name makes a 24-point image.
  public init?(named name: String) {
    guard !name.isEmpty else { return nil }
    size = CGSize(width: 24, height: 24)
    solidColor = nil
    self.name = name
    super.init()
  }

  /// Whether the image is empty (zero size, no colour, no name).
  public var isEmpty: Bool { size == .zero && solidColor == nil && name == nil }

  /// `UIImage(empty)`, `UIImage(#RRGGBBAA 1x1)` or `UIImage(named: x)`.
  public override var description: String {
    if let solidColor {
      return "UIImage(\(solidColor.hexDescription) \(size.width)x\(size.height))"
    }
    if let name { return "UIImage(named: \(name))" }
    return "UIImage(empty)"
  }
}

/// A font: the model keeps its name and size only.
public final class UIFont: ObjCObject, @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable, and the isa is atomic.

  /// The font's name.
  public let fontName: String
  /// Its size in points.
  public let pointSize: CGFloat

  /// A font by name and size; nil for an empty name, as UIKit answers for an unknown one.
  public init?(name: String, size: CGFloat) {
    guard !name.isEmpty else { return nil }
    fontName = name
    pointSize = size
    super.init()
  }

  private init(systemName: String, size: CGFloat) {
    fontName = systemName
    pointSize = size
    super.init()
  }

  /// The system font.
  public static func systemFont(ofSize size: CGFloat) -> UIFont {
    UIFont(systemName: ".SFUI-Regular", size: size)
  }

  /// The bold system font.
  public static func boldSystemFont(ofSize size: CGFloat) -> UIFont {
    UIFont(systemName: ".SFUI-Semibold", size: size)
  }

  /// Same name and size.
  public override func isEqual(_ other: ObjCObject?) -> Bool {
    guard let other = other as? UIFont else { return false }
    return fontName == other.fontName && pointSize == other.pointSize
  }

  /// A hash of name and size.
  public override var hash: Int { fontName.hashValue ^ pointSize.hashValue }
}

/// The keys of text attributes, as UIKit's `NSAttributedString.Key` (Foundation on Linux has the
/// type, without UIKit's keys; these are the model's).
public struct TextAttributeKey: Hashable, Sendable, RawRepresentable {
  /// The key's name, as UIKit spells it.
  public let rawValue: String

  /// A key from its name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The text colour (a `UIColor`).
  public static let foregroundColor = TextAttributeKey(rawValue: "NSColor")
  /// The font (a `UIFont`).
  public static let font = TextAttributeKey(rawValue: "NSFont")
}

/// Title text attributes, as UIKit passes them: values of any type by key.
public typealias TextAttributes = [TextAttributeKey: any Sendable]

extension Dictionary where Key == TextAttributeKey, Value == any Sendable {
  /// The foreground colour, if set.
  public var foregroundColor: UIColor? { self[.foregroundColor] as? UIColor }
  /// The font, if set.
  public var font: UIFont? { self[.font] as? UIFont }
}
