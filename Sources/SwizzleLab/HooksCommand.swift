// `hooks`: the hook map after installing plugins, or after running a scenario with them.
import Foundation
import GNUObjC
import Hooks
import ObjCRuntime
import Scenarios
import UIKitModel

/// `hooks`: the hook map after installing plugins.
enum HooksCommand {
  @MainActor static func run(_ options: Options, output: LabOutput) throws(LabError) -> LabExit {
    if let name = options.scenarios.first {
      return try runScenario(name, options, output: output)
    }
    let names = options.plugins.isEmpty ? Lab.plugins.map(\.name) : options.plugins
    for name in names where name != "none" {
      do {
        try PluginRegistry.shared.install(named: name)
      } catch {
        throw .failure(error.description)
      }
    }
    let installed = PluginRegistry.shared.plugins.filter(\.isInstalled).map(\.name)
    output.out(
      "installed: \(installed.isEmpty ? "nothing" : installed.joined(separator: ", "))\n\n")
    let map = PluginRegistry.shared.hookMap
    // Only the model's methods: tests and tools may have hooked their own classes.
    let entries = map.entries.filter { entry in entry.layers.contains(where: shown) }
    output.out(
      entries.isEmpty
        ? "(no hooks or swizzles by a plugin)\n"
        : entries.map(\.description).joined(separator: "\n") + "\n")
    let conflicts = map.conflicts
    output.out(
      conflicts.isEmpty
        ? "\nno conflicts\n" : "\n" + conflicts.map(\.description).joined(separator: "\n") + "\n")
    output.out("\n" + navigationOwners().joined(separator: "\n") + "\n")
    return .ok
  }

  /// Whether the map shows a method with this layer: one a plugin made, or an Objective-C file
  /// loaded with `--objc`, named by the file or, for a library of several, by the library
  /// (tests and tools may have hooked classes of their own).
  private static func shown(_ layer: HookMap.Layer) -> Bool {
    guard layer.plugin == nil else { return true }
    guard let location = layer.location else { return false }
    return ObjectiveCModules.loaded.contains { module in
      module.file == location.fileID
        || URL(fileURLWithPath: module.library).lastPathComponent == location.fileID
    }
  }

  /// `hooks --scenario NAME`: installs the scenario's plugins (or those of `--plugin`), runs it,
  /// prints the hook map of the plugins' methods, and lists the hooks no call reached.
  @MainActor private static func runScenario(_ name: String, _ options: Options, output: LabOutput)
    throws(LabError) -> LabExit
  {
    guard let scenario = ScenarioCatalog.named(name) else {
      throw .usage("no scenario '\(name)'", topic: "hooks")
    }
    let registry = PluginRegistry.shared
    let names =
      options.plugins.isEmpty ? scenario.plugins(for: options.scenarioOptions) : options.plugins
    var installed: [String] = []
    defer { for identifier in installed.reversed() { registry.uninstall(identifier) } }
    for name in names where name != "none" {
      guard let plugin = registry.plugin(named: name) else { continue }
      do {
        if try registry.install(plugin) { installed.append(plugin.identifier) }
      } catch {
        throw .failure(error.description)
      }
    }
    _ = try SwizzleLab.runScenario(scenario, options.scenarioOptions)
    let map = registry.hookMap
    let entries = map.entries.filter { entry in entry.layers.contains(where: shown) }
    output.out(
      "ran \(scenario.name) with \(names.isEmpty ? "no plugin" : names.joined(separator: ", "))\n\n"
        + (entries.isEmpty
          ? "(no hooks or swizzles by a plugin)\n"
          : entries.map(\.description).joined(separator: "\n") + "\n"))
    let neverFired = map.hooksNeverFired.filter { line in
      entries.contains { line.hasPrefix("\($0.method):") }
    }
    output.out(
      neverFired.isEmpty
        ? "\nevery hook fired\n"
        : "\nnever fired in this run:\n" + neverFired.map { "  \($0)\n" }.joined())
    return .ok
  }

  /// Who owns a navigation controller's delegate and which gestures drive its pop, with the
  /// plugins installed: a fresh stack of two pages is launched and read (the plugins that
  /// set up at `viewDidLoad` or at the first push have done so).
  @MainActor static func navigationOwners() -> [String] {
    let session = NavigationSession(root: UIViewController())
    session.push(UIViewController())
    let navigation = session.navigationController
    var lines = ["a navigation controller, after a push:"]
    let delegate = navigation.delegateObject.map { "\(type(of: $0))" } ?? "none"
    lines.append("  delegate: \(delegate)")
    for recognizer in navigation.view.gestureRecognizers ?? [] {
      let targets = (try? recognizer.value(forKey: "targets") as? [ObjCObject]) ?? []
      let actions = targets.compactMap { entry -> String? in
        guard let target = (try? entry.value(forKey: "target")) as? ObjCObject,
          let action = (try? entry.value(forKey: "action")) as? Selector
        else { return nil }
        return "-[\(type(of: target)) \(action)]"
      }
      let role =
        recognizer === navigation.interactivePopGestureRecognizer ? "swipe-back" : "pan"
      lines.append(
        "  \(role): \(type(of: recognizer))\(recognizer.isEnabled ? "" : " (disabled)")"
          + " -> \(actions.isEmpty ? "no target" : actions.joined(separator: ", "))")
    }
    return lines
  }
}
