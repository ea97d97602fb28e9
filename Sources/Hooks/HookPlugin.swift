// Plugins: a set of hooks and swizzles that installs exactly once, and the registry that lists
// them and draws the hook map.
import ObjCRuntime

/// A set of hooks and swizzles with a name, installed and removed as one.
///
/// Install a plugin through ``PluginRegistry/install(_:)``, which runs ``install()`` exactly once
/// per identifier however many threads race. The idiom of the seeds is a `static let` whose
/// initializer installs, which Swift runs once:
///
/// ```swift
/// struct LoggingPlugin: HookPlugin {
///   let identifier = "com.example.logging"
///   let summary = "Logs every viewWillAppear:"
///   func install() throws {
///     try UIViewController.hook(before: "viewWillAppear:") { (vc, animated: Bool) in print(vc) }
///   }
/// }
///
/// enum Startup {
///   static let logging: Void = try! PluginRegistry.shared.install(LoggingPlugin())
/// }
/// ```
///
/// Hooks installed and swizzles made while ``install()`` runs are attributed to the plugin in the
/// hook map; ``PluginRegistry/uninstall(_:)`` removes the hooks it made through ``Hook`` tokens
/// and then calls ``uninstall()`` for anything else.
public protocol HookPlugin: Sendable {
  /// A stable identifier, such as `com.example.bar-layer`.
  var identifier: String { get }
  /// One line that says what the plugin does.
  var summary: String { get }
  /// Installs the plugin's hooks and swizzles. Called once.
  func install() throws
  /// Undoes what ``install()`` did beyond hooks (which the registry removes). The default does
  /// nothing.
  func uninstall()
}

extension HookPlugin {
  /// Does nothing: hooks are removed by the registry.
  public func uninstall() {}
}

/// The plugins of the process: installs each once, lists them, and draws the hook map.
public final class PluginRegistry: Sendable {
  /// The registry of the process.
  public static let shared = PluginRegistry()

  /// The identifier of the plugin whose ``HookPlugin/install()`` is running on this thread.
  @TaskLocal internal static var installing: String?

  /// What the hook engine and the change log attribute work to.
  internal static var installingPluginID: String? { installing }

  private struct Record {
    let plugin: any HookPlugin
    /// Serializes racing installs of this plugin. It guards a counter of the calls it let
    /// through rather than nothing: ThreadSanitizer places a zero-size value at the object's own
    /// address, where other threads read the object's header, and reports a race that is none.
    let gate: RuntimeLock<Int>
    var installed = false
    var installations = 0
    var tokens: [HookToken] = []
  }

  private let records = RuntimeLock<[String: Record]>([:])
  private let order = RuntimeLock<[String]>([])

  private init() {
    ChangeLog.start()
  }

  /// Installs `plugin` unless a plugin with its identifier is installed; returns whether this
  /// call installed it. Racing calls block until the one that installs is done, so every caller
  /// returns with the plugin installed. A plugin's ``HookPlugin/install()`` may install other
  /// plugins, but not itself.
  ///
  /// - Throws: whatever ``HookPlugin/install()`` throws; then the hooks it made are removed and
  ///   the plugin is not installed.
  @discardableResult
  public func install(_ plugin: any HookPlugin) throws -> Bool {
    let identifier = plugin.identifier
    let gate = records.withLock { records -> RuntimeLock<Int> in
      if let record = records[identifier] { return record.gate }
      let gate = RuntimeLock(0)
      records[identifier] = Record(plugin: plugin, gate: gate)
      order.withLock { $0.append(identifier) }
      return gate
    }
    return try gate.withLock { calls throws -> Bool in
      calls += 1
      if records.withLock({ $0[identifier]?.installed ?? false }) { return false }
      let tokens = HookToken.collect {
        try PluginRegistry.$installing.withValue(identifier) { try plugin.install() }
      }
      switch tokens {
      case .success(let made):
        records.withLock {
          $0[identifier]?.installed = true
          $0[identifier]?.installations += 1
          $0[identifier]?.tokens = made
        }
        return true
      case .failure(let error, let made):
        for token in made { token.remove() }
        throw error
      }
    }
  }

  /// Removes the hooks `plugin` installed and calls its ``HookPlugin/uninstall()``; returns
  /// whether it was installed.
  @discardableResult
  public func uninstall(_ identifier: String) -> Bool {
    guard let gate = records.withLock({ $0[identifier]?.gate }) else { return false }
    return gate.withLock { calls -> Bool in
      calls += 1
      guard let record = records.withLock({ $0[identifier] }), record.installed else {
        return false
      }
      for token in record.tokens { token.remove() }
      PluginRegistry.$installing.withValue(identifier) { record.plugin.uninstall() }
      records.withLock {
        $0[identifier]?.installed = false
        $0[identifier]?.tokens = []
      }
      return true
    }
  }

  /// The plugins that were ever installed or tried, in the order they first came.
  public var plugins: [(identifier: String, summary: String, installed: Bool)] {
    let identifiers = order.withLock { $0 }
    return records.withLock { records in
      identifiers.compactMap { identifier in
        records[identifier].map { (identifier, $0.plugin.summary, $0.installed) }
      }
    }
  }

  /// How many times the plugin's ``HookPlugin/install()`` ran: 1 after any number of racing
  /// installs.
  public func installationCount(of identifier: String) -> Int {
    records.withLock { $0[identifier]?.installations ?? 0 }
  }

  /// Whether the plugin is installed.
  public func isInstalled(_ identifier: String) -> Bool {
    records.withLock { $0[identifier]?.installed ?? false }
  }

  /// Every hooked or swizzled method with its layers in call order and its conflicts.
  public var hookMap: HookMap {
    HookMap.current()
  }
}
