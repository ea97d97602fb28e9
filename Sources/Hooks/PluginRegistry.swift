// The plugins of the process: registered once per identifier, found by discovery or loaded from
// libraries, installed exactly once, listed, and drawn in the hook map.
import ObjCRuntime

/// What ``PluginRegistry/installOnce(_:)`` did.
public enum PluginInstallation: Sendable, CustomStringConvertible {
  /// This call installed the plugin.
  case installed
  /// The plugin was installed already (by this call's racing twins, or earlier).
  case alreadyInstalled
  /// The plugin was refused or its install threw; nothing of it is installed.
  case failed(PluginError)

  /// Whether the plugin is installed after the call.
  public var succeeded: Bool {
    if case .failed = self { return false }
    return true
  }

  /// `installed`, `already installed`, or the error.
  public var description: String {
    switch self {
    case .installed: "installed"
    case .alreadyInstalled: "already installed"
    case .failed(let error): error.description
    }
  }
}

/// One plugin the registry knows.
public struct PluginInfo: Sendable, Hashable, CustomStringConvertible {
  /// Its identifier (`swizzlekit.bar-layer`).
  public let identifier: String
  /// Its short name (`bar-layer`).
  public let name: String
  /// One line saying what it does.
  public let summary: String
  /// Its type, module-qualified (`BarLayerPlugin.BarLayerPlugin`).
  public let typeName: String
  /// Whether it is installed now.
  public let isInstalled: Bool

  /// `bar-layer (swizzlekit.bar-layer): summary`.
  public var description: String { "\(name) (\(identifier)): \(summary)" }
}

/// What loading a plugin library brought.
public struct LibraryReport: Sendable {
  /// The `SelfAware` classes that woke up.
  public let awake: AwakeReport
  /// The plugins it brought that the registry now knows (short names), discovered or registered
  /// while its classes woke up.
  public let plugins: [String]
  /// The plugins it brought that were refused (a name or identifier already taken), with why.
  public let refused: [PluginError]
  /// The plugins of the library that the registry knew before this load (short names): the
  /// library was loaded before, under this path or another.
  public let alreadyLoaded: [String]
}

/// The plugins of the process: registers each once per identifier and name, installs each
/// once, finds the ``DiscoverablePlugin``s of every loaded image, and draws the hook map.
public final class PluginRegistry: Sendable {
  /// The registry of the process.
  public static let shared = PluginRegistry()

  /// The short name of the plugin whose ``HookPlugin/install()`` or ``HookPlugin/uninstall()``
  /// is running on this thread: hooks and swizzles made then are attributed to it.
  @TaskLocal internal static var installing: String?

  /// What the hook engine and the change log attribute work to.
  internal static var installingPluginName: String? { installing }

  private struct Record {
    let plugin: any HookPlugin
    let typeName: String
    /// Serializes installs and uninstalls of this plugin. It guards a counter of the calls it
    /// let through rather than nothing: ThreadSanitizer places a zero-size value at the object's
    /// own address, where other threads read the object's header, and reports a race that is
    /// none.
    let gate: RuntimeLock<Int>
    var installed = false
    var installations = 0
    var tokens: [HookToken] = []
  }

  private struct State {
    var records: [String: Record] = [:]
    /// Identifiers in the order plugins were registered.
    var order: [String] = []
    /// Identifiers by short name.
    var names: [String: String] = [:]
  }

  private let state = RuntimeLock(State())
  private let scanner = ConformanceScanner("DiscoverablePlugin", in: "Hooks")

  private init() {
    ChangeLog.start()
  }

  // MARK: Registering

  /// Registers `plugin` without installing it, so that hosts list it; returns false when this
  /// very plugin type was registered already.
  ///
  /// - Throws: ``PluginError/duplicateIdentifier(_:existing:refused:)`` or
  ///   ``PluginError/duplicateName(_:existing:refused:)`` when another plugin type took the
  ///   identifier or the name.
  @discardableResult
  public func register(_ plugin: any HookPlugin) throws(PluginError) -> Bool {
    try registerGate(plugin).isNew
  }

