// Autoresizing: the mask a view's frame follows when its superview's size changes, and the
// rule that resizes it.
import Foundation

extension UIView {
  /// Autoresizing, as UIKit's `UIView.AutoresizingMask`.
  public struct AutoresizingMask: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt
    /// A mask from its bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The left margin follows the superview's width.
    public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
    /// The width follows the superview's width.
    public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
    /// The right margin follows the superview's width.
    public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
    /// The top margin follows the superview's height.
    public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
    /// The height follows the superview's height.
    public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    /// The bottom margin follows the superview's height.
    public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
  }

  /// `frame` resized by UIKit's autoresizing rules, when the superview goes from `old` to `new`.
  static func autoresized(
    _ frame: CGRect, mask: AutoresizingMask, from old: CGSize, to new: CGSize
  ) -> CGRect {
    func axis(
      _ origin: CGFloat, _ size: CGFloat, _ oldTotal: CGFloat, _ newTotal: CGFloat,
      flexibleStart: Bool, flexibleSize: Bool, flexibleEnd: Bool
    ) -> (CGFloat, CGFloat) {
      let delta = newTotal - oldTotal
      let end = oldTotal - origin - size
      // The flexible parts share the change in proportion to their sizes (equally when they
      // are all zero); summed in the order origin, size, end. No array: a push animating a
      // bar's height autoresizes every frame of it.
      var flexibleTotal: CGFloat = 0
      var flexibleCount: CGFloat = 0
      if flexibleStart {
        flexibleTotal += origin
        flexibleCount += 1
      }
      if flexibleSize {
        flexibleTotal += size
        flexibleCount += 1
      }
      if flexibleEnd {
        flexibleTotal += end
        flexibleCount += 1
      }
      guard flexibleCount > 0 else { return (origin, size) }
      func share(_ part: CGFloat) -> CGFloat {
        flexibleTotal > 0 ? part / flexibleTotal * delta : delta / flexibleCount
      }
      return (
        flexibleStart ? origin + share(origin) : origin, flexibleSize ? size + share(size) : size
      )
    }
    let (x, width) = axis(
      frame.origin.x, frame.width, old.width, new.width,
      flexibleStart: mask.contains(.flexibleLeftMargin),
      flexibleSize: mask.contains(.flexibleWidth),
      flexibleEnd: mask.contains(.flexibleRightMargin))
    let (y, height) = axis(
      frame.origin.y, frame.height, old.height, new.height,
      flexibleStart: mask.contains(.flexibleTopMargin),
      flexibleSize: mask.contains(.flexibleHeight),
      flexibleEnd: mask.contains(.flexibleBottomMargin))
    return CGRect(x: x, y: y, width: width, height: height)
  }
}
