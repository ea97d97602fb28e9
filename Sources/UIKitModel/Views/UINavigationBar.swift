// UINavigationBar: UIKit's hierarchy per iOS version (UINavigationBar+PrivateViews.swift), its
// appearance properties, its items, its layout, and the query of what the user sees.
public import Foundation
public import ObjCRuntime
import ObjCRuntimeGeometry

/// A navigation bar, with the hierarchy iOS gives it, chosen by the device's system version:
///
/// - iOS 11 and later: `subviews[0]` is `_UIBarBackground` (background image view, effect view,
///   shadow view), `subviews[1]` is `_UINavigationBarContentView` (title label, button views,
///   back indicator);
/// - iOS 10: `_UINavigationBarBackground` (an image view holding the effect and shadow views),
///   then the title label, button views and the back indicator directly in the bar.
///
/// The bar is 44 points tall below the status bar; its background extends up under the status
/// bar. `setBackgroundImage(UIImage(), for: .default)` makes the system background clear, and
/// the shadow image is honoured only when a custom background image is set, as on iOS.
open class UINavigationBar: UIView {
  /// The bar's height, without the status bar.
  public static let height: CGFloat = 44

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
  public let contentContainer: UIView
  /// The title label.
  public let titleLabel = UILabel(frame: .zero)
  /// The back chevron.
  public let backIndicatorView = _UINavigationBarBackIndicatorView(frame: .zero)

  // Written by the table's IMPs (UINavigationBar+Table.swift), read here.
  var backgroundImages: [Int: UIImage] = [:]
  var attributes: TextAttributes?
  var barTint: UIColor?
  private var statusBarHeight: CGFloat

  /// The shadow image; honoured only when a custom background image is set. `UIImage()` hides
  /// the hairline.
  open var shadowImage: UIImage? { didSet { applyBackground() } }
  /// Whether the system background is translucent.
  open var isTranslucent = true { didSet { applyBackground() } }
  /// The bar style.
  open var barStyle: UIBarStyle = .default { didSet { applyBackground() } }
  /// The delegate (a navigation controller's bar has the controller).
  open weak var delegate: (any UINavigationBarDelegate)?

  /// The items, bottom to top.
  public private(set) var items: [UINavigationItem] = []

  /// A bar as wide as the screen, placed under the status bar of the current device.
  public convenience init() {
    let screen = UIScreen.main
    let statusBar = screen.profile.statusBarHeight
    self.init(
      frame: CGRect(
        x: 0, y: statusBar, width: screen.bounds.width, height: UINavigationBar.height),
      statusBarHeight: statusBar)
  }

