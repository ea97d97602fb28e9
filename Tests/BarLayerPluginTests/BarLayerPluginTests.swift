// The bar-layer plugin on the model: WRNavigationBar's numbers, its rules, and what it fixes.
import BarLayerPlugin
import Foundation
import Hooks
import ObjCRuntime
import SwizzleKitTesting
import Testing
import UIKitModel

/// Gives each test the plugin's default settings, and puts them back after it: the settings are
/// global, and the scenario tests of other suites run with whatever is left. (A trait of the
/// test target's own, written as any team would for its plugin's global state.)
struct DefaultBarLayerSettings: TestTrait, SuiteTrait, TestScoping {
  var isRecursive: Bool { true }

  func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  @MainActor func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    BarLayer.settings.value = BarLayerSettings()
    defer { BarLayer.settings.value = BarLayerSettings() }
    try await function()
  }
}

/// Whether two numbers agree to 1e-9.
func close(_ a: CGFloat, _ b: CGFloat, tolerance: CGFloat = 1e-9) -> Bool {
  abs(a - b) <= tolerance
}

/// A navigation controller in a window with a transparent root (blue bar at alpha 0) and an
/// opaque second screen (white bar).
@MainActor private func twoScreens() -> (UINavigationController, UIViewController, UIViewController)
{
  let transparent = UIViewController()
  transparent.title = "Transparent"
  transparent.navBarBarTintColor = UIColor(red: 0, green: 0.686, blue: 0.941, alpha: 1)
  transparent.navBarBackgroundAlpha = 0
  transparent.navBarTitleColor = .white
  transparent.navBarTintColor = .white
  transparent.statusBarStyle = .lightContent
  let opaque = UIViewController()
  opaque.title = "Opaque"
  let navigation = UINavigationController(rootViewController: transparent)
  let window = UIWindow(frame: UIScreen.main.bounds)
  window.rootViewController = navigation
  window.makeKeyAndVisible()
  VirtualRunLoop.main.runUntilIdle()
  return (navigation, transparent, opaque)
}

private func components(_ color: UIColor?) -> UIColorComponents { UIColorComponents(color) }

@MainActor
@Suite(
  "Bar-layer plugin", .uiKitModel, .plugins(BarLayerPlugin()), DefaultBarLayerSettings())
struct BarLayerPluginTests {
  @Test("push progress per tick is WRNavigationBar's: 0.128 ... 1.0 on the 8th tick")
  func pushProgress() throws {
    let (navigation, _, opaque) = twoScreens()
    navigation.pushViewController(opaque, animated: true)
    VirtualRunLoop.main.runUntilIdle()
    let expected: [CGFloat] = [0.128, 0.256, 0.385, 0.513, 0.641, 0.769, 0.897, 1.0]
    let seen = navigation.barLayerTickProgresses
    #expect(seen.count >= 8)
    #expect(zip(seen, expected).allSatisfy { abs($0 - $1) < 0.001 })
    #expect(seen.last == 1, "and it stays at 1")
  }

