// What the bar plugins cost: the transparent-bar plugin's installation at a launch (the walk of
// the class list and the exchanges), and a frame of a swipe-back with and without each plugin,
// the hottest path they touch; with the two reads those paths lean on (a private ivar, a typed
// associated value).
import BarLayerPlugin
import Foundation
import Hooks
import ObjCRuntime
import TransparentBarPlugin
import UIKitModel

enum PluginCases {
  static let all: [BenchCase] = [
    BenchCase(
      name: "transparent-install", target: "<= 1 ms (class-list walk + exchanges, fresh process)",
      limit: 1, iterations: (0, 1), body: { _ in 0 }, direct: { installMilliseconds() },
      unit: "ms"),
    BenchCase(
      name: "transparent-install-instructions", target: "report", limit: nil,
      iterations: (0, 1), body: { count in installOnce(count) }),
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

  /// The launch's part of the transparent-bar plugin, as `TransparentBarLaunch.runOnce` does it:
  /// the classes are realized first (at a launch, the model's `SelfAware` pass has done that),
  /// then the walk of `objc_getClassList` casting each class to `TransparentBarAware`, and the
  /// installation (the `et_` methods added and exchanged, the category methods replaced). The
  /// plugin is uninstalled after, to leave the process clean: outside the clock measure, inside
  /// the instruction count (about 0.11 M of its 1.28 M).
  @MainActor static func installOnce(_ count: Int) -> Int {
    _ = objc_getClassList(nil, 0)
    guard count > 0 else { return 0 }
    let (awakened, installed) = walkAndInstall()
    _ = PluginRegistry.shared.uninstall(TransparentBarPlugin())
    return awakened + (installed ? 1 : 0)
  }

  @MainActor static func installMilliseconds() -> Double {
    _ = objc_getClassList(nil, 0)
    let start = DispatchTime.now().uptimeNanoseconds
    _ = walkAndInstall()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    _ = PluginRegistry.shared.uninstall(TransparentBarPlugin())
    return elapsed
  }

  /// The plugin's own walk and the installation; the bench declares no `UINavigationController`
  /// subclass, so the awakes find nothing to install and the plugin is installed by hand where
  /// a subclass's awake would.
  @MainActor private static func walkAndInstall() -> (awakened: Int, installed: Bool) {
    let awakened = TransparentBarLaunch.walkClassList()
    let installed = (try? PluginRegistry.shared.install(TransparentBarPlugin())) ?? false
    return (awakened, installed)
  }

  /// Reads the bar background's `_shadowView` with `object_getIvar` `count` times, the ivar
  /// looked up once, as a seed that cached it would.
  @MainActor static func ivarReads(_ count: Int) -> Int {
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
  @MainActor static func swipeFrames(_ count: Int, plugin: (any HookPlugin)?) -> Int {
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
    return Int(navigation.navigationBar.asSeen().backgroundOpacity * 100)
  }
}