  /// A bar with `frame`, whose background extends `statusBarHeight` points above it.
  public init(frame: CGRect, statusBarHeight: CGFloat) {
    self.statusBarHeight = statusBarHeight
    usesLegacyHierarchy = UIDevice.current.majorSystemVersion < 11
    if usesLegacyHierarchy {
      backgroundContainer = _UINavigationBarBackground(frame: .zero)
    } else {
      backgroundContainer = _UIBarBackground(frame: .zero)
    }
    contentContainer =
      usesLegacyHierarchy ? UIView(frame: .zero) : _UINavigationBarContentView(frame: .zero)
    super.init(frame: frame)
    addSubview(backgroundContainer)
    if usesLegacyHierarchy {
      addSubview(titleLabel)
      addSubview(backIndicatorView)
    } else {
      addSubview(contentContainer)
      contentContainer.addSubview(titleLabel)
      contentContainer.addSubview(backIndicatorView)
    }
    backIndicatorView.isHidden = true
    applyBackground()
    applyTitleAttributes()
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
      return isTranslucent ? barTint.withAlphaComponent(barTint.alpha * 0.85) : barTint
    }
    switch barStyle {
    case .default: return isTranslucent ? UIColor(white: 0.97, alpha: 0.8) : .systemBarBackground
    case .black:
      return isTranslucent ? UIColor(white: 0.11, alpha: 0.8) : UIColor(white: 0.11, alpha: 1)
    }
  }

  /// Applies the background rules to the background views.
  func applyBackground() {
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

  func applyTitleAttributes() {
    titleLabel.textColor = attributes?.foregroundColor ?? .black
    titleLabel.font = attributes?.font ?? .boldSystemFont(ofSize: 17)
  }

  // MARK: Items

  /// The top item.
  open var topItem: UINavigationItem? { items.last }

  /// The item below the top one.
  open var backItem: UINavigationItem? { items.count > 1 ? items[items.count - 2] : nil }

  /// Pushes `item`, if the delegate agrees.
  open func pushItem(_ item: UINavigationItem, animated: Bool) {
    guard
      askDelegate(
        "navigationBar:shouldPushItem:", item, swift: { $0.navigationBar(self, shouldPush: item) })
    else { return }
    items.append(item)
    showTopItem()
    tellDelegate("navigationBar:didPushItem:", item) { $0.navigationBar(self, didPush: item) }
  }

  /// Asks the delegate `navigationBar:shouldPushItem:` for `item`, as a navigation controller's
  /// push does through its bar; the controller then sets the items from its stack whatever the
  /// answer.
  internal func askToPush(_ item: UINavigationItem) {
    _ = askDelegate(
      "navigationBar:shouldPushItem:", item, swift: { $0.navigationBar(self, shouldPush: item) })
  }

  /// Pops the top item, if the delegate agrees; returns it.
  @discardableResult
  open func popItem(animated: Bool) -> UINavigationItem? {
    guard let item = items.last,
      askDelegate(
        "navigationBar:shouldPopItem:", item, swift: { $0.navigationBar(self, shouldPop: item) })
    else { return nil }
    items.removeLast()
    showTopItem()
    tellDelegate("navigationBar:didPopItem:", item) { $0.navigationBar(self, didPop: item) }
    return item
  }

  /// The user taps the back button: the delegate is asked `navigationBar:shouldPopItem:`
  /// (through the runtime); if it agrees, the top item goes and the delegate hears `didPop` (a
  /// navigation controller then pops its top controller). If the delegate popped by itself and
  /// still returned true, the bar pops nothing more, and on iOS 13 and later that is reported as
  /// the error UIKit raises (``UIKitModelIssue/shouldPopAfterManualPop(controller:)``).
  open func tapBackButton() {
    guard let item = topItem, items.count > 1 else { return }
    let countBefore = items.count
    let allowed = askDelegate(
      "navigationBar:shouldPopItem:", item, swift: { $0.navigationBar(self, shouldPop: item) })
    guard allowed else { return }
    guard items.count == countBefore, topItem === item else {
      if UIDevice.current.majorSystemVersion >= 13 {
        UIKitModelIssues.report(
          .shouldPopAfterManualPop(controller: delegate.map { "\($0)" } ?? "the delegate"))
      }
      return
    }
    items.removeLast()
    showTopItem()
    tellDelegate("navigationBar:didPopItem:", item) { $0.navigationBar(self, didPop: item) }
  }

  /// Replaces the items.
  open func setItems(_ items: [UINavigationItem]?, animated: Bool) {
    self.items = items ?? []
    showTopItem()
  }

  private func askDelegate(
    _ selector: Selector, _ item: UINavigationItem,
    swift: (any UINavigationBarDelegate) -> Bool
  ) -> Bool {
    guard let delegate else { return true }
    if let object = delegate as? ObjCObject, object.responds(to: selector) {
      return (try? objc_msgSend(object, selector, self as ObjCObject, item as ObjCObject) as Bool)
        ?? true
    }
    return swift(delegate)
  }

  private func tellDelegate(
    _ selector: Selector, _ item: UINavigationItem, swift: (any UINavigationBarDelegate) -> Void
  ) {
    guard let delegate else { return }
    if let object = delegate as? ObjCObject, object.responds(to: selector) {
      try? objc_msgSend(object, selector, self as ObjCObject, item as ObjCObject) as Void
      return
    }
    swift(delegate)
  }

  private var buttonViews: [_UIButtonBarButton] = []

  private func showTopItem() {
    titleLabel.text = topItem?.title
    for view in buttonViews { view.removeFromSuperview() }
    buttonViews.removeAll()
    let buttons = (topItem?.leftBarButtonItems ?? []) + (topItem?.rightBarButtonItems ?? [])
    for item in buttons {
      let view = _UIButtonBarButton(frame: .zero)
      view.item = item
      view.tintColor = item.tintColor
      buttonViews.append(view)
      contentContainer === self ? addSubview(view) : contentContainer.addSubview(view)
    }
    backIndicatorView.isHidden = backItem == nil || topItem?.hidesBackButton == true
    performLayout()
  }

  // MARK: Layout

  /// The bar's own layout, the base of `-[UINavigationBar layoutSubviews]` (which seeds
  /// swizzle): the background up under the status bar, the content over the bar.
  func performLayout() {
    let width = bounds.width
    backgroundContainer.frame = CGRect(
      x: 0, y: -statusBarHeight, width: width, height: UINavigationBar.height + statusBarHeight)
    for view in backgroundContainer.subviews where view !== shadowView {
      if view.frame.size == .zero || view.autoresizingMask.contains(.flexibleWidth) {
        view.frame = backgroundContainer.bounds
      }
    }
    let hairline = 1 / 3.0
    shadowView.frame = CGRect(
      x: 0, y: backgroundContainer.bounds.height, width: width, height: hairline)
    if contentContainer !== self && contentContainer.superview === self {
      contentContainer.frame = bounds
    }
    titleLabel.frame = CGRect(x: width / 2 - 80, y: 11, width: 160, height: 22)
    backIndicatorView.frame = CGRect(x: 8, y: 11, width: 13, height: 21)
    var right = width - 8
    for view in buttonViews.reversed() {
      view.frame = CGRect(x: right - 44, y: 0, width: 44, height: UINavigationBar.height)
      right -= 44
    }
  }

  private var shadowView: UIView {
    (backgroundContainer as? _UIBarBackground)?.shadowView
      ?? (backgroundContainer as? _UINavigationBarBackground)?.shadowView ?? UIView()
  }

  // MARK: What the user sees

  /// What the bar looks like now, computed from the view tree (presentation values: mid
  /// animation, the interpolated ones), never stored beside it.
  public func appearance(over behind: UIColor = .white) -> NavigationBarAppearance {
    var color = behind
    composite(backgroundContainer, into: &color)
    // How opaque the background is: what it lets through of white against black.
    var overWhite = UIColor.white
    var overBlack = UIColor.black
    composite(backgroundContainer, into: &overWhite)
    composite(backgroundContainer, into: &overBlack)
    let seeThrough = max(
      overWhite.red - overBlack.red, overWhite.green - overBlack.green,
      overWhite.blue - overBlack.blue)
    let shadowVisible = shadowView.effectiveAlpha > 0 && !shadowView.isHidden
    let buttonAlpha =
      buttonViews.first.map { $0.effectiveAlpha } ?? (contentContainer.effectiveAlpha)
    return NavigationBarAppearance(
      backgroundColor: color, backgroundOpacity: max(0, min(1, 1 - seeThrough)),
      titleColor: (titleLabel.textColor ?? .black).withAlphaComponent(
        (titleLabel.textColor?.alpha ?? 1) * titleLabel.effectiveAlpha),
      tintColor: presentationTintColor, buttonAlpha: buttonAlpha,
      shadowVisible: shadowVisible, translationY: presentationTransform.ty,
      statusBarStyle: UIApplication.shared.resolvedStatusBarStyle)
  }

  /// Draws `view` and its subtree over `color`, back to front, with effective alphas; views that
  /// do not cover their superview's area (the hairline below the bar) are not part of it.
  private func composite(_ view: UIView, into color: inout UIColor) {
    guard view.effectiveAlpha > 0 else { return }
    if let parent = view.superview, view !== backgroundContainer {
      let overlap = view.presentationFrame.intersection(parent.bounds)
      guard !overlap.isNull, overlap.width > 0, overlap.height > 0 else { return }
    }
    let fill = view.presentationBackgroundColor ?? (view as? UIImageView)?.imageColor
    if let fill, fill.alpha > 0 {
      color = fill.composited(over: color, opacity: view.effectiveAlpha)
    }
    for subview in view.subviews { composite(subview, into: &color) }
  }
}
