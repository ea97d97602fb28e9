import BarLayerPlugin
// The UIKit model's cases: a model method called from Swift, and frames with animations and a
// display link on the virtual clock.
import Foundation
import ObjCRuntime
import Scenarios
import UIKitModel

/// A display-link target that counts its ticks.
final class FrameCounter: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(FrameCounter.self) {
      ObjCMethodDeclaration("tick:", FrameCounter.tick)
    }
  }
  var ticks = 0
  static let tick: @convention(c) (id, SEL, id?) -> Void = { me, _, _ in
    unsafeDowncast(me.takeUnretainedObject(), to: FrameCounter.self).ticks += 1
  }
}

enum UIKitCases {
  static let all: [BenchCase] = [
    BenchCase(
      name: "uikit-method-from-swift", target: "<= 1.5x cached-send (view.isHidden)",
      limit: 1.5, iterations: (100_000, 300_000), body: modelMethodCall,
      relativeTo: "cached-send", relativeFactor: true),
    BenchCase(
      name: "view-alpha-set", target: "<= 150 (view.alpha = x, no animation)", limit: 150,
      iterations: (100_000, 300_000), body: { alphaSets($0, animated: false) }),
    BenchCase(
      name: "view-alpha-set-animated", target: "report (view.alpha = x in UIView.animate)",
      limit: nil, iterations: (1_000, 3_000), body: { alphaSets($0, animated: true) }),
    BenchCase(
      name: "frame-10-animations", target: "report (a frame, 10 animations, a link)",
      limit: nil, iterations: (1_000, 3_000), body: { framesWithAnimations($0) }),
    BenchCase(
      name: "frame-10-animations-time", target: "<= 20 us per frame", limit: 20,
      iterations: (0, 1), body: { _ in 0 }, direct: { microsecondsPerFrame() }, unit: "us/frame"),
    BenchCase(
      name: "frames-10000-time", target: "<= 1,000 ms (10,000 frames)", limit: 1000,
      iterations: (0, 1), body: { _ in 0 }, direct: { tenThousandFramesMilliseconds() },
      unit: "ms"),
    BenchCase(
      name: "push-pop-animated", target: "report (instructions; time below)", limit: nil,
      iterations: (20, 60), body: { pushPops($0) }),
    BenchCase(
      name: "push-pop-animated-time", target: "<= 50 us (push + pop, a display link)",
      limit: 50, iterations: (0, 1), body: { _ in 0 }, direct: { pushPopMicroseconds() },
      unit: "us"),
    BenchCase(
      name: "ant-forest-scenario", target: "report (end to end)",
      limit: nil, iterations: (0, 1), body: { _ in 0 }, direct: { antForestMilliseconds() },
      unit: "ms"),
    BenchCase(
      name: "pushes-pops-1000-time", target: "<= 1,000 ms (1,000 pushes and pops)", limit: 1000,
      iterations: (0, 1), body: { _ in 0 }, direct: { thousandPushPopsMilliseconds() }, unit: "ms"),
  ]

  /// A navigation controller in a window, and a display link ticking, on a fresh run loop.
  @MainActor static func navigationScene() -> (UINavigationController, CADisplayLink) {
    VirtualRunLoop.main.reset()
    let navigation = UINavigationController(rootViewController: UIViewController())
    let window = UIWindow(frame: UIScreen.main.bounds)
    window.rootViewController = navigation
    let link = CADisplayLink(target: FrameCounter(), selector: "tick:")
    link.add(to: .main, forMode: .common)
    return (navigation, link)
  }

  /// `count` animated pushes, each followed by an animated pop, run to completion.
  @MainActor static func pushPops(_ count: Int) -> Int {
    let (navigation, link) = navigationScene()
    Stopwatch.time {
      for _ in 0..<count {
        navigation.pushViewController(UIViewController(), animated: true)
        VirtualRunLoop.main.runUntilIdle()
        navigation.popViewController(animated: true)
        VirtualRunLoop.main.runUntilIdle()
      }
    }
    link.invalidate()
    return navigation.viewControllers.count
  }

  @MainActor static func pushPopMicroseconds() -> Double {
    _ = pushPops(10)
    let start = DispatchTime.now().uptimeNanoseconds
    _ = pushPops(100)
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 100 / 1_000
  }

  /// The Ant Forest scenario with the bar-layer plugin, from launch to its last moment.
  @MainActor static func antForestMilliseconds() -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = try? BarLayerScenarios.antForest.run(
      options: ScenarioOptions(device: .iPhone8, plugins: [BarLayerPlugin().name]))
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
  }

  @MainActor static func thousandPushPopsMilliseconds() -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = pushPops(1_000)
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
  }

  @inline(never)
  @MainActor static func modelMethodCall(_ count: Int) -> Int {
    let view = UIView()
    var hidden = false
    Stopwatch.time {
      for _ in 0..<count {
        hidden.toggle()
        view.isHidden = hidden
      }
    }
    return view.isHidden ? 1 : 0
  }

  /// Sets a view's alpha `count` times: outside any animation block (the model value changes,
  /// nothing animates), or inside one per set (each set starts an animation that replaces the
  /// previous one).
  @inline(never)
  @MainActor static func alphaSets(_ count: Int, animated: Bool) -> Int {
    VirtualRunLoop.main.reset()
    let view = UIView()
    var alpha: CGFloat = 1
    Stopwatch.time {
      if animated {
        for _ in 0..<count {
          alpha = alpha == 1 ? 0.5 : 1
          UIView.animate(withDuration: 1) { view.alpha = alpha }
        }
      } else {
        for _ in 0..<count {
          alpha = alpha == 1 ? 0.5 : 1
          view.alpha = alpha
        }
      }
    }
    return view.alpha == 1 ? 1 : 0
  }

  /// Ten views whose alpha animates over a long time, and a display link, on a fresh run loop.
  @MainActor static func scene() -> (views: [UIView], counter: FrameCounter, link: CADisplayLink) {
    VirtualRunLoop.main.reset()
    let views = (0..<10).map { _ in UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)) }
    UIView.animate(withDuration: 10_000) {
      for view in views { view.alpha = 0 }
    }
    let counter = FrameCounter()
    let link = CADisplayLink(target: counter, selector: "tick:")
    link.add(to: .main, forMode: .common)
    return (views, counter, link)
  }

  /// Runs `count` frames of the scene; what callgrind divides.
  @MainActor static func framesWithAnimations(_ count: Int) -> Int {
    let (views, counter, link) = scene()
    Stopwatch.time {
      for _ in 0..<count {
        VirtualRunLoop.main.advance(frames: 1)
        _ = views[0].presentationAlpha
      }
    }
    link.invalidate()
    return counter.ticks
  }

  @MainActor static func microsecondsPerFrame() -> Double {
    let (views, _, link) = scene()
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<10_000 {
      VirtualRunLoop.main.advance(frames: 1)
      _ = views[0].presentationAlpha
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
    link.invalidate()
    return elapsed / 10_000 / 1_000
  }

  @MainActor static func tenThousandFramesMilliseconds() -> Double {
    let (_, _, link) = scene()
    let start = DispatchTime.now().uptimeNanoseconds
    VirtualRunLoop.main.advance(frames: 10_000)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
    link.invalidate()
    return elapsed / 1_000_000
  }
}
