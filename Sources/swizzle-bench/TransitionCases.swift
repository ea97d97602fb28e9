// What a custom transition costs: an animated push and pop through the animator plugin's
// animators (the transitions, the bar's values, the pop's shadow animation) against the model's
// default slide.
import AnimatorTransitionPlugin
import Foundation
import FullscreenPopPlugin
import Hooks
import OverlayBarPlugin
import Scenarios
import UIKitModel

// The plugins linked so that the scenario cases find their scenarios by discovery.
private let linkedPlugins: [any DiscoverablePlugin.Type] = [
  OverlayBarPlugin.self, FullscreenPopPlugin.self,
]

enum TransitionCases {
  static let all: [BenchCase] = [
    BenchCase(
      name: "push-pop-default", target: "report (an animated push and pop, the default slide)",
      limit: nil, iterations: (20, 60), body: { pushPops($0, plugin: nil) }),
    BenchCase(
      name: "push-pop-animator", target: "<= 2x push-pop-default (the animator plugin)",
      limit: 2, iterations: (20, 60),
      body: { pushPops($0, plugin: AnimatorTransitionPlugin()) },
      relativeTo: "push-pop-default", relativeFactor: true),
    BenchCase(
      name: "push-pop-tab-bar",
      target: "<= 2x push-pop-default (in a tab, the page hides the tab bar: it slides out and in)",
      limit: 2, iterations: (20, 60), body: { pushPops($0, plugin: nil, inTab: true) },
      relativeTo: "push-pop-default", relativeFactor: true),
    BenchCase(
      name: "push-pop-large-title-tab-bar",
      target:
        "<= 2x push-pop-default (in a tab, from a large title to a page without one that hides"
        + " the tab bar: the title collapses, the tab bar slides; issue #34)",
      limit: 2, iterations: (20, 60),
      body: { pushPops($0, plugin: nil, inTab: true, largeTitles: true) },
      relativeTo: "push-pop-default", relativeFactor: true),
  ]

  /// `count` animated pushes of a page with its own bar values and pops back, each run to its
  /// end, with `plugin` installed for the run; `inTab`: in the first of two tabs of a tab bar
  /// controller, the page hiding the tab bar; `largeTitles`: the bar prefers large titles (on
  /// iOS 13), and the pushed page shows none, so the bar's large title collapses and comes back.
  @MainActor static func pushPops(
    _ count: Int, plugin: (any HookPlugin)?, inTab: Bool = false, largeTitles: Bool = false
  ) -> Int {
    VirtualRunLoop.main.reset()
    if let plugin { _ = try? PluginRegistry.shared.install(plugin) }
    defer { if let plugin { _ = PluginRegistry.shared.uninstall(plugin) } }
    let home = UIViewController()
    let navigation = UINavigationController(rootViewController: home)
    let window = UIWindow(frame: UIScreen.main.bounds)
    if inTab {
      let tabs = UITabBarController()
      tabs.viewControllers = [navigation, UIViewController()]
      window.rootViewController = tabs
    } else {
      window.rootViewController = navigation
    }
    if largeTitles {
      UIDevice.current.systemVersion = "13.0"
      navigation.navigationBar.prefersLargeTitles = true
    }
    VirtualRunLoop.main.runUntilIdle()
    var depth = 0
    Stopwatch.time {
      for _ in 0..<count {
        let page = UIViewController()
        page.kj_navigationBarTintColor = .cyan
        page.kj_navigationTitleColor = .white
        page.hidesBottomBarWhenPushed = inTab
        if largeTitles { page.navigationItem.largeTitleDisplayMode = .never }
        navigation.pushViewController(page, animated: true)
        VirtualRunLoop.main.runUntilIdle()
        navigation.popViewController(animated: true)
        VirtualRunLoop.main.runUntilIdle()
        depth &+= navigation.viewControllers.count
      }
    }
    return depth
  }
}

/// What a matrix costs: one scenario run, averaged over every scenario of every plugin on every
/// matrix profile (a launch, the plugin's installation and removal, the script).
enum ScenarioCases {
  static let all: [BenchCase] = [
    BenchCase(
      name: "scenario-run", target: "<= 2,000,000 instructions (one matrix cell, on average)",
      limit: 2_000_000, iterations: (36, 108), body: runs)
  ]

  /// `count` scenario runs, cycling through the scenarios and, for each round, a profile. With
  /// `SWIZZLEKIT_BENCH_SCENARIOS` set to names separated by commas, only those scenarios (to
  /// find what one costs: `callgrind.sh` with 9 and 18 runs covers each profile once).
  @MainActor static func runs(_ count: Int) -> Int {
    var scenarios = ScenarioCatalog.all()
    if let names = ProcessInfo.processInfo.environment["SWIZZLEKIT_BENCH_SCENARIOS"] {
      let chosen = Set(names.split(separator: ",").map(String.init))
      scenarios = scenarios.filter { chosen.contains($0.name) }
    }
    guard !scenarios.isEmpty else { return 0 }
    var moments = 0
    Stopwatch.time {
      for index in 0..<count {
        let scenario = scenarios[index % scenarios.count]
        let profile = IOSProfile.matrix[(index / scenarios.count) % IOSProfile.matrix.count]
        let options = ScenarioOptions(profile: profile)
        moments &+= (try? scenario.run(options: options).count) ?? 0
      }
    }
    return moments
  }
}