  private func registerGate(_ plugin: any HookPlugin) throws(PluginError) -> (
    gate: RuntimeLock<Int>, isNew: Bool
  ) {
    let identifier = plugin.identifier
    let name = plugin.name
    let typeName = _typeName(type(of: plugin), qualified: true)
    return try state.withLock { state throws(PluginError) in
      if let record = state.records[identifier] {
        guard record.typeName == typeName else {
          throw .duplicateIdentifier(identifier, existing: record.typeName, refused: typeName)
        }
        return (record.gate, false)
      }
      if let other = state.names[name], let record = state.records[other] {
        throw .duplicateName(name, existing: record.typeName, refused: typeName)
      }
      let gate = RuntimeLock(0)
      state.records[identifier] = Record(plugin: plugin, typeName: typeName, gate: gate)
      state.order.append(identifier)
      state.names[name] = identifier
      return (gate, true)
    }
  }

  /// Finds every ``DiscoverablePlugin`` of every loaded image (reading only images loaded since
  /// the last call) and registers one value of each, without installing it.
  ///
  /// - Returns: the plugins that were refused because another took their identifier or name,
  ///   each also reported through `Diagnostics`.
  /// - Throws: `DiscoveryError/unexpectedLayout(version:image:)`.
  @discardableResult
  public func discover() throws(DiscoveryError) -> [PluginError] {
    var refused: [PluginError] = []
    for type in try scanner.types() {
      guard let pluginType = type as? any DiscoverablePlugin.Type else { continue }
      do {
        try register(pluginType.init())
      } catch {
        refused.append(error)
        Diagnostics.warn(error.description, kind: .plugin)
      }
    }
    return refused
  }

  /// Loads the plugin library at `path`, awakes its `SelfAware` classes and discovers its
  /// plugins (see `SelfAwareDiscovery/loadLibrary(at:)` for what the library must link
  /// against).
  ///
  /// - Throws: the `DiscoveryError` of the load; nothing of the library is registered then.
  public func loadLibrary(at path: String) throws(DiscoveryError) -> LibraryReport {
    _ = try discover()
    let before = Set(state.withLock { $0.order })
    let (awake, images, library) = try SelfAwareDiscovery.load(path)
    let refused = try discover()
    // The plugins registered since whose types the library holds: another thread may register
    // plugins of its own meanwhile. A type whose metadata is made at run time (a generic one)
    // lives in no image, and is counted.
    let added = state.withLock { state in
      state.order.filter { !before.contains($0) }.compactMap { state.records[$0]?.plugin }
    }
    .filter { plugin in SwiftImages.base(holding: type(of: plugin)).map(images.contains) ?? true }
    .map(\.name)
    let known = state.withLock { state in
      state.order.filter(before.contains).compactMap { state.records[$0]?.plugin }
    }
    .filter { plugin in SwiftImages.base(holding: type(of: plugin)) == library }
    .map(\.name)
    return LibraryReport(awake: awake, plugins: added, refused: refused, alreadyLoaded: known)
  }

  // MARK: Installing

  /// Installs `plugin` unless a plugin with its identifier is installed; returns whether this
  /// call installed it. Racing calls block until the one that installs is done, so every caller
  /// returns with the plugin installed. A plugin's ``HookPlugin/install()`` may install other
  /// plugins, but not itself.
  ///
  /// - Throws: ``PluginError/installFailed(plugin:identifier:underlying:)`` when
  ///   ``HookPlugin/install()`` throws (the hooks it made are removed and the plugin is not
  ///   installed), and the duplicate errors of ``register(_:)``.
  @discardableResult
  public func install(_ plugin: any HookPlugin) throws(PluginError) -> Bool {
    let identifier = plugin.identifier
    let gate = try registerGate(plugin).gate
    return try gate.withLock { calls throws(PluginError) -> Bool in
      calls += 1
      if state.withLock({ $0.records[identifier]?.installed ?? false }) { return false }
      let tokens = HookToken.collect {
        try PluginRegistry.$installing.withValue(plugin.name) { try plugin.install() }
      }
      switch tokens {
      case .success(let made):
        state.withLock {
          $0.records[identifier]?.installed = true
          $0.records[identifier]?.installations += 1
          $0.records[identifier]?.tokens = made
        }
        return true
      case .failure(let error, let made):
        for token in made { token.remove() }
        throw .installFailed(plugin: plugin.name, identifier: identifier, underlying: error)
      }
    }
  }

