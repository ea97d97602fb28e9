// UINavigationBar: UIKit's hierarchy per iOS version (UINavigationBar+PrivateViews.swift), its
// appearance properties, its items, its layout, and the query of what the user sees.
public import Foundation
public import ObjCRuntime
import ObjCRuntimeGeometry

/// A navigation bar, with the hierarchy iOS gives it, chosen by the device's system version:
///
/// - iOS 11 and later: `subviews[0]` is `_UIBarBackground` (background image view, effect view,
///   shadow view), then, once the bar prefers large titles, `_UINavigationBarLargeTitleView`,
///   then `_UINavigationBarContentView` (title label, button views, back indicator);
/// - iOS 10: `_UINavigationBarBackground` (an image view holding the effect and shadow views),
///   then `UINavigationItemView` (holding the title label), the back button
///   (`UINavigationItemButtonView`), the `UINavigationButton`s of the bar button items and the
///   back indicator, all directly in the bar. Only this bar answers the private key
///   `_titleView` that LTNavigationBar read through key-value coding; on iOS 11 it is an
///   undefined key, as it became, and `_leftViews` and `_rightViews` are always empty.
///
/// The bar is 44 points tall below the status bar; its background extends up under the status
/// bar. `setBackgroundImage(UIImage(), for: .default)` makes the system background clear, and
/// the shadow image is honoured only when a custom background image is set, as on iOS.
open class UINavigationBar: UIView {
  /// The height of a bar made now, without the status bar: ``height(on:systemVersion:)`` of the
  /// current device and system version.
  public static var height: CGFloat {
    height(on: UIScreen.main.profile, systemVersion: UIDevice.current.systemVersion)
  }

  /// The height of a bar on `device` running `systemVersion`, without the status bar: 44 points,
  /// and 50 on an iPad from iOS 12.
  nonisolated public static func height(on device: DeviceProfile, systemVersion: String) -> CGFloat
  {
    device.isPad && UIDevice.majorVersion(of: systemVersion) >= 12 ? 50 : 44
  }

  /// This bar's height, without the status bar: its ``contentHeight`` (fixed when the bar is
  /// made, and ``sheetHeight`` while its navigation controller is presented as a sheet from
  /// iOS 13), the large title's area while one shows (``largeTitleExtent``), and the search
  /// bar's while the top item has one (``searchBarExtent``).
  public var barHeight: CGFloat { contentHeight + largeTitleExtent + searchBarExtent }

  /// The height of the bar's row of title and buttons: fixed when the bar is made, and
  /// ``sheetHeight`` in a sheet; the large title's area is below it.
  public internal(set) var contentHeight: CGFloat

