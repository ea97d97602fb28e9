// A frame of a swipe-back with and without the bar plugins: what an exchange-based and a
// hook-based plugin add to the model's own work on the hottest path they touch.
import BarLayerPlugin
import Foundation
import Hooks
import ObjCRuntime
import TransparentBarPlugin
import UIKitModel

enum SwipeCases {
  static let all: [BenchCase] = [
    BenchCase(
      name: "ivar-read", target: "report (object_getIvar of _shadowView, the seeds' read)",
      limit: nil, iterations: (100_000, 300_000), body: ivarReads),
    BenchCase(
      name: "swipe-frame", target: "report (a swipe-back frame, no plugin)", limit: nil,
      iterations: (500, 1_500), body: { swipeFrames($0, plugin: nil) }),
    BenchCase(
      name: "swipe-frame-transparent", target: "<= 2x swipe-frame (transparent plugin)",
      limit: 2, iterations: (500, 1_500), body: { swipeFrames($0, plugin: TransparentBarPlugin()) },
      relativeTo: "swipe-frame", relativeFactor: true),
    BenchCase(
      name: "swipe-frame-bar-layer", target: "report (bar-layer plugin, for comparison)",
      limit: nil, iterations: (500, 1_500), body: { swipeFrames($0, plugin: BarLayerPlugin()) }),
  ]

  /// Reads the bar background's `_shadowView` with `object_getIvar` `count` times, the ivar
  /// looked up once, as a seed that cached it would.
  static func ivarReads(_ count: Int) -> Int {
    let bar = UINavigationBar()
    guard let background = bar.subviews.first,
      let ivar = class_getInstanceVariable(object_getClass(background), "_shadowView")
    else { return 0 }
    var found = 0
    Stopwatch.time {
      for _ in 0..<count where object_getIvar(background, ivar) != nil { found &+= 1 }
    }
    return found
  }

  /// `count` frames of one swipe-back, from a opaque page towards a transparent root, with
  /// `plugin` installed for the run: each frame moves the finger (the pan's change sends
  /// `_updateInteractiveTransition:` through the table, where the plugins act) and advances the
  /// run loop by a frame (animations, display links). The finger sweeps 0 to 90 % of the width
  /// and back, so the swipe never ends.
  static func swipeFrames(_ count: Int, plugin: (any HookPlugin)?) -> Int {
    VirtualRunLoop.main.reset()
    if let plugin { _ = try? PluginRegistry.shared.install(plugin) }
    defer { if let plugin { _ = PluginRegistry.shared.uninstall(plugin) } }
    let root = UIViewController()
    root.navBarBgAlpha = 0
    let navigation = UINavigationController(rootViewController: root)
    let window = UIWindow(frame: UIScreen.main.bounds)
    window.rootViewController = navigation
    navigation.pushViewController(UIViewController(), animated: false)
    VirtualRunLoop.main.runUntilIdle()
    guard let pan = navigation.interactivePopGestureRecognizer else { return 0 }
    let width = navigation.view.bounds.width
    GestureDriver.begin(pan)
    Stopwatch.time {
      for frame in 0..<count {
        let step = frame % 180
        let fraction = CGFloat(step < 90 ? step : 180 - step) / 100
        GestureDriver.move(pan, to: CGPoint(x: width * fraction, y: 0))
        VirtualRunLoop.main.advance(frames: 1)
      }
    }
    GestureDriver.end(pan, cancelled: true)
    VirtualRunLoop.main.runUntilIdle()
    return Int(navigation.navigationBar.appearance().backgroundOpacity * 100)
  }
}
