// UINavigationBar: the hierarchy per iOS version, the background and shadow rules, alpha
// fan-out, swizzlable setters, the delegate through the runtime, and what the user sees.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// A delegate that refuses pops through a runtime method, as UINavigationController's
/// `navigationBar:shouldPopItem:` is swizzled by the seeds.
final class RefusingDelegate: ObjCObject, UINavigationBarDelegate {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(RefusingDelegate.self) {
      ObjCMethodDeclaration("navigationBar:shouldPopItem:", RefusingDelegate.shouldPop)
    }
  }
  nonisolated static let shouldPop: @convention(c) (id, SEL, id?, id?) -> Bool = { _, _, _, _ in
    false
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("UINavigationBar")
  struct NavigationBarTests {
    private func bar(ios version: String, device: DeviceProfile = .iPhone8) -> UINavigationBar {
      freshModel()
      UIDevice.current.systemVersion = version
      UIScreen.main.profile = device
      return UINavigationBar()
    }

    @Test("iOS 11+: _UIBarBackground first, with the effect and shadow views as ivars")
    func modernHierarchy() throws {
      let bar = bar(ios: "13.0", device: .iPhoneX)
      let names = bar.subviews.map { object_getClass($0)!.name }
      #expect(names == ["_UIBarBackground", "_UINavigationBarContentView"])
      let background = try #require(bar.subviews.first)
      #expect(background.frame == CGRect(x: 0, y: -44, width: 375, height: 88))
      let effect = try background.value(forKey: "_backgroundEffectView") as? UIView
      let shadow = try background.value(forKey: "_shadowView") as? UIView
      #expect(effect.map { background.subviews.contains($0) } == true)
      #expect(shadow.map { background.subviews.contains($0) } == true)
      #expect(bar.frame == CGRect(x: 0, y: 44, width: 375, height: 44))
    }

    @Test("iOS 10: _UINavigationBarBackground first, the title view and indicator in the bar")
    func legacyHierarchy() throws {
      let bar = bar(ios: "10.3")
      #expect(bar.usesLegacyHierarchy)
      let names = bar.subviews.map { object_getClass($0)!.name }
      #expect(
        names == [
          "_UINavigationBarBackground", "UINavigationItemView", "UINavigationItemButtonView",
          "_UINavigationBarBackIndicatorView",
        ])
      let titleView = try #require(try bar.value(forKey: "_titleView") as? UINavigationItemView)
      #expect(titleView.subviews.contains(bar.titleLabel))
    }

    @Test("iOS 10: _leftViews and _rightViews are the UINavigationButtons of the top item")
    func legacyButtonKeys() throws {
      let bar = bar(ios: "10.3")
      let item = UINavigationItem(title: "Top")
      item.leftBarButtonItems = [UIBarButtonItem(title: "Edit")]
      item.rightBarButtonItems = [UIBarButtonItem(title: "A"), UIBarButtonItem(title: "B")]
      bar.setItems([item], animated: false)
      let left = try #require(try bar.value(forKey: "_leftViews") as? [UIView])
      let right = try #require(try bar.value(forKey: "_rightViews") as? [UIView])
      #expect(left.count == 1 && right.count == 2)
      #expect((left + right).allSatisfy { $0 is UINavigationButton && $0.superview === bar })
    }

    @Test("iOS 11+: _titleView is an undefined key, a typed error; the button lists are empty")
    func modernHasNoLegacyKeys() throws {
      let bar = bar(ios: "11.0")
      let item = UINavigationItem(title: "Top")
      item.rightBarButtonItems = [UIBarButtonItem(title: "A")]
      bar.setItems([item], animated: false)
      #expect(
        throws: ObjCRuntimeError.undefinedKey(className: "UINavigationBar", key: "_titleView")
      ) {
        try bar.value(forKey: "_titleView")
      }
      #expect((try bar.value(forKey: "_leftViews") as? [UIView])?.isEmpty == true)
      #expect((try bar.value(forKey: "_rightViews") as? [UIView])?.isEmpty == true)
      let content = bar.subviews[1]
      #expect(content is _UINavigationBarContentView)
      #expect(content.subviews.filter { $0 is _UIButtonBarStackView }.count == 2)
      #expect(content.subviews.contains(bar.titleLabel))
    }

    @Test("the appearance proxy reaches bars as they enter a window, never a bar already in one")
    func appearanceProxy() {
      freshModel()
      UINavigationBar.appearance().barTintColor = .red
      let session = NavigationSession(root: UIViewController())
      UINavigationBar.appearance().barTintColor = .red
      let bar = session.navigationController.navigationBar
      #expect(bar.barTintColor == nil, "the launch resets the proxy; the bar was in its window")
      UINavigationBar.appearance().barTintColor = .blue
      #expect(bar.barTintColor == nil, "a bar already in a window keeps its look")
      let view = session.navigationController.view!
      let window = view.window!
      view.removeFromSuperview()
      window.addSubview(view)
      #expect(bar.barTintColor == .blue, "out of the window and back: the proxy applies")
      freshModel()
      #expect(UINavigationBar.appearance().barTintColor == nil)
    }

    @Test("the whole bar is composited: its own colour under the background, a view put over it")
    func wholeBarComposited() {
      let bar = bar(ios: "13.0")
      bar.setBackgroundImage(UIImage(), for: .default)
      bar.backgroundColor = .red
      #expect(bar.asSeen(over: .white).backgroundColor == UIColorComponents(.red))
      // The bar's own colour covers its 44 points only, not the status bar's strip.
      #expect(bar.asSeen(over: .white).statusBarAreaColor == UIColorComponents(.white))
      let overlay = UIView(frame: CGRect(x: 0, y: -20, width: 375, height: 64))
      overlay.backgroundColor = .blue
      bar.insertSubview(overlay, at: 0)
      #expect(bar.asSeen(over: .white).backgroundColor == UIColorComponents(.blue))
      #expect(bar.asSeen(over: .white).statusBarAreaColor == UIColorComponents(.blue))
      overlay.transform = CGAffineTransform(translationX: 0, y: -64)
      #expect(bar.asSeen(over: .white).backgroundColor == UIColorComponents(.red))
      overlay.transform = .identity
      overlay.alpha = 0
      #expect(bar.asSeen(over: .white).backgroundColor == UIColorComponents(.red))
      overlay.alpha = 1
      overlay.isHidden = true
      #expect(bar.asSeen(over: .white).backgroundColor == UIColorComponents(.red))
    }

    @Test("an empty background image makes the system background clear; the shadow image needs it")
    func backgroundRules() {
      let bar = bar(ios: "13.0")
      #expect(bar.asSeen().backgroundColor != UIColorComponents(.white))
      #expect(bar.asSeen().shadowVisible)
      bar.shadowImage = UIImage()
      #expect(bar.asSeen().shadowVisible, "ignored without a custom background image")
      bar.setBackgroundImage(UIImage(), for: .default)
      #expect(bar.asSeen().backgroundColor == UIColorComponents(.white), "clear: white shows")
      #expect(!bar.asSeen().shadowVisible, "honoured now")
      bar.shadowImage = nil
      #expect(bar.asSeen().shadowVisible)
    }

    @Test("the WRNavigationBar technique: a view at index 0 of the first subview, alpha fan-out")
    func barLayerTechnique() throws {
      let bar = bar(ios: "13.0")
      bar.setBackgroundImage(UIImage(), for: .default)
      let background = try #require(bar.subviews.first)
      let layer = UIView(frame: CGRect(x: 0, y: 0, width: bar.bounds.width, height: 64))
      layer.autoresizingMask = .flexibleWidth
      layer.backgroundColor = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
      background.insertSubview(layer, at: 0)
      #expect(bar.asSeen().backgroundColor == UIColorComponents(.red))
      for view in background.subviews { view.alpha = 0.5 }
      let seen = bar.asSeen().backgroundColor
      #expect(close(seen.red, 1) && close(seen.green, 0.5) && seen.alpha == 1)
      bar.transform = CGAffineTransform(translationX: 0, y: -44)
      #expect(bar.asSeen().translationY == -44)
    }

    @Test("-setTitleTextAttributes: can be swizzled: the seeds keep their colour that way")
    func titleAttributesSwizzle() throws {
      let bar = bar(ios: "13.0")
      let cls = try #require(
        objc_allocateClassPair(UINavigationBar.runtimeClass, "KeepColorBar", 0))
      objc_registerClassPair(cls)
      let original = class_getMethodImplementation(
        UINavigationBar.runtimeClass, "setTitleTextAttributes:")!
      let keepColor = try imp_implementationWithBlock { (me: UINavigationBar, box: ObjCObject?) in
        var attributes = (box as? TextAttributesBox)?.attributes ?? [:]
        if attributes.foregroundColor == nil {
          attributes[.foregroundColor] = me.titleTextAttributes?.foregroundColor
        }
        typealias Setter = @convention(c) (id, SEL, id?) -> Void
        let box = TextAttributesBox(attributes)
        withExtendedLifetime(box) {
          unsafeBitCast(original.rawValue, to: Setter.self)(
            me.passUnretained(), Selector("setTitleTextAttributes:").sel, box.passUnretained())
        }
      }
      class_addMethod(cls, "setTitleTextAttributes:", keepColor, "v@:@")
      try bar.setClass(cls)
      bar.titleTextAttributes = [.foregroundColor: UIColor.red]
      bar.titleTextAttributes = [.font: UIFont.systemFont(ofSize: 20)]
      #expect(bar.titleTextAttributes?.foregroundColor == UIColor.red)
      #expect(bar.titleTextAttributes?.font?.pointSize == 20)
      #expect(bar.asSeen().titleColor == UIColorComponents(.red))
    }

    @Test("the delegate is asked through the runtime, so a swizzled shouldPop decides")
    func delegateThroughRuntime() {
      let bar = bar(ios: "13.0")
      let delegate = RefusingDelegate()
      bar.pushItem(UINavigationItem(title: "One"), animated: false)
      bar.pushItem(UINavigationItem(title: "Two"), animated: false)
      #expect(bar.topItem?.title == "Two" && bar.backItem?.title == "One")
      bar.delegate = delegate
      #expect(bar.popItem(animated: true) == nil)
      bar.delegate = nil
      #expect(bar.popItem(animated: true)?.title == "Two")
      #expect(bar.titleLabel.text == "One")
    }

    @Test("tint and a bar colour animate into what the user sees")
    func animatedAppearance() {
      let bar = bar(ios: "13.0")
      bar.tintColor = .black
      UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) { bar.tintColor = .white }
      VirtualRunLoop.main.advance(by: 0.5)
      #expect(close(bar.asSeen().tintColor.red, 0.5, tolerance: 1e-6))
    }
  }
}
