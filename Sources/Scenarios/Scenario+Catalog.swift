// The plugins that bring scenarios, and the catalog of every scenario the loaded plugins bring.
public import Hooks
import ObjCRuntime

/// A plugin that brings scenarios: the lab lists them, runs them with the plugin installed,
/// traces and renders them, and the testing library runs them across devices.
///
/// ```swift
/// struct TintPlugin: ScenarioPlugin {
///   let identifier = "com.example.tint"
///   let summary = "Tints every bar"
///   func install() throws {}
///   var scenarios: [Scenario] {
///     [Scenario(name: "tint-push", summary: "a push") { context in
///       context.start(root: UIViewController())
///       context.mark("start")
///     }]
///   }
/// }
/// ```
public protocol ScenarioPlugin: DiscoverablePlugin {
  /// The scenarios the plugin brings; their names are unique among all plugins' scenarios.
  ///
  /// Read on the main actor, where scenarios run: a plugin's scenarios may be built by code
  /// isolated to it, as the code of a target with main-actor default isolation is.
  @MainActor var scenarios: [Scenario] { get }
}

/// Every scenario the loaded plugins bring, found through plugin discovery.
@MainActor
public enum ScenarioCatalog {
  /// The scenarios left out already reported, so that each is reported once.
  private static let reported = RuntimeLock<Set<String>>([])

  /// Every scenario of every ``ScenarioPlugin`` registered (after discovering the plugins of the
  /// images loaded since the last call), by plugin in the order of their short names (the order
  /// plugins register in depends on who asks first), each plugin's in its own order; each
  /// carries its plugin's name. A scenario whose name a plugin earlier in that order took is
  /// left out and reported through `Diagnostics`.
  public static func all() -> [Scenario] {
    let registry = PluginRegistry.shared
    _ = try? registry.discover()
    var seen: [String: String] = [:]
    var result: [Scenario] = []
    let plugins = registry.plugins.sorted { ($0.name, $0.identifier) < ($1.name, $1.identifier) }
    for info in plugins {
      guard let plugin = registry.plugin(named: info.identifier) as? any ScenarioPlugin else {
        continue
      }
      for scenario in plugin.scenarios {
        if let other = seen[scenario.name] {
          if other != info.name,
            reported.withLock({ $0.insert("\(info.name)/\(scenario.name)").inserted })
          {
            Diagnostics.warn(
              "the scenario \(scenario.name) of the plugin \(info.name) is left out: the plugin"
                + " \(other) brings one of that name", kind: .plugin)
          }
          continue
        }
        seen[scenario.name] = info.name
        result.append(scenario.broughtBy(info.name))
      }
    }
    return result
  }

  /// The scenario named `name`.
  public static func named(_ name: String) -> Scenario? {
    all().first { $0.name == name }
  }
}
