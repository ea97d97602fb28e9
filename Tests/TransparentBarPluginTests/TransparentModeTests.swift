// The transparent-bar plugin's two modes: the seeds' code paths as written (ETNavBarTransparent
// and the EM article, ../shared/seeds/004), bugs included, beside the mended ones (issue #29).
import Foundation
import Hooks
import ObjCRuntime
import SwizzleKitTesting
import Testing
import TransparentBarPlugin
import UIKitModel

/// The EM article's own navigation controller class, made at run time (a Swift subclass of
/// `UINavigationController` in this binary would install the plugin at every launch).
private let emNavigationControllerClass: Class = {
  let base = UINavigationController.runtimeClass
  if let made = objc_getClass("EMNavigationController") { return made }
  let cls = objc_allocateClassPair(base, "EMNavigationController", 0)!
  objc_registerClassPair(cls)
  return cls
}()

/// A window showing a navigation controller (of the article's class when `em`) with a clear
/// root and an opaque page pushed over it.
@MainActor private func twoPages(em: Bool = false) -> (UINavigationController, UIViewController) {
  let clear = UIViewController()
  let navigation = UINavigationController(rootViewController: clear)
  if em { object_setClass(navigation, emNavigationControllerClass) }
  let window = UIWindow(frame: UIScreen.main.bounds)
  window.rootViewController = navigation
  window.makeKeyAndVisible()
  VirtualRunLoop.main.runUntilIdle()
  clear.navBarBgAlpha = 0
  navigation.pushViewController(UIViewController(), animated: false)
  VirtualRunLoop.main.runUntilIdle()
  return (navigation, clear)
}

/// Runs `body` with the plugin in `mode`, and the fixed mode again after.
private func inMode(_ mode: TransparentMode, _ body: () throws -> Void) rethrows {
  try TransparentBarPlugin.mode.withValue(mode, body)
}

@MainActor
@Suite("Transparent-bar modes", .uiKitModel, .plugins(TransparentBarPlugin()))
struct TransparentModeTests {
  /// A swipe of `updates` moves, released past half way; returns the release callbacks it ran.
  private func swipe(_ navigation: UINavigationController, updates: Int) throws -> Int {
    let pan = try #require(navigation.interactivePopGestureRecognizer)
    let width = navigation.view.bounds.width
    let before = TransparentBarPlugin.releaseCallbacks
    GestureDriver.begin(pan)
    for step in 1...updates {
      GestureDriver.move(pan, to: CGPoint(x: width * 0.6 * CGFloat(step) / CGFloat(updates), y: 0))
    }
    GestureDriver.end(pan)
    VirtualRunLoop.main.runUntilIdle()
    return TransparentBarPlugin.releaseCallbacks - before
  }

  @Test("seed: ET registers the release callback on every update: N updates call back N + 1 times")
  func callbackPerUpdate() throws {
    try inMode(.seed) {
      let (navigation, _) = twoPages(em: true)
      let callbacks = try swipe(navigation, updates: 12)
      #expect(callbacks == 13)
    }
    let (navigation, _) = twoPages(em: true)
    let callbacks = try swipe(navigation, updates: 12)
    #expect(callbacks == 1, "fixed: once per swipe")
  }

  @Test("seed: the article's guard returns before the original on a plain navigation controller")
  func articleGuard() throws {
    try inMode(.seed) {
      let (navigation, clear) = twoPages()
      let pan = try #require(navigation.interactivePopGestureRecognizer)
      GestureDriver.begin(pan)
      GestureDriver.move(pan, to: CGPoint(x: navigation.view.bounds.width * 0.4, y: 0))
      let coordinator = try #require(clear.transitionCoordinator)
      #expect(coordinator.percentComplete == 0, "UIKit's own update never ran")
      GestureDriver.end(pan, cancelled: true)
      VirtualRunLoop.main.runUntilIdle()
    }
    let (navigation, clear) = twoPages()
    let pan = try #require(navigation.interactivePopGestureRecognizer)
    GestureDriver.begin(pan)
    GestureDriver.move(pan, to: CGPoint(x: navigation.view.bounds.width * 0.4, y: 0))
    #expect(abs((clear.transitionCoordinator?.percentComplete ?? 0) - 0.4) < 1e-9)
    GestureDriver.end(pan, cancelled: true)
    VirtualRunLoop.main.runUntilIdle()
  }

