// The private-looking views of UIKit's navigation bar, per iOS version, with the ivars the seeds
// read through key-value coding and object_getIvar.
import Foundation
public import ObjCRuntime

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// The bar's background container on iOS 11 and later: `navigationBar.subviews.first`. It holds
/// the background image view, the effect view (ivar `_backgroundEffectView`), the view that draws
/// a bar tint colour (ivar `_colorView`) and the shadow view (ivar `_shadowView`). `setHidden:`
/// is in its table, as a seed swizzles it.
public final class _UIBarBackground: UIView {
  /// The view that shows a custom background image.
  public let backgroundImageView = UIImageView(frame: .zero)
  /// The translucent system background of the bar style, hidden under a custom image; clear
  /// when the bar has a tint colour, which ``colorView`` draws.
  public let backgroundEffectView = UIView(frame: .zero)
  /// The bar tint colour, over the effect view; hidden when the bar has none or a custom image.
  /// (A fade of the effect view alone leaves it showing: ETNavBarTransparent's issue 14.)
  public let colorView = UIView(frame: .zero)
  /// The hairline at the bottom.
  public let shadowView = UIImageView(frame: .zero)

  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(_UIBarBackground.self) {
      ObjCIvarDeclaration.onMainActor("_backgroundEffectView") { (view: _UIBarBackground) in
        view.backgroundEffectView
      }
      ObjCIvarDeclaration.onMainActor("_shadowView") { (view: _UIBarBackground) in view.shadowView }
      ObjCIvarDeclaration.onMainActor("_backgroundImageView") { (view: _UIBarBackground) in
        view.backgroundImageView
      }
      ObjCIvarDeclaration.onMainActor("_colorView") { (view: _UIBarBackground) in view.colorView }
    }
  }

  override init(frame: CGRect) {
    super.init(frame: frame)
    // The background takes no touches: taps go through to the content view or the bar.
    isUserInteractionEnabled = false
    for view in [backgroundImageView, backgroundEffectView, colorView, shadowView] {
      view.autoresizingMask = .flexibleWidth
      addSubview(view)
    }
  }

  /// Draws `appearance` with its views: the image view, the effect, the colour and the
  /// hairline (a navigation bar's and a tab bar's appearances alike).
  func draw(_ appearance: UIBarAppearance) {
    let image = appearance.backgroundImage
    backgroundImageView.image = image
    backgroundImageView.backgroundColor = image?.solidColor
    backgroundImageView.isHidden = image == nil
    backgroundEffectView.isHidden = !appearance.hasBackgroundEffect
    backgroundEffectView.backgroundColor =
      appearance.hasBackgroundEffect ? .systemBarTranslucentBackground : nil
    colorView.isHidden = appearance.backgroundColor == nil
    colorView.backgroundColor = appearance.backgroundColor
    if let shadowImage = appearance.shadowImage, !shadowImage.isEmpty {
      shadowView.isHidden = false
      shadowView.image = shadowImage
      shadowView.backgroundColor = shadowImage.solidColor
    } else if let color = appearance.shadowColor, color.alpha > 0 {
      shadowView.isHidden = false
      shadowView.image = nil
      shadowView.backgroundColor = color
    } else {
      shadowView.isHidden = true
    }
  }
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// The bar's background on iOS 10: an image view with the effect, bar tint colour and shadow
/// views inside.
public final class _UINavigationBarBackground: UIImageView {
  /// The translucent system background of the bar style; clear when the bar has a tint colour.
  public let backgroundEffectView = UIView(frame: .zero)
  /// The bar tint colour (ivar `_colorView`); hidden when the bar has none or a custom image.
  public let colorView = UIView(frame: .zero)
  /// The hairline at the bottom.
  public let shadowView = UIImageView(frame: .zero)

  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(_UINavigationBarBackground.self) {
      ObjCIvarDeclaration.onMainActor("_backgroundEffectView") {
        (view: _UINavigationBarBackground) in view.backgroundEffectView
      }
      ObjCIvarDeclaration.onMainActor("_colorView") { (view: _UINavigationBarBackground) in
        view.colorView
      }
      ObjCIvarDeclaration.onMainActor("_shadowView") { (view: _UINavigationBarBackground) in
        view.shadowView
      }
    }
  }

  override init(frame: CGRect) {
    super.init(frame: frame)
    addSubview(backgroundEffectView)
    addSubview(colorView)
    addSubview(shadowView)
  }
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// A private view of the iOS 18 bar, with a zero frame, right above the background: what
/// `navigationBar.subviews[0]` answers while a push or pop has the background out of the bar
/// (HBDNavigationBar issue 188, which names it and its frame). The model gives it nothing else.
public final class _UIPointerInteractionAssistantEffectContainerView: UIView {
  override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
  }
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// The view holding the title and the two button bars on iOS 11 and later.
public final class _UINavigationBarContentView: UIView {}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// A button bar of the iOS 11+ content view: the left one or the right one, holding the
/// ``_UIButtonBarButton``s of the top item's bar button items.
public final class _UIButtonBarStackView: UIView {}

/// The iOS 10 bar's title view (`_titleView` to key-value coding): it holds the title label.
/// Like every item view of the iOS 10 bar it takes no touches: the bar itself tracks taps on
/// its items.
public final class UINavigationItemView: UIView {
  override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
  }
}

/// The iOS 10 bar's back button: the back item's title beside the chevron; it takes no touches
/// (the bar tracks them). LTNavigationBar's `lt_setElementsAlpha` never fades it (its issues 32,
/// 55 and 57: the back button's alpha).
public final class UINavigationItemButtonView: UIView {
  override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
  }
}

/// An iOS 10 bar button: one per bar button item of the top item, straight in the bar, listed
/// by `_leftViews` and `_rightViews` to key-value coding. It takes no touches (the bar tracks
/// them).
public final class UINavigationButton: UIView {
  /// The item it shows.
  public internal(set) weak var item: UIBarButtonItem?

  override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
  }
}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// The back chevron.
public final class _UINavigationBarBackIndicatorView: UIImageView {}

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// A bar button's view on iOS 11 and later, in a ``_UIButtonBarStackView``.
public final class _UIButtonBarButton: UIView {
  /// The item it shows.
  public internal(set) weak var item: UIBarButtonItem?
}
