// The lab's commands: run (a timeline), trace (runtime events), hooks (the hook map), render
// (HTML and JSON) and load (a plugin library).
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import UIKitModel

/// Formats colours and numbers the same way everywhere, so that output is byte for byte stable.
enum Format {
  static func hex(_ color: UIColorComponents) -> String {
    String(color.color.hexDescription.prefix(7))
  }

  static func number(_ value: CGFloat, digits: Int = 2) -> String {
    String(format: "%.\(digits)f", Double(value) == 0 ? 0 : Double(value))
  }

  static func time(_ value: TimeInterval) -> String { String(format: "%.3fs", value) }

  static func status(_ style: UIStatusBarStyle) -> String {
    switch style {
    case .default: "dark"
    case .darkContent: "dark"
    case .lightContent: "light"
    }
  }

  /// What a moment's line adds when it is not the usual: the title's or the buttons' alpha
  /// below 1, and the status bar's strip in another colour than the bar (an overlay too short
  /// for the device).
  static func exceptions(_ bar: NavigationBarAppearance) -> String {
    var parts: [String] = []
    if bar.titleColor.alpha < 0.995 || bar.buttonAlpha < 0.995 {
      parts.append(
        "elements \(number(bar.titleColor.alpha))/\(number(bar.buttonAlpha))")
    }
    if bar.statusBarAreaColor != bar.backgroundColor {
      parts.append("status area \(hex(bar.statusBarAreaColor))")
    }
    return parts.isEmpty ? "" : "\n            " + parts.joined(separator: "  ")
  }

  /// The bar as a strip: in 24-bit colour on a terminal (the background, with the title in its
  /// colour), else its hex value.
  static func strip(_ appearance: NavigationBarAppearance, title: String, color: Bool) -> String {
    guard color else { return "[\(hex(appearance.backgroundColor))]" }
    func channel(_ value: CGFloat) -> Int { Int((max(0, min(1, value)) * 255).rounded()) }
    let background = appearance.backgroundColor
    let text = appearance.titleColor
    let label = String(title.prefix(8)).padding(toLength: 8, withPad: " ", startingAt: 0)
    return "\u{1B}[48;2;\(channel(background.red));\(channel(background.green));"
      + "\(channel(background.blue))m\u{1B}[38;2;\(channel(text.red));\(channel(text.green));"
      + "\(channel(text.blue))m \(label)\u{1B}[0m"
  }
}

/// `run`: the timeline of a scenario.
enum RunCommand {
  static func run(_ options: Options, output: LabOutput, environment: [String: String])
    throws(LabError) -> LabExit
  {
    guard let scenario = ScenarioCatalog.named(options.scenario ?? "tour") else {
      throw .usage("no scenario", topic: "run")
    }
    let color = output.isTerminal && !options.noColor && environment["NO_COLOR"] == nil
    let plugins = scenario.plugins(for: options.scenarioOptions)
    output.out(
      Lab.wrap("\(scenario.name): \(scenario.summary)", width: 79).joined(separator: "\n") + "\n"
        + "\(options.device.rawValue), iOS \(options.systemVersion),"
        + (options.sdkVersion.map { " iOS \($0) SDK," } ?? "")
        + " plugin\(plugins.count > 1 ? "s" : "")"
        + " \(plugins.isEmpty ? "none" : plugins.joined(separator: ", "))\n\n")
    let moments = try runScenario(scenario, options.scenarioOptions)
    let title =
      (UIApplication.shared.keyWindow?.rootViewController as? UINavigationController)?
      .topViewController?.title ?? ""
    for moment in moments {
      let bar = moment.appearance
      output.out("  \(Format.time(moment.time))  \(moment.name)\n")
      output.out(
        "          \(Format.strip(bar, title: title, color: color))"
          + " bg \(Format.hex(bar.backgroundColor)) \(Format.number(bar.backgroundOpacity))"
          + "  tint \(Format.hex(bar.tintColor))  title \(Format.hex(bar.titleColor))"
          + "  \(Format.status(bar.statusBarStyle))  y \(Format.number(bar.translationY, digits: 0))"
          + Format.exceptions(bar) + "\n")
      if options.speed > 0 { usleep(useconds_t(options.speed * 1_000_000)) }
    }
    if let last = moments.last {
      let summary =
        "\(moments.count) steps over \(Format.time(last.time)) of virtual time; the bar ends"
        + " \(Format.hex(last.appearance.backgroundColor)) at opacity"
        + " \(Format.number(last.appearance.backgroundOpacity)), status bar"
        + " \(Format.status(last.appearance.statusBarStyle))."
      output.out("\n" + Lab.wrap(summary, width: 79).joined(separator: "\n") + "\n")
    }
    return .ok
  }
}

