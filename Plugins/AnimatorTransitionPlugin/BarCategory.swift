// KJNavigationController's categories: the bar's background view, alpha and title colour, and
// each controller's values, all kept in associated objects keyed by the getter's selector, as
// the seed keys them (`objc_getAssociatedObject(self, _cmd)`).
public import Foundation
import ObjCRuntime
public import UIKitModel

/// The key of an association named by a getter's selector: the selector's address, unique and
/// stable for the life of the process, as `_cmd` is in the seed.
private func key(_ getter: Selector) -> UnsafeRawPointer {
  UnsafeRawPointer(getter.sel)
}

/// The getters whose selectors key the associations.
private enum Getters {
  static let backgroundView: Selector = "kj_backgroundView"
  static let barTintColor: Selector = "kj_navigationBarTintColor"
  static let barAlpha: Selector = "kj_navigationBarAlpha"
  static let titleColor: Selector = "kj_navigationTitleColor"
}

// The seed's names, `kj_` and all, as an Objective-C category prefixes its methods.
extension UINavigationBar {
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The view that shows the bar's colour, made on first use: an empty background image first
  /// (the system background turns clear), then a view inserted at index 0 of the bar's first
  /// subview, taking no touches. In ``AnimatorMode/seed`` it is the bar's height plus 20 points
  /// (short on a notch device) with flexible margins, as the seed made it; in
  /// ``AnimatorMode/fixed`` it covers the whole background, status bar included, and follows
  /// its size. The seed sets the bar's own `backgroundColor` to clear on every access, made or
  /// not (the line sits after its `if`), so a colour someone gave the bar is gone at the next
  /// transition; ``AnimatorMode/seed`` does the same, ``AnimatorMode/fixed`` only when it makes
  /// the view.
  public func kj_backgroundView(mode: AnimatorMode) -> UIView {
    if let view = objc_getAssociatedObject(self, key(Getters.backgroundView)) as? UIView,
      view.superview != nil || subviews.isEmpty
    {
      if mode == .seed { backgroundColor = .clear }
      return view
    }
    setBackgroundImage(UIImage(), for: .default)
    let view: UIView
    switch mode {
    case .seed:
      view = UIView(
        frame: CGRect(
          x: 0, y: 0, width: UIScreen.main.bounds.width, height: bounds.height + 20))
      view.autoresizingMask = [
        .flexibleLeftMargin, .flexibleRightMargin, .flexibleTopMargin, .flexibleBottomMargin,
      ]
    case .fixed:
      view = UIView(frame: backgroundContainer.bounds)
      view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    }
    view.isUserInteractionEnabled = false
    subviews.first?.insertSubview(view, at: 0)
    objc_setAssociatedObject(self, key(Getters.backgroundView), view, .retainNonatomic)
    backgroundColor = .clear
    return view
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Colours the background view (animatable inside `UIView.animate`).
  public func kj_setBackgroundColor(_ color: UIColor, mode: AnimatorMode) {
    kj_backgroundView(mode: mode).backgroundColor = color
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Sets the alpha of the bar's background (its first subview; animatable). NaN is refused.
  public func kj_setNavigationBarAlpha(_ alpha: CGFloat) {
    guard !alpha.isNaN else { return }
    subviews.first?.alpha = alpha
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Sets the title colour (through `titleTextAttributes`, which no animation interpolates).
  public func kj_setNavigationTitleColor(_ color: UIColor) {
    var attributes = titleTextAttributes ?? [:]
    attributes[.foregroundColor] = color
    titleTextAttributes = attributes
  }

  /// Sets the three values of `controller` (its `kj_` properties). In ``AnimatorMode/fixed``
  /// the title colour goes to a large title too (iOS 11 and later, a bar that prefers them):
  /// the seed sets the title attributes alone, and a large title has its own (Apple's
  /// `largeTitleTextAttributes`), so it stayed black (scenario `kj-large-title`).
  func kjApply(_ controller: UIViewController?, mode: AnimatorMode) {
    guard let controller else { return }
    kj_setBackgroundColor(controller.kj_navigationBarTintColor, mode: mode)
    kj_setNavigationBarAlpha(controller.kj_navigationBarAlpha)
    kj_setNavigationTitleColor(controller.kj_navigationTitleColor)
    // prefersLargeTitles is false before iOS 11, where the model refuses to set it.
    guard mode == .fixed, prefersLargeTitles else { return }
    var large = largeTitleTextAttributes ?? [:]
    large[.foregroundColor] = controller.kj_navigationTitleColor
    largeTitleTextAttributes = large
  }
}

extension UIViewController {
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The bar's colour while this controller is on top; white unless set.
  public var kj_navigationBarTintColor: UIColor {
    get {
      objc_getAssociatedObject(self, key(Getters.barTintColor)) as? UIColor ?? .white
    }
    set {
      objc_setAssociatedObject(self, key(Getters.barTintColor), newValue, .retainNonatomic)
    }
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The alpha of the bar's background while this controller is on top, 0...1 (clamped; NaN
  /// is refused); 1 unless set.
  public var kj_navigationBarAlpha: CGFloat {
    get { objc_getAssociatedObject(self, key(Getters.barAlpha)) as? CGFloat ?? 1 }
    set {
      guard !newValue.isNaN else { return }
      objc_setAssociatedObject(
        self, key(Getters.barAlpha), max(0, min(1, newValue)), .retainNonatomic)
    }
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The title colour while this controller is on top; black unless set.
  public var kj_navigationTitleColor: UIColor {
    get { objc_getAssociatedObject(self, key(Getters.titleColor)) as? UIColor ?? .black }
    set {
      objc_setAssociatedObject(self, key(Getters.titleColor), newValue, .retainNonatomic)
    }
  }
}
