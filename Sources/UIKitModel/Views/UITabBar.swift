// UITabBar: the bar of a tab bar controller, its items, its background drawn from the legacy
// properties or from iOS 13's appearances (iOS 15's scroll-edge one when the content ends at
// the bar), taps on its items, and what the user sees of it.
public import Foundation
public import ObjCRuntime

/// An item of a tab bar, as UIKit's `UITabBarItem`: a title and a tag (its image is not drawn).
/// A view controller's ``UIViewController/tabBarItem`` is made on first use with its title.
@preconcurrency @MainActor
open class UITabBarItem: ObjCObject {
  /// The title under the item's image.
  open var title: String?
  /// A number the application gives the item.
  open var tag: Int

  /// An item titled `title`, tagged `tag`.
  public init(title: String?, tag: Int = 0) {
    self.title = title
    self.tag = tag
    super.init()
  }
}

/// The delegate of a tab bar, as UIKit's `UITabBarDelegate`: a tab bar controller is its
/// bar's delegate, and selects the tab whose item the user tapped.
@preconcurrency @MainActor
public protocol UITabBarDelegate: AnyObject {
  /// The user tapped `item`.
  func tabBar(_ tabBar: UITabBar, didSelect item: UITabBarItem)
}

/// A tab bar, as UIKit's: the items of a tab bar controller's tabs along the bottom of the
/// screen, the selected one marked.
///
/// Its background is a `_UIBarBackground` (`subviews[0]`, as the navigation bar's on iOS 11
/// and later), drawn from the legacy properties (``barTintColor``, ``backgroundImage``,
/// ``isTranslucent``) or, from iOS 13, from an appearance set on it. On iOS 15, for an
/// application built with the iOS 15 SDK, the bar draws its ``scrollEdgeAppearance`` when the
/// content of the selected tab ends at the bar (its first scroll view scrolled to the bottom,
/// or no scroll view), and when none is set, its standard look with a transparent background:
/// WordPress-iOS issue 17172 ("The tab bar background is grey / transparent for some
/// screens", only when built with Xcode 13), NativeScript issue 9614 ("transparent when there
/// is a ScrollView which is scrolled to the bottom"; tabs without scrolling content stay
/// transparent), FloatingPanel issue 504 (the fix: set `scrollEdgeAppearance`).
open class UITabBar: UIView {
  /// The items, left to right; nil while it has none, as UIKit's header declares it. A tab
  /// bar controller sets them from its tabs (UIKit raises when code modifies a tab bar that a
  /// controller manages, so the model gives no setter).
  open internal(set) var items: [UITabBarItem]?
  /// The selected item.
  open internal(set) var selectedItem: UITabBarItem?
  /// The delegate (a tab bar controller's bar has the controller), held weakly.
  open weak var delegate: (any UITabBarDelegate)?

  /// The background container (`subviews[0]`).
  public let background = _UIBarBackground(frame: .zero)

  /// The bar tint colour, drawn over the system background; nil for the system's.
  open var barTintColor: UIColor? { didSet { applyBackground() } }
  /// A custom background image, drawn instead of the system background.
  open var backgroundImage: UIImage? { didSet { applyBackground() } }
  /// The hairline's image; honoured only with a custom background image. `UIImage()` hides
  /// the hairline.
  open var shadowImage: UIImage? { didSet { applyBackground() } }
  /// Whether the system background is translucent.
  open var isTranslucent = true { didSet { applyBackground() } }

  private var standardStorage: UITabBarAppearance?
  private var scrollEdgeStorage: UITabBarAppearance?
  /// Whether the bar was last drawn at the content's edge (``ScrollEdgeDrawing``).
  var drawnAtScrollEdge = false

  /// A bar along the bottom of the current device's screen (``height(on:majorVersion:)``).
  public convenience init() {
    let screen = UIScreen.main
    let height = UITabBar.height(
      on: screen.profile, majorVersion: UIDevice.current.majorSystemVersion)
    self.init(
      frame: CGRect(
        x: 0, y: screen.bounds.height - height, width: screen.bounds.width, height: height))
  }

  override init(frame: CGRect) {
    super.init(frame: frame)
    background.frame = bounds
    background.autoresizingMask = .flexibleWidth
    background.shadowView.frame = CGRect(x: 0, y: 0, width: frame.width, height: 0.5)
    for view in [
      background.backgroundImageView, background.backgroundEffectView, background.colorView,
    ] {
      view.frame = bounds
    }
    addSubview(background)
    applyBackground()
  }