/// Runs `scenario`, turning a plugin that fails to install into a failure of the command.
func runScenario(_ scenario: Scenario, _ options: ScenarioOptions) throws(LabError)
  -> [ScenarioMoment]
{
  do {
    return try scenario.run(options: options)
  } catch {
    throw .failure(error.description)
  }
}

/// Records runtime events with their virtual time.
final class TraceRecorder: RuntimeTracer, @unchecked Sendable {
  // @unchecked Sendable: a tracer is process-wide, so events arrive from every thread that uses
  // the runtime (a program's other threads, the tests running beside the lab's). The recorder
  // keeps the events of the thread that made it, which runs the scenario, and its state is
  // touched from that thread only.
  private let owner = pthread_self()
  var lines: [String] = []
  var layers: [MethodReference: [HookMap.Layer]] = [:]
  /// The installed plugins the layers were read with: a scenario may take a plugin off and put
  /// it back (to show a seed without it), and the chains shown must follow.
  private var layersInstalled: [String]?

  /// Reads the hook map's layers again when the installed plugins changed since the last read.
  func refreshLayers() {
    let registry = PluginRegistry.shared
    let installed = registry.plugins.filter(\.isInstalled).map(\.identifier)
    guard installed != layersInstalled else { return }
    layersInstalled = installed
    layers = [:]
    for entry in registry.hookMap.entries { layers[entry.method] = entry.layers }
  }

  func runtime(_ event: RuntimeEvent) {
    guard pthread_equal(pthread_self(), owner) != 0 else { return }
    var line = TraceRecorder.line(for: event)
    if case .messageSent(let cls, let selector, _) = event {
      // `send -[A x] -> -[B x]`, on two lines when the method found is another class's.
      let sent = MethodReference(owner: cls, selector: selector).description
      let found = line.components(separatedBy: " -> ").last ?? ""
      line = "send \(sent)" + (found == sent ? "" : "\n          finds \(found)")
    }
    if case .messageSent = event { refreshLayers() }
    if case .messageSent(let cls, let selector, _) = event, let chain = chain(cls, selector) {
      // The chain on lines of its own, so that the trace reads at 80 columns.
      line +=
        "\n          via "
        + (chain.map(\.description) + ["original"]).joined(separator: "\n           -> ")
    }
    lines.append("\(Format.time(CACurrentMediaTime()))  \(line)")
  }

  /// The event as the trace shows it: method-table edits without the IMPs' addresses (which
  /// differ from run to run), and the hook framework's own edits named as such rather than by
  /// the engine's source line.
  static func line(for event: RuntimeEvent) -> String {
    func origin(_ location: SourceLocation) -> String {
      location.fileID.hasPrefix("Hooks/") ? " (a hook's interceptor)" : " at \(location)"
    }
    switch event {
    case .methodAdded(let method, let location):
      return "add \(method)\(origin(location))"
    case .implementationSet(let method, _, _, let location):
      return "set \(method)\(origin(location))"
    default:
      return event.description
    }
  }

  /// The hook-map layers a send of `selector` to `cls` goes through: those of the nearest class
  /// up the chain that has some.
  private func chain(_ cls: Class, _ selector: Selector) -> [HookMap.Layer]? {
    var current: Class? = cls
    while let candidate = current {
      let key = MethodReference(owner: candidate, selector: selector)
      if let found = layers[key], !found.isEmpty { return found }
      current = candidate.superclass
    }
    return nil
  }
}

/// `trace`: every runtime event of a scenario.
enum TraceCommand {
  /// The selectors whose sends the trace always shows: the stack operations (transitions start
  /// there), the appearance callbacks and the bar's methods plugins care about. The methods the
  /// installed plugins hook or swizzle, and the selectors display links call, are added.
  static let selectors: Set<Selector> = [
    "pushViewController:animated:", "popViewControllerAnimated:",
    "popToViewController:animated:", "popToRootViewControllerAnimated:",
    "_updateInteractiveTransition:", "navigationBar:shouldPopItem:", "viewWillAppear:",
    "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:", "setTitleTextAttributes:",
    // Custom transitions: the delegate, the context an animator completes, a layer animation's
    // end.
    "setDelegate:", UINavigationController.DelegateSelectors.willShow,
    UINavigationController.DelegateSelectors.didShow,
    UINavigationController.DelegateSelectors.animator,
    UINavigationController.DelegateSelectors.interaction, "completeTransition:",
    "updateInteractiveTransition:", "finishInteractiveTransition", "cancelInteractiveTransition",
    "animationDidStop:finished:",
    // Gestures: the swipe-back's private action, and a recognizer's delegate asked to begin.
    "handleNavigationTransition:", "gestureRecognizerShouldBegin:",
  ]