  @Test("seed: the article's shouldPopItem pops by hand and answers YES, an error on iOS 13")
  func articleShouldPop() {
    inMode(.seed) {
      let (navigation, _) = twoPages()
      UIKitModelIssues.removeAll()
      navigation.navigationBar.tapBackButton()
      VirtualRunLoop.main.runUntilIdle()
      #expect(
        UIKitModelIssues.all.contains {
          if case .shouldPopAfterManualPop = $0 { true } else { false }
        })
    }
    let (navigation, clear) = twoPages()
    UIKitModelIssues.removeAll()
    navigation.navigationBar.tapBackButton()
    VirtualRunLoop.main.runUntilIdle()
    #expect(UIKitModelIssues.all.isEmpty, "fixed: ET's iOS 13 variant")
    #expect(navigation.topViewController === clear)
  }

  @Test(
    "seed: EM's background view is 64 points on a notch phone and 88 on the others",
    arguments: [(DeviceProfile.iPhone8, 88.0, 64.0), (.iPhoneX, 64, 88)])
  func invertedHeight(device: DeviceProfile, seed: CGFloat, fixed: CGFloat) throws {
    for (mode, height) in [(TransparentMode.seed, seed), (.fixed, fixed)] {
      try inMode(mode) {
        UIApplication.resetModel(device: device)
        let (navigation, _) = twoPages()
        navigation.topViewController?.navBarBgColor = .red
        let background = try #require(navigation.navigationBar.backgroundContainer.subviews.first)
        #expect(background.frame.height == height, "\(mode)")
      }
    }
  }

  @Test("fixed: navBarBgAlpha fades a bar with a background image; the seed leaves the image")
  func imageBar() {
    for mode in TransparentMode.allCases {
      inMode(mode) {
        let (navigation, _) = twoPages()
        let bar = navigation.navigationBar
        bar.setBackgroundImage(UIImage(color: .red), for: .default)
        navigation.topViewController?.navBarBgAlpha = 0
        let opacity = bar.asSeen(over: .white).backgroundOpacity
        #expect(mode == .seed ? opacity == 1 : opacity == 0, "\(mode)")
      }
    }
  }

  @Test("fixed: an opaque bar fades too")
  func opaqueBar() {
    let (navigation, _) = twoPages()
    navigation.navigationBar.isTranslucent = false
    navigation.topViewController?.navBarBgAlpha = 0
    #expect(navigation.navigationBar.asSeen(over: .white).backgroundOpacity == 0)
  }

  /// A page that makes its bar clear in `viewDidLoad`, as ET #33's reporter's did.
  private final class ClearOnLoad: UIViewController {
    override func viewDidLoad() {
      super.viewDidLoad()
      navBarBgAlpha = 0
    }
  }

  /// ET issue 33: a presented navigation controller ignores `navBarBgAlpha = 0`. On iOS 12 the
  /// presented bar gets its background late (WRNavigationBar issue 153), so the seed's
  /// `subviews.first` is the content view: the title fades and the background stays. The fixed
  /// mode sets the alpha again when the bar inserts its background.
  @Test(
    "ET #33: a presented navigation controller's clear page, by version and mode",
    arguments: [
      ("12.0", TransparentMode.seed, false), ("12.0", .fixed, true), ("13.0", .seed, true),
      ("13.0", .fixed, true),
    ])
  func presented(version: String, mode: TransparentMode, clear: Bool) {
    inMode(mode) {
      UIApplication.resetModel(systemVersion: version)
      let (navigation, _) = twoPages()
      let presented = UINavigationController(rootViewController: ClearOnLoad())
      navigation.topViewController?.present(presented, animated: true)
      VirtualRunLoop.main.runUntilIdle()
      let seen = presented.navigationBar.asSeen(over: .white)
      #expect((seen.backgroundOpacity == 0) == clear, "iOS \(version), \(mode)")
      presented.dismiss(animated: true)
      VirtualRunLoop.main.runUntilIdle()
    }
  }
}