  /// The bar's height on `device` under iOS `majorVersion`: 49 points on an iPhone, 50 on an
  /// iPad from iOS 12 (Geoff Hackworth, "How iPad Apps Adapt to the New 11" and 12.9" iPads
  /// Pro": "iOS 12.0 changed the heights of navigation bars, toolbars and tab bars on iPad"),
  /// plus the device's ``DeviceProfile/homeIndicatorInset``.
  nonisolated public static func height(on device: DeviceProfile, majorVersion: Int) -> CGFloat {
    let bar: CGFloat = device.isPad && majorVersion >= 12 ? 50 : 49
    return bar + device.homeIndicatorInset
  }

  // MARK: Appearances

  /// The appearance of the bar over scrolled content (iOS 13 and later). Until one is set it
  /// is derived from the legacy properties, as UIKit derives it. Setting it before iOS 13 is
  /// refused with ``UIKitModelIssue/unavailable(api:introduced:running:)``.
  open var standardAppearance: UITabBarAppearance {
    get { standardStorage?.copy() ?? legacyAppearance() }
    set {
      guard UIDevice.isAvailable("UITabBar.standardAppearance", from: 13) else { return }
      standardStorage = newValue.copy()
      drawnAtScrollEdge = isAtScrollEdge
      applyBackground()
    }
  }

  /// The appearance of the bar when the content ends at it (iOS 15 and later; an application
  /// built with an older SDK cannot set it, and its bar keeps the older look). Setting it on
  /// an earlier profile is refused with ``UIKitModelIssue/unavailable(api:introduced:running:)``.
  open var scrollEdgeAppearance: UITabBarAppearance? {
    get { scrollEdgeStorage?.copy() }
    set {
      guard UIDevice.isAvailable("UITabBar.scrollEdgeAppearance", from: 15, linked: true) else {
        return
      }
      scrollEdgeStorage = newValue?.copy()
      drawnAtScrollEdge = isAtScrollEdge
      applyBackground()
    }
  }

  /// The legacy properties as an appearance (what iOS 13 derives from them).
  private func legacyAppearance() -> UITabBarAppearance {
    let appearance = UITabBarAppearance()
    if let backgroundImage {
      appearance.backgroundImage = backgroundImage
      appearance.hasBackgroundEffect = false
      appearance.shadowImage = shadowImage
    } else if let barTintColor {
      // As the navigation bar draws its tint.
      appearance.backgroundColor = barTintColor.asBarTint(translucent: isTranslucent)
      appearance.hasBackgroundEffect = false
    } else if !isTranslucent {
      appearance.configureWithOpaqueBackground()
    }
    return appearance
  }

  /// Whether the content of the selected tab ends at the bar: the first scroll view of the page
  /// on screen (a navigation controller's top page) is scrolled to its bottom, or the page has
  /// none.
  public var isAtScrollEdge: Bool {
    guard let page = (delegate as? UITabBarController)?.pageOnScreen, page.isViewLoaded,
      let scrollView = page.view.firstScrollView
    else { return true }
    let visibleBottom = scrollView.contentOffset.y + scrollView.bounds.height
    return visibleBottom >= scrollView.contentSize.height + scrollView.contentInset.bottom
  }

  /// The appearance drawn now: the scroll-edge one at the edge on iOS 15 with its SDK (or a
  /// transparent standard one), else the standard one from iOS 13, else the legacy look.
  private func activeAppearance() -> UITabBarAppearance {
    let device = UIDevice.current
    if device.linkedMajorVersion >= 15, isAtScrollEdge {
      return UIBarAppearance.drawnAtScrollEdge(
        scrollEdgeStorage, standard: standardStorage, legacy: legacyAppearance)
    }
    if device.majorSystemVersion >= 13, let standardStorage { return standardStorage }
    return legacyAppearance()
  }

  /// Draws the background from the appearance in force.
  func applyBackground() {
    background.draw(activeAppearance())
  }

  // MARK: Items and taps

  /// Sets the items and the selected one (a tab bar controller does, from its tabs).
  func setItems(_ newItems: [UITabBarItem], selected: UITabBarItem?) {
    items = newItems.isEmpty ? nil : newItems
    selectedItem = selected
  }

