// The leaf views the navigation bar and the seeds' demo screens use: image views, labels,
// buttons.
public import Foundation

/// A view that shows an image.
open class UIImageView: UIView {
  /// The image shown.
  open var image: UIImage?

  /// An image view showing `image`, sized to it.
  public init(image: UIImage?) {
    self.image = image
    super.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
    isUserInteractionEnabled = false
  }

  /// An image view with `frame` and no image.
  public override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
  }

  /// The colour the image shows, over its background: a solid image's colour, else clear.
  public var imageColor: UIColor? { image?.solidColor }
}

/// A view that shows text; it takes no touches unless told to, as UIKit's.
open class UILabel: UIView {
  /// A label with `frame`.
  public override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
  }

  /// The text.
  open var text: String?
  /// The text colour; black by default, as UIKit's.
  open var textColor: UIColor! = .black
  /// The font; the 17-point system font by default.
  open var font: UIFont! = .systemFont(ofSize: 17)
}

/// A button: a title with colours per state; the model keeps the normal state.
open class UIButton: UIView {
  /// The states a title colour is set for; the model uses `normal`.
  public struct State: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt
    /// A state from its bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The normal state.
    public static let normal = State([])
    /// Highlighted.
    public static let highlighted = State(rawValue: 1 << 0)
    /// Disabled.
    public static let disabled = State(rawValue: 1 << 1)
  }

  private var titles: [UInt: String] = [:]
  private var titleColors: [UInt: UIColor] = [:]

  /// Sets the title for `state`.
  open func setTitle(_ title: String?, for state: State) { titles[state.rawValue] = title }

  /// The title for `state`, falling back to the normal one.
  open func title(for state: State) -> String? { titles[state.rawValue] ?? titles[0] }

  /// Sets the title colour for `state`.
  open func setTitleColor(_ color: UIColor?, for state: State) {
    titleColors[state.rawValue] = color
  }

  /// The title colour for `state`: set, or the normal one, or else the tint colour (UIKit's
  /// system buttons).
  open func titleColor(for state: State) -> UIColor? {
    titleColors[state.rawValue] ?? titleColors[0] ?? tintColor
  }
}