  /// Installs the registered plugin named `name` (its short name or its identifier).
  ///
  /// - Throws: ``PluginError/unknown(name:known:)``, and what ``install(_:)`` throws.
  @discardableResult
  public func install(named name: String) throws(PluginError) -> Bool {
    guard let plugin = plugin(named: name) else {
      throw .unknown(name: name, known: plugins.map(\.name))
    }
    return try install(plugin)
  }

  /// Installs `plugin` once and never throws: the idiom for a `static let` whose initializer
  /// installs, which Swift runs exactly once however many threads read it. A failure is
  /// reported through `Diagnostics` and returned.
  ///
  /// ```swift
  /// enum Startup {
  ///   static let logging = PluginRegistry.shared.installOnce(LoggingPlugin())
  /// }
  /// _ = Startup.logging  // installs, once; `.succeeded` says whether it worked
  /// ```
  @discardableResult
  public func installOnce(_ plugin: any HookPlugin) -> PluginInstallation {
    do {
      return try install(plugin) ? .installed : .alreadyInstalled
    } catch {
      Diagnostics.warn(error.description, kind: .plugin)
      return .failed(error)
    }
  }

  /// Removes the hooks the plugin installed and calls its ``HookPlugin/uninstall()``; returns
  /// whether it was installed. Takes the plugin's identifier or short name.
  @discardableResult
  public func uninstall(_ identifierOrName: String) -> Bool {
    guard
      let (identifier, gate) = state.withLock({ state -> (String, RuntimeLock<Int>)? in
        let identifier = state.names[identifierOrName] ?? identifierOrName
        return state.records[identifier].map { (identifier, $0.gate) }
      })
    else { return false }
    return gate.withLock { calls -> Bool in
      calls += 1
      guard let record = state.withLock({ $0.records[identifier] }), record.installed else {
        return false
      }
      for token in record.tokens { token.remove() }
      PluginRegistry.$installing.withValue(record.plugin.name) { record.plugin.uninstall() }
      state.withLock {
        $0.records[identifier]?.installed = false
        $0.records[identifier]?.tokens = []
      }
      return true
    }
  }

  /// Removes `plugin`, as the form that takes its identifier does.
  @discardableResult
  public func uninstall(_ plugin: any HookPlugin) -> Bool {
    uninstall(plugin.identifier)
  }

  // MARK: Listing

  /// The plugins registered, installed or tried, in the order they first came.
  public var plugins: [PluginInfo] {
    state.withLock { state in
      state.order.compactMap { identifier in
        state.records[identifier].map { record in
          PluginInfo(
            identifier: identifier, name: record.plugin.name, summary: record.plugin.summary,
            typeName: record.typeName, isInstalled: record.installed)
        }
      }
    }
  }

  /// The registered plugin whose short name or identifier is `name`.
  public func plugin(named name: String) -> (any HookPlugin)? {
    state.withLock { state in
      state.records[state.names[name] ?? name]?.plugin
    }
  }

  /// How many times the plugin's ``HookPlugin/install()`` ran: 1 after any number of racing
  /// installs.
  public func installationCount(of identifier: String) -> Int {
    state.withLock { $0.records[$0.names[identifier] ?? identifier]?.installations ?? 0 }
  }

  /// Whether the plugin (by identifier or short name) is installed.
  public func isInstalled(_ identifier: String) -> Bool {
    state.withLock { $0.records[$0.names[identifier] ?? identifier]?.installed ?? false }
  }

  /// Every hooked or swizzled method with its layers in call order and its conflicts.
  public var hookMap: HookMap {
    HookMap.current()
  }
}