  /// The item under `point` (in the bar's coordinates): the items share the bar's width
  /// equally, left to right (the model's layout: an iPhone's tab bar looks so; no document
  /// gives the rule).
  public func item(at point: CGPoint) -> UITabBarItem? {
    guard let items, !items.isEmpty, bounds.width > 0, point.x >= 0, point.x < bounds.width,
      point.y >= 0, point.y < bounds.height
    else { return nil }
    // The share of the width, times the count: finite and in 0..<count for any finite width.
    let slot = (point.x / bounds.width * CGFloat(items.count)).rounded(.down)
    guard slot.isFinite else { return nil }
    return items[max(0, min(items.count - 1, Int(slot)))]
  }

  /// The middle of the item at `index`, in window coordinates: where a finger taps it. Nil for
  /// an index out of range.
  public func tapPoint(ofItemAt index: Int) -> CGPoint? {
    guard let items, items.indices.contains(index) else { return nil }
    let width = bounds.width / CGFloat(items.count)
    let local = CGPoint(x: width * (CGFloat(index) + 0.5), y: min(24, bounds.height / 2))
    return convert(CGRect(origin: local, size: .zero), to: nil).origin
  }

  /// A tap ends on the bar: the item under the finger is reported to the delegate, which for a
  /// tab bar controller selects its tab.
  open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard let touch = touches.first, let item = item(at: touch.location(in: self)) else { return }
    delegate?.tabBar(self, didSelect: item)
  }

  // MARK: What the user sees

  /// The bar as the user sees it now, over `behind`, from the view tree (presentation values
  /// mid animation).
  public func asSeen(over behind: UIColor = .white) -> SeenTabBar {
    let middle = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
    let selectedIndex = selectedItem.flatMap { item in items?.firstIndex(ofIdentical: item) }
    let (color, opacity) = seen(at: middle, over: behind)
    return SeenTabBar(
      isHidden: isHidden || effectiveAlpha == 0,
      frame: presentationFrame.offsetBy(dx: presentationTransform.tx, dy: presentationTransform.ty),
      backgroundColor: color, backgroundOpacity: opacity,
      selectedIndex: selectedIndex, selectedTitle: selectedItem?.title)
  }
}

/// What the user sees of a tab bar at one moment (``UITabBar/asSeen(over:)``).
public struct SeenTabBar: Equatable, Sendable, CustomStringConvertible {
  /// Whether the bar is hidden: then nothing of it shows.
  public let isHidden: Bool
  /// Where the bar is drawn (its frame moved by its translation): mid-slide, off to a side.
  public let frame: CGRect
  /// The background at the bar's middle, composited over what is behind it.
  public let backgroundColor: UIColorComponents
  /// How opaque the background is, from 0 (what is behind shows through) to 1.
  public let backgroundOpacity: CGFloat
  /// The selected tab's index, if an item is selected.
  public let selectedIndex: Int?
  /// The selected item's title.
  public let selectedTitle: String?

  init(
    isHidden: Bool, frame: CGRect, backgroundColor: UIColor, backgroundOpacity: CGFloat,
    selectedIndex: Int?, selectedTitle: String?
  ) {
    self.isHidden = isHidden
    self.frame = frame
    self.backgroundColor = UIColorComponents(backgroundColor)
    self.backgroundOpacity = backgroundOpacity
    self.selectedIndex = selectedIndex
    self.selectedTitle = selectedTitle
  }

  /// `tab bar hidden`, or `tab bar #RRGGBBAA (opacity 0.80) at x 0, tab 0 (Home)`.
  public var description: String {
    guard !isHidden else { return "tab bar hidden" }
    let x =
      frame.minX.isFinite && abs(frame.minX) < 1e15 && frame.minX == frame.minX.rounded()
      ? "\(Int(frame.minX))" : String(format: "%.1f", Double(frame.minX))
    let tab = selectedIndex.map { " tab \($0) (\(selectedTitle ?? "untitled"))" } ?? ""
    return "tab bar \(backgroundColor.color.hexDescription)"
      + " (opacity \(String(format: "%.2f", Double(backgroundOpacity)))) at x \(x),\(tab)"
  }
}

extension UITabBar: ScrollEdgeDrawing {
  /// Draws the bar again when the content crossed its bottom edge.
  func redrawForScrollEdge() { applyBackground() }
}