  static func run(_ options: Options, output: LabOutput) throws(LabError) -> LabExit {
    guard let scenario = ScenarioCatalog.named(options.scenario ?? "tour") else {
      throw .usage("no scenario", topic: "trace")
    }
    let recorder = TraceRecorder()
    let registry = PluginRegistry.shared
    var installed: [String] = []
    defer { for name in installed.reversed() { registry.uninstall(name) } }
    // Recording from before the installs: each plugin's swizzles and hooks show under its line.
    Tracing.install(recorder, tracingSends: selectors)
    for name in scenario.plugins(for: options.scenarioOptions) {
      guard let plugin = registry.plugin(named: name) else { continue }
      recorder.lines.append("\(Format.time(0))  install plugin \(plugin.identifier)")
      do {
        if try registry.install(plugin) { installed.append(plugin.identifier) }
      } catch {
        throw .failure(error.description)
      }
    }
    var traced = selectors
    recorder.refreshLayers()
    for entry in registry.hookMap.entries {
      if entry.layers.contains(where: { $0.plugin != nil }) {
        traced.insert(Selector(entry.method.selectorName))
      }
    }
    let linkObserver = VirtualRunLoop.main.addDisplayLinkObserver { link in
      guard !traced.contains(link.selector) else { return }
      traced.insert(link.selector)
      Tracing.install(recorder, tracingSends: traced)
    }
    var transitioning = false
    let observer = VirtualRunLoop.main.addFrameObserver { time in
      let now =
        (UIApplication.shared.keyWindow?.rootViewController as? UINavigationController)?
        .isTransitioning ?? false
      if now != transitioning {
        recorder.lines.append("\(Format.time(time))  transition \(now ? "started" : "ended")")
        transitioning = now
      }
    }
    Tracing.install(recorder, tracingSends: traced)
    defer {
      Tracing.remove(recorder)
      VirtualRunLoop.main.removeFrameObserver(observer)
      VirtualRunLoop.main.removeFrameObserver(linkObserver)
    }
    _ = try runScenario(scenario, options.scenarioOptions)
    let lines = recorder.lines.filter { line in
      options.filter.map { line.contains($0) } ?? true
    }
    output.out(lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n"))
    return .ok
  }
}

/// `hooks`: the hook map after installing plugins.
enum HooksCommand {
  static func run(_ options: Options, output: LabOutput) throws(LabError) -> LabExit {
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
    let entries = map.entries.filter { entry in
      entry.layers.contains { layer in layer.plugin != nil }
    }
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

  /// `hooks --scenario NAME`: installs the scenario's plugins (or those of `--plugin`), runs it,
  /// prints the hook map of the plugins' methods, and lists the hooks no call reached.
  private static func runScenario(_ name: String, _ options: Options, output: LabOutput)
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
    let entries = map.entries.filter { entry in entry.layers.contains { $0.plugin != nil } }
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
  static func navigationOwners() -> [String] {
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

/// `load` and `--load`: a plugin library.
enum LoadCommand {
  static func run(path: String, output: LabOutput) -> LabExit {
    do {
      try load(path, output: output, reportingTo: output.out)
      return .ok
    } catch {
      output.err("error: \(error.message)\n")
      return .failure
    }
  }

  /// Loads the library at `path` and says what it brought (to `report`: standard output for
  /// `load`, standard error for `--load`, whose command owns standard output): its plugins
  /// (registered) and their scenarios. A library that cannot be opened, carries a second copy
  /// of SwizzleKit or brings no plugin is a failure.
  static func load(_ path: String, output: LabOutput, reportingTo report: (String) -> Void)
    throws(LabError)
  {
    let before = Set(ScenarioCatalog.all().map(\.name))
    let library: LibraryReport
    do {
      library = try PluginRegistry.shared.loadLibrary(at: path)
    } catch {
      throw .failure(error.description)
    }
    for refusal in library.refused {
      output.err("warning: \(refusal)\n")
    }
    guard library.alreadyLoaded.isEmpty || !library.plugins.isEmpty else {
      report(
        "\(path) was loaded before; plugins: \(library.alreadyLoaded.joined(separator: ", "))\n")
      return
    }
    guard !library.plugins.isEmpty else {
      throw .failure(
        "\(path) brings no plugin (no DiscoverablePlugin type, and none registered at awake)")
    }
    let scenarios = ScenarioCatalog.all().map(\.name).filter { !before.contains($0) }
    report("loaded \(path)\n")
    report("plugins: \(library.plugins.joined(separator: ", "))\n")
    report("scenarios: \(scenarios.isEmpty ? "none" : scenarios.joined(separator: ", "))\n")
  }
}