  /// The height of a navigation bar at the top of a sheet from iOS 13, where no status bar is
  /// above it: 56 points (wix/react-native-navigation issue 5730, "if we look at the View
  /// Hierarchy, it should be 56"; QMUI_iOS issue 877; HWPanModal issue 85).
  public static let sheetHeight: CGFloat = 56

  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UINavigationBar.self) {
      ObjCMethodDeclaration(
        "setTitleTextAttributes:", Base.setTitleTextAttributes,
        swiftEntry: Entry.setTitleTextAttributes)
      ObjCMethodDeclaration(
        "setBackgroundImage:forBarMetrics:", Base.setBackgroundImage,
        swiftEntry: Entry.setBackgroundImage)
      ObjCMethodDeclaration(
        "setBarTintColor:", Base.setBarTintColor, swiftEntry: Entry.setBarTintColor)
      ObjCMethodDeclaration("layoutSubviews", Base.layoutSubviews, swiftEntry: Entry.layoutSubviews)
    }
  }

  /// Whether the bar uses the iOS 10 hierarchy (fixed when the bar is made).
  public let usesLegacyHierarchy: Bool
  /// The background container (`_UIBarBackground` or `_UINavigationBarBackground`).
  public let backgroundContainer: UIView
  /// The view holding title and buttons (the content view on iOS 11+, the bar itself on 10).
  public var contentContainer: UIView { contentView ?? self }
  let contentView: _UINavigationBarContentView?
  /// The title label (in the `UINavigationItemView` on iOS 10, in the content view on 11+).
  public let titleLabel = UILabel(frame: .zero)
  /// The back chevron.
  public let backIndicatorView = _UINavigationBarBackIndicatorView(frame: .zero)
  /// iOS 10: the title view (`_titleView`) and the back button's title view; nil on iOS 11+.
  let titleItemView: UINavigationItemView?
  let backButtonView: UINavigationItemButtonView?
  /// iOS 11+: the content view's left and right button bars; nil on iOS 10.
  let buttonBars: (left: _UIButtonBarStackView, right: _UIButtonBarStackView)?

  // Written by the table's IMPs (UINavigationBar+Table.swift), read here.
  var backgroundImages: [Int: UIImage] = [:]
  var attributes: TextAttributes?
  var barTint: UIColor?
  /// How far the background extends up under the status bar: none in a sheet.
  var statusBarHeight: CGFloat
  // The iOS 13 appearances (`UINavigationBar+Appearances.swift`), copies of what was set.
  var standardStorage: UINavigationBarAppearance?
  var scrollEdgeStorage: UINavigationBarAppearance?
  var compactStorage: UINavigationBarAppearance?
  /// Whether the bar was last drawn at its scroll edge (iOS 15 and later).
  var drawnAtScrollEdge = false
  // Large titles (`UINavigationBar+LargeTitles.swift`).
  var prefersLargeTitlesStorage = false
  var largeTitleAttributesStorage: TextAttributes?
  /// The large title's view, between the background and the content, once large titles are on.
  var largeTitleView: _UINavigationBarLargeTitleView?
  /// How much of the large title's area shows now, 0 to ``largeTitleHeight``.
  public internal(set) var largeTitleExtent: CGFloat = 0
  /// Whether the top item shows a large title (its area may have scrolled away).
  public internal(set) var showsLargeTitle = false
  /// How much of the search bar's area shows now, 0 to ``searchBarHeight`` (iOS 11, a top item
  /// with a search controller).
  public internal(set) var searchBarExtent: CGFloat = 0
  /// The top item's search bar, in the bar while that item is on top.
  var shownSearchBar: UISearchBar?

  /// The shadow image; honoured only when a custom background image is set. `UIImage()` hides
  /// the hairline.
  open var shadowImage: UIImage? { didSet { applyBackground() } }
  /// Whether the system background is translucent.
  open var isTranslucent = true { didSet { applyBackground() } }
  /// The bar style.
  open var barStyle: UIBarStyle = .default { didSet { applyBackground() } }
  /// The delegate (a navigation controller's bar has the controller).
  open weak var delegate: (any UINavigationBarDelegate)?

  /// The items, bottom to top; nil while the bar has none, as UIKit's header declares it
  /// (`nullable`). Setting it is `setItems(_:animated:)` without animation.
  open var items: [UINavigationItem]? {
    get { itemStack.isEmpty ? nil : itemStack }
    set { setItems(newValue, animated: false) }
  }

  /// The items, bottom to top, as the model keeps them; changed only by the item methods
  /// (`UINavigationBar+Items.swift`).
  internal var itemStack: [UINavigationItem] = []

  /// A bar as wide as the screen, placed under the status bar of the current device.
  public convenience init() {
    let screen = UIScreen.main
    let statusBar = screen.profile.statusBarHeight
    self.init(
      frame: CGRect(
        x: 0, y: statusBar, width: screen.bounds.width, height: UINavigationBar.height),
      statusBarHeight: statusBar)
  }

  /// Places the bar `width` points wide for its navigation controller's presentation: at the
  /// top of a sheet with no status bar above it (``sheetHeight`` tall from iOS 13 with its SDK, its usual
  /// height before, on an iPad's sheet) when `inSheet`, else under the status bar at its usual
  /// height.
  func placeInSheet(_ inSheet: Bool, width: CGFloat) {
    let profile = UIScreen.main.profile
    let usual = UINavigationBar.height(on: profile, systemVersion: UIDevice.current.systemVersion)
    let height =
      inSheet && UIDevice.current.linkedMajorVersion >= 13 ? UINavigationBar.sheetHeight : usual
    let statusBar = inSheet ? 0 : profile.statusBarHeight
    guard height != contentHeight || statusBar != statusBarHeight || frame.width != width else {
      return
    }
    contentHeight = height
    statusBarHeight = statusBar
    frame = CGRect(x: 0, y: statusBar, width: width, height: barHeight)
    // Laid out at once, before the presentation's appearance callbacks: UIKit lays the
    // presented view out before it animates it in (the model's reading), and a seed that adds
    // a view to the background from `viewWillAppear:` finds it at the sheet's size.
    setNeedsLayout()
    layoutIfNeeded()
  }

  /// A bar with `frame`, whose background extends `statusBarHeight` points above it.
  public init(frame: CGRect, statusBarHeight: CGFloat) {
    self.statusBarHeight = statusBarHeight
    contentHeight = UINavigationBar.height
    usesLegacyHierarchy = UIDevice.current.majorSystemVersion < 11
    if usesLegacyHierarchy {
      backgroundContainer = _UINavigationBarBackground(frame: .zero)
    } else {
      backgroundContainer = _UIBarBackground(frame: .zero)
    }
    if usesLegacyHierarchy {
      titleItemView = UINavigationItemView(frame: .zero)
      backButtonView = UINavigationItemButtonView(frame: .zero)
      buttonBars = nil
      contentView = nil
    } else {
      titleItemView = nil
      backButtonView = nil
      contentView = _UINavigationBarContentView(frame: .zero)
      buttonBars = (_UIButtonBarStackView(frame: .zero), _UIButtonBarStackView(frame: .zero))
    }
    super.init(frame: frame)
    if usesLegacyHierarchy {
      addSubview(backgroundContainer)
      if let titleItemView, let backButtonView {
        titleItemView.addSubview(titleLabel)
        addSubview(titleItemView)
        addSubview(backButtonView)
      }
      addSubview(backIndicatorView)
    } else {
      addSubview(backgroundContainer)
      if UIDevice.current.majorSystemVersion >= 18 {
        addSubview(_UIPointerInteractionAssistantEffectContainerView(frame: .zero))
      }
      addSubview(contentContainer)
      contentContainer.addSubview(titleLabel)
      contentContainer.addSubview(backIndicatorView)
      if let buttonBars {
        contentContainer.addSubview(buttonBars.left)
        contentContainer.addSubview(buttonBars.right)
      }
    }
    backIndicatorView.isHidden = true
    backButtonView?.isHidden = true
    applyAppearance()
    performLayout()
  }

  // MARK: Appearance

  /// The title's text attributes; setting them is sent through the table
  /// (`-setTitleTextAttributes:`), which the seeds swizzle.
  open var titleTextAttributes: TextAttributes? {
    get { attributes }
    set {
      sendToTableReportingFailure(
        BarSelectors.setTitleTextAttributes, newValue.map(TextAttributesBox.init))
    }
  }

  /// Sets the background image for `metrics`: nil restores the system background, an empty
  /// image makes it clear. Sent through the table.
  open func setBackgroundImage(_ image: UIImage?, for metrics: UIBarMetrics) {
    sendToTableReportingFailure(
      BarSelectors.setBackgroundImageForBarMetrics, image, metrics.rawValue)
  }

  /// The background image for `metrics`.
  open func backgroundImage(for metrics: UIBarMetrics) -> UIImage? {
    backgroundImages[metrics.rawValue]
  }

  /// The colour of the system background; nil is the default translucent white.
  open var barTintColor: UIColor? {
    get { barTint }
    set { sendToTableReportingFailure(BarSelectors.setBarTintColor, newValue) }
  }

  private var systemBackgroundColor: UIColor {
    if let barTint {
      return barTint.asBarTint(translucent: isTranslucent)
    }
    switch barStyle {
    case .default: return isTranslucent ? .systemBarTranslucentBackground : .systemBarBackground
    case .black:
      return isTranslucent ? UIColor(white: 0.11, alpha: 0.8) : UIColor(white: 0.11, alpha: 1)
    }
  }

  /// Draws the background, the title and the large title from the appearance in force, which
  /// is worked out once for the three.
  func applyAppearance() {
    let appearance = activeAppearance()
    applyBackground(appearance)
    applyTitleAttributes(appearance)
    applyLargeTitleAttributes(appearance)
  }

  /// Applies the background rules to the background views: those of the active
  /// `UINavigationBarAppearance` on iOS 13 and later when there is one, else the legacy ones.
  func applyBackground() { applyBackground(activeAppearance()) }

  /// ``applyBackground()`` with the appearance in force, `active`, already worked out.
  func applyBackground(_ active: UINavigationBarAppearance?) {
    if let appearance = active, let bar = backgroundContainer as? _UIBarBackground {
      bar.draw(appearance)
      return
    }
    let image = backgroundImages[UIBarMetrics.default.rawValue]
    let effect: UIView
    let tint: UIView
    let shadow: UIImageView
    if let bar = backgroundContainer as? _UIBarBackground {
      bar.backgroundImageView.image = image
      bar.backgroundImageView.backgroundColor = image?.solidColor
      bar.backgroundImageView.isHidden = image == nil
      effect = bar.backgroundEffectView
      tint = bar.colorView
      shadow = bar.shadowView
    } else if let legacy = backgroundContainer as? _UINavigationBarBackground {
      legacy.image = image
      legacy.backgroundColor = image?.solidColor
      effect = legacy.backgroundEffectView
      tint = legacy.colorView
      shadow = legacy.shadowView
    } else {
      return
    }
    // A custom image (even an empty one) replaces the system background. A bar tint colour is
    // drawn by a view of its own over the (then clear) effect view.
    effect.isHidden = image != nil
    effect.backgroundColor = barTint == nil ? systemBackgroundColor : nil
    tint.isHidden = image != nil || barTint == nil
    tint.backgroundColor = barTint == nil ? nil : systemBackgroundColor
    // The shadow image is honoured only with a custom background image.
    let shadowImage = image != nil ? self.shadowImage : nil
    if let shadowImage, shadowImage.isEmpty {
      shadow.isHidden = true
    } else {
      shadow.isHidden = false
      shadow.image = shadowImage
      shadow.backgroundColor = shadowImage?.solidColor ?? .systemBarShadow
    }
  }

  func applyTitleAttributes() { applyTitleAttributes(activeAppearance()) }

  /// Colours and sizes the title from `active`, the appearance in force, or the legacy
  /// attributes.
  func applyTitleAttributes(_ active: UINavigationBarAppearance?) {
    let attributes = active?.titleTextAttributes ?? self.attributes
    let color = attributes?.foregroundColor ?? .black
    let font = attributes?.font ?? UINavigationBar.defaultTitleFont
    // A bar's title attributes are set again at every step of some seeds' transitions, mostly
    // to what they were: the label is left alone then.
    if titleLabel.textColor !== color { titleLabel.textColor = color }
    if titleLabel.font !== font { titleLabel.font = font }
  }

  /// The title's font when the attributes give none: the 17-point bold system font, made once
  /// (a font is immutable).
  static let defaultTitleFont = UIFont.boldSystemFont(ofSize: 17)

  // MARK: Items

  /// The views of the top item's left and right bar button items: `UINavigationButton`s in the
  /// bar on iOS 10, `_UIButtonBarButton`s in the button bars on 11+.
  /// Both set by `showTopItem` (`UINavigationBar+Items.swift`).
  var leftButtonViews: [UIView] = []
  var rightButtonViews: [UIView] = []
  var buttonViews: [UIView] { leftButtonViews + rightButtonViews }

  // MARK: Touches

  /// Whether the back button shows: there is an item to go back to, the top item does not hide
  /// the button, and its left items (if any) supplement the button rather than replace it.
  var showsBackButton: Bool {
    guard backItem != nil, let top = topItem, !top.hidesBackButton else { return false }
    return top.leftBarButtonItems?.isEmpty != false || top.leftItemsSupplementBackButton
  }

  /// Where a tap takes the back button: the left of the bar, up to the title.
  var backButtonFrame: CGRect {
    CGRect(x: 0, y: 0, width: min(100, bounds.width / 2 - 80), height: bounds.height)
  }

  /// A tap ends on the bar: in the back button's area, with a back button showing, it is
  /// ``tapBackButton()``. The bar takes a tap only when the hit test gave it to the bar or to one
  /// of the bar's own views: a view someone else put in the bar that takes touches keeps them
  /// (LTNavigationBar's first overlay swallowed the back button's taps this way, until it was
  /// made not to take touches).
  open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard let touch = touches.first, let view = touch.view, isOwnView(view) else { return }
    if showsBackButton, backButtonFrame.contains(touch.location(in: self)) {
      tapBackButton()
    }
  }

  private func isOwnView(_ view: UIView) -> Bool {
    let own: [UIView?] = [
      self, contentContainer, titleLabel, backIndicatorView, titleItemView, backButtonView,
      buttonBars?.left, buttonBars?.right,
    ]
    return own.contains { $0 === view } || buttonViews.contains { $0 === view }
  }

  // MARK: Key-value coding of the iOS 10 ivars

  /// The private keys LTNavigationBar read. On an iOS 10 bar: `_leftViews` and `_rightViews`
  /// (the `UINavigationButton`s, as arrays) and `_titleView` (the `UINavigationItemView`). On an
  /// iOS 11+ bar, `_leftViews` and `_rightViews` are still there but always empty (the buttons
  /// moved into the content view's button bars, so fading them fades nothing), and `_titleView`
  /// is gone: the undefined-key error of `valueForUndefinedKey:`, naming `UINavigationBar` and
  /// `_titleView`, as LTNavigationBar's users met it on iOS 11 (its issue 62). Any other key is
  /// undefined too.
  ///
  /// The model has one `UINavigationBar` class for every iOS version, so these ivars answer
  /// here, by the profile the bar was made under, rather than from the class's ivar list.
  open override func value(forUndefinedKey key: String) throws(ObjCRuntimeError) -> Any? {
    let views: [UIView]? = MainThread.assumeIsolated {
      switch key {
      case "_leftViews": usesLegacyHierarchy ? leftButtonViews : []
      case "_rightViews": usesLegacyHierarchy ? rightButtonViews : []
      default: nil
      }
    }
    if let views { return views }
    switch key {
    case "_titleView" where usesLegacyHierarchy: return titleItemView
    default: return try super.value(forUndefinedKey: key)
    }
  }

  // MARK: Appearance proxy

  /// The bar entered a window: the values set on the appearance proxy
  /// (``UINavigationBar/appearance()``) are applied now, as UIKit applies them, and only now.
  open override func didMoveToWindow() {
    super.didMoveToWindow()
    if window != nil { UINavigationBar.appearanceProxy.apply(to: self) }
  }
}