  @Test("pop progress reaches exactly 1.0 (the Objective-C version stops at 7 / 7.2)")
  func popProgress() throws {
    BarLayer.settings.value.popDuration = 0.12
    let (navigation, _, opaque) = twoScreens()
    navigation.pushViewController(opaque, animated: false)
    navigation.popViewController(animated: true)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.barLayerTickProgresses.contains(1.0))
  }

  @Test("every tick sets the bar to from + (to - from) x p, title colour included")
  func interpolation() throws {
    let (navigation, transparent, opaque) = twoScreens()
    navigation.pushViewController(opaque, animated: true)
    VirtualRunLoop.main.advance(frames: 3)
    let p = navigation.barLayerTickProgresses.last ?? -1
    #expect(abs(p - 3 / 7.8) < 1e-9)
    let expected = BarLayer.middleColor(
      components(transparent.navBarBarTintColor), components(opaque.navBarBarTintColor), p)
    let bar = navigation.navigationBar
    #expect(components(try #require(bar.barLayerBackgroundView).backgroundColor) == expected)
    let alpha = try #require(bar.subviews.first?.subviews.first).alpha
    #expect(abs(alpha - p) < 1e-9, "alpha from 0 to 1")
    let title = try #require(bar.titleTextAttributes?.foregroundColor)
    #expect(abs(title.red - (1 - p)) < 1e-9, "white to black, interpolated")
    VirtualRunLoop.main.runUntilIdle()
    #expect(
      components(bar.barLayerBackgroundView?.backgroundColor) == UIColorComponents(.white))
    #expect(bar.asSeen().statusBarStyle == .default)
  }

  @Test("a swipe-back cancelled at 30 % and one finished from 60 % end exactly right")
  func interactive() throws {
    let (navigation, transparent, opaque) = twoScreens()
    navigation.pushViewController(opaque, animated: false)
    VirtualRunLoop.main.runUntilIdle()
    let bar = navigation.navigationBar
    let pan = try #require(navigation.interactivePopGestureRecognizer)
    let width = navigation.view.bounds.width

    GestureDriver.begin(pan)
    GestureDriver.move(pan, to: CGPoint(x: width * 0.3, y: 0))
    let atThirty = components(bar.barLayerBackgroundView?.backgroundColor)
    #expect(
      atThirty
        == BarLayer.middleColor(
          components(opaque.navBarBarTintColor), components(transparent.navBarBarTintColor), 0.3
        ))
    GestureDriver.move(pan, to: CGPoint(x: width * 0.3 + 0.1, y: 0))
    GestureDriver.end(pan)
    let duration = UINavigationController.transitionDuration
    VirtualRunLoop.main.advance(by: duration * 0.3 / 2)
    let halfway = bar.barLayerBackgroundView?.presentationBackgroundColor
    #expect(
      halfway.map { abs($0.red - (atThirty.red + 1) / 2) < 0.02 } == true, "half way back")
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.topViewController === opaque)
    #expect(
      components(bar.barLayerBackgroundView?.presentationBackgroundColor)
        == UIColorComponents(.white))

    GestureDriver.begin(pan)
    GestureDriver.move(pan, to: CGPoint(x: width * 0.6, y: 0))
    GestureDriver.move(pan, to: CGPoint(x: width * 0.6 + 0.1, y: 0))
    GestureDriver.end(pan)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.topViewController === transparent)
    #expect(
      components(bar.barLayerBackgroundView?.presentationBackgroundColor)
        == components(transparent.navBarBarTintColor))
    #expect(bar.asSeen().statusBarStyle == .lightContent)
  }

  @Test(
    "shouldPop pops to viewControllers[count - n] and follows the iOS 13 rule",
    arguments: ["12.4", "13.0"])
  func shouldPop(version: String) throws {
    UIApplication.resetModel(systemVersion: version)
    let (navigation, _, opaque) = twoScreens()
    navigation.pushViewController(opaque, animated: false)
    navigation.pushViewController(UIViewController(), animated: false)
    navigation.navigationBar.tapBackButton()
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.topViewController === opaque)
    #expect(
      !UIKitModelIssues.all.contains {
        if case .shouldPopAfterManualPop = $0 { true } else { false }
      })
  }

  @Test(
    "gating: a covered controller does not overwrite the bar; its values apply when it is back on top"
  )
  func gating() throws {
    let (navigation, transparent, opaque) = twoScreens()
    navigation.pushViewController(opaque, animated: true)
    VirtualRunLoop.main.runUntilIdle()
    transparent.navBarBarTintColor = .red
    let bar = navigation.navigationBar
    #expect(
      components(bar.barLayerBackgroundView?.backgroundColor) == UIColorComponents(.white))
    opaque.navBarTintColor = .orange
    #expect(bar.tintColor == UIColor.orange, "the top controller's own change applies at once")
    navigation.popViewController(animated: true)
    VirtualRunLoop.main.runUntilIdle()
    #expect(components(bar.barLayerBackgroundView?.backgroundColor) == UIColorComponents(.red))
  }

  @Test("translation-Y is the bar's transform, and survives a cancelled swipe-back")
  func translation() throws {
    let (navigation, _, opaque) = twoScreens()
    navigation.pushViewController(opaque, animated: false)
    let bar = navigation.navigationBar
    bar.barLayerSetTranslationY(-44)
    #expect(bar.barLayerTranslationY == -44 && bar.transform.ty == -44)
    let pan = try #require(navigation.interactivePopGestureRecognizer)
    GestureDriver.begin(pan)
    GestureDriver.move(pan, to: CGPoint(x: 60, y: 0))
    GestureDriver.move(pan, to: CGPoint(x: 60.5, y: 0))
    GestureDriver.end(pan)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.topViewController === opaque && bar.barLayerTranslationY == -44)
  }

  @Test("a Swift override of viewWillAppear calling super still gets the plugin")
  func swiftOverride() throws {
    final class Themed: UIViewController {
      var appeared = false
      override func viewWillAppear(_ animated: Bool) {
        appeared = true
        super.viewWillAppear(animated)
      }
    }
    let (navigation, _, _) = twoScreens()
    let themed = Themed()
    themed.navBarTintColor = .green
    navigation.pushViewController(themed, animated: true)
    #expect(themed.appeared && navigation.navigationBar.tintColor == UIColor.green)
    VirtualRunLoop.main.runUntilIdle()
  }

  @Test("two navigation controllers in a transition each get their own progress")
  func ownCounters() throws {
    let (first, _, _) = twoScreens()
    let second = UINavigationController(rootViewController: UIViewController())
    _ = second.view
    first.pushViewController(UIViewController(), animated: true)
    VirtualRunLoop.main.advance(frames: 3)
    second.pushViewController(UIViewController(), animated: true)
    VirtualRunLoop.main.advance(frames: 2)
    #expect(first.barLayerTickProgresses.count == 5)
    #expect(second.barLayerTickProgresses.count == 2)
    VirtualRunLoop.main.runUntilIdle()
  }

  @Test(
    "the background fits the device's real status bar; values are clamped",
    arguments: [DeviceProfile.iPhone8, .iPhoneXR])
  func geometry(device: DeviceProfile) throws {
    UIApplication.resetModel(device: device)
    let (navigation, transparent, _) = twoScreens()
    let background = try #require(navigation.navigationBar.barLayerBackgroundView)
    #expect(background.frame.height == device.statusBarHeight + 44)
    transparent.navBarBackgroundAlpha = 1.7
    #expect(transparent.navBarBackgroundAlpha == 1)
    #expect(BarLayer.middleAlpha(0.5, 1, 2) == 1)
  }

  @Test(
    "with a large title the background view covers the whole bar and the title colour reaches the large title"
  )
  func largeTitle() throws {
    let (navigation, transparent, _) = twoScreens()
    let bar = navigation.navigationBar
    bar.prefersLargeTitles = true
    transparent.navBarTitleColor = .yellow
    let view = try #require(bar.barLayerBackgroundView)
    let background = try #require(bar.subviews.first)
    #expect(bar.barHeight == 96)
    #expect(view.frame.height == background.bounds.height && view.frame.height == 20 + 96)
    #expect(bar.largeTitleTextAttributes?.foregroundColor == .yellow)
    #expect(bar.asSeen().largeTitleColor == UIColorComponents(.yellow))
    bar.prefersLargeTitles = false
    #expect(
      close(view.frame.height, 20 + 44, tolerance: 1e-9), "and follows the bar back to its row")
  }

  @Test("black- and whitelisted controllers are left alone")
  func lists() throws {
    final class ImagePicker: UIViewController {}
    let picker = ImagePicker()
    let name = object_getClass(picker)!.name
    BarLayer.settings.value.blacklist = [name]
    let (navigation, _, _) = twoScreens()
    picker.navBarTintColor = .red
    navigation.pushViewController(picker, animated: false)
    #expect(!picker.canUpdateBarLayer)
    #expect(navigation.navigationBar.tintColor != UIColor.red)
    BarLayer.settings.value.blacklist = []
    BarLayer.settings.value.whitelist = ["SomethingElse"]
    #expect(!picker.canUpdateBarLayer)
    BarLayer.settings.value.whitelist = [name]
    #expect(picker.canUpdateBarLayer)
  }

  @Test("iOS 10 puts the alpha on the first subview itself; iOS 11 on each of its subviews")
  func alphaFanOut() throws {
    for version in ["10.3", "13.0"] {
      UIApplication.resetModel(systemVersion: version)
      let (navigation, _, _) = twoScreens()
      let background = try #require(navigation.navigationBar.subviews.first)
      navigation.navigationBar.barLayerSetBackgroundAlpha(0.4)
      if version == "10.3" {
        #expect(background.alpha == 0.4)
      } else {
        #expect(background.alpha == 1 && background.subviews.allSatisfy { $0.alpha == 0.4 })
      }
    }
  }

  @Test("the background view goes back to index 0 when UIKit re-inserts the bar's background")
  func keptAtBottom() throws {
    let (navigation, _, _) = twoScreens()
    let bar = navigation.navigationBar
    let container = try #require(bar.subviews.first)
    let own = try #require(bar.barLayerBackgroundView)
    container.insertSubview(UIView(), at: 0)
    #expect(container.subviews.first !== own)
    bar.insertSubview(container, at: 0)
    #expect(container.subviews.first === own)
  }

  @Test("a finish from 60 % takes 0.4 x the duration; instantCancel snaps back")
  func finishTiming() throws {
    let (navigation, transparent, opaque) = twoScreens()
    navigation.pushViewController(opaque, animated: false)
    let bar = navigation.navigationBar
    let pan = try #require(navigation.interactivePopGestureRecognizer)
    let width = navigation.view.bounds.width
    GestureDriver.begin(pan)
    GestureDriver.move(pan, to: CGPoint(x: width * 0.6, y: 0))
    GestureDriver.move(pan, to: CGPoint(x: width * 0.6 + 0.1, y: 0))
    GestureDriver.end(pan)
    let duration = UINavigationController.transitionDuration
    VirtualRunLoop.main.advance(by: duration * 0.4 - 0.01)
    #expect(bar.barLayerBackgroundView?.animatingProperties.contains("backgroundColor") == true)
    VirtualRunLoop.main.runUntilIdle()
    #expect(
      components(bar.barLayerBackgroundView?.backgroundColor)
        == components(transparent.navBarBarTintColor))

    BarLayer.settings.value.instantCancel = true
    navigation.pushViewController(opaque, animated: false)
    GestureDriver.begin(pan)
    GestureDriver.move(pan, to: CGPoint(x: width * 0.3, y: 0))
    GestureDriver.move(pan, to: CGPoint(x: width * 0.3 + 0.1, y: 0))
    GestureDriver.end(pan)
    #expect(
      components(bar.barLayerBackgroundView?.backgroundColor) == UIColorComponents(.white))
    #expect(bar.barLayerBackgroundView?.animatingProperties.isEmpty == true)
    VirtualRunLoop.main.runUntilIdle()
  }

  @Test("the plugin is in the hook map, and uninstalling gives the bar back to UIKit")
  func hookMapAndUninstall() throws {
    let map = PluginRegistry.shared.hookMap
    #expect(
      map.entries.contains {
        $0.method.description == "-[UINavigationController pushViewController:animated:]"
          && $0.layers.contains { $0.plugin == "bar-layer" }
      })
    let (navigation, _, _) = twoScreens()
    #expect(navigation.navigationBar.barLayerBackgroundView != nil)
    PluginRegistry.shared.uninstall("bar-layer")
    #expect(navigation.navigationBar.barLayerBackgroundView?.superview == nil)
    #expect(navigation.navigationBar.asSeen().backgroundColor != UIColorComponents(.white))
    // Taken off, the one-line API changes no bar (issue #29): the values are only kept.
    let top = try #require(navigation.topViewController)
    let before = navigation.navigationBar.asSeen()
    top.navBarBarTintColor = .red
    top.navBarBackgroundAlpha = 0.3
    top.navBarTintColor = .green
    top.navBarTitleColor = .blue
    top.navBarShadowImageHidden = true
    #expect(navigation.navigationBar.barLayerBackgroundView == nil, "no background view again")
    #expect(navigation.navigationBar.asSeen() == before)
    #expect(top.navBarBarTintColor == .red, "kept for the next install")
  }

  @Test("a NaN alpha or translation is refused with a warning and the previous value kept")
  func nanValues() throws {
    let (navigation, transparent, _) = twoScreens()
    let bar = navigation.navigationBar
    transparent.navBarBackgroundAlpha = 0.4
    bar.barLayerSetTranslationY(-10)
    let (_, refused) = Diagnostics.collecting(kind: .refusedValue) {
      transparent.navBarBackgroundAlpha = .nan
      bar.barLayerSetBackgroundAlpha(.nan)
      bar.barLayerSetTranslationY(.nan)
      bar.barLayerSetTranslationY(-.infinity)
      bar.barLayerSetBarButtonItemsAlpha(.nan)
    }
    #expect(transparent.navBarBackgroundAlpha == 0.4)
    #expect(bar.barLayerTranslationY == -10)
    #expect(close(bar.asSeen().backgroundOpacity, 0.4))
    #expect(refused.count == 5)
  }

  @Test("uninstalled and installed again, the plugin styles the bars again")
  func reinstall() throws {
    let (navigation, _, opaque) = twoScreens()
    #expect(navigation.navigationBar.barLayerBackgroundView?.superview != nil)
    PluginRegistry.shared.uninstall("bar-layer")
    #expect(navigation.navigationBar.barLayerBackgroundView == nil, "no state left behind")
    try PluginRegistry.shared.install(BarLayerPlugin())
    navigation.pushViewController(opaque, animated: true)
    VirtualRunLoop.main.runUntilIdle()
    let background = try #require(navigation.navigationBar.barLayerBackgroundView)
    #expect(background.superview != nil, "a new background view, in the bar")
    #expect(navigation.navigationBar.asSeen().backgroundColor == UIColorComponents(.white))
    navigation.popViewController(animated: true)
    VirtualRunLoop.main.runUntilIdle()
    #expect(
      navigation.navigationBar.asSeen(over: .black).backgroundOpacity == 0,
      "the transparent root is transparent again")
  }
}
