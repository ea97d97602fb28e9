// `trace`: every runtime event of a scenario, with its virtual time, and the recorder that
// writes them.
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import UIKitModel

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

  /// A plugin's log line, at its virtual time among the events, when the scenario's thread
  /// wrote it; false for another thread's, which goes to standard error.
  func logged(_ line: PluginLog.Line) -> Bool {
    guard pthread_equal(pthread_self(), owner) != 0 else { return false }
    lines.append("\(Format.time(CACurrentMediaTime()))  \(line)")
    return true
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
  /// differ from run to run), and the hook framework's own edits (an interceptor put in, a
  /// method given back) named as the engine's rather than by its source line.
  static func line(for event: RuntimeEvent) -> String {
    func origin(_ location: SourceLocation) -> String {
      location.fileID.hasPrefix("Hooks/") ? " (hook engine)" : " at \(location)"
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

  @MainActor static func run(_ options: Options, output: LabOutput) throws(LabError) -> LabExit {
    guard let scenario = ScenarioCatalog.named(options.scenario ?? "tour") else {
      throw .usage("no scenario", topic: "trace")
    }
    let recorder = TraceRecorder()
    let registry = PluginRegistry.shared
    var installed: [String] = []
    defer { for name in installed.reversed() { registry.uninstall(name) } }
    // Recording from before the installs: each plugin's swizzles and hooks show under its line.
    Tracing.install(recorder, tracingSends: selectors)
    defer { Tracing.remove(recorder) }
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
      VirtualRunLoop.main.removeFrameObserver(observer)
      VirtualRunLoop.main.removeFrameObserver(linkObserver)
    }
    let logged: @Sendable (PluginLog.Line) -> Bool = { line in recorder.logged(line) }
    try PluginLog.withObserver(logged) { () throws(LabError) in
      _ = try runScenario(scenario, options.scenarioOptions)
    }
    let lines = recorder.lines.filter { line in
      options.filter.map { line.contains($0) } ?? true
    }
    output.out(lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n"))
    return .ok
  }
}
