// Plugins: a set of hooks and swizzles that describes itself and installs exactly once, and the
// protocol that lets hosts find plugins nobody lists.
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
///     try Meter.hook(before: "record:") { (meter: Meter, amount: Int) in print(amount) }
///   }
/// }
///
/// enum Startup {
///   static let logging: Void = PluginRegistry.shared.installOnce(LoggingPlugin())
/// }
/// ```
///
/// Hooks installed and swizzles made while ``install()`` runs are attributed to the plugin's
/// ``name`` in the hook map; `PluginRegistry/uninstall(_:)` removes the hooks it made through
/// `Hook` tokens and then calls ``uninstall()`` for anything else.
///
/// A plugin that hosts should find by themselves (the lab, a test harness) conforms to
/// ``DiscoverablePlugin`` instead.
public protocol HookPlugin: Sendable {
  /// A stable identifier, such as `com.example.bar-layer`.
  var identifier: String { get }
  /// One short name used everywhere: on the command line (`--plugin bar-layer`), in the hook
  /// map and in the docs. The default is the identifier's last dot-separated part.
  var name: String { get }
  /// One line that says what the plugin does.
  var summary: String { get }
  /// Installs the plugin's hooks and swizzles. Called once.
  func install() throws
  /// Undoes what ``install()`` did beyond hooks (which the registry removes). The default does
  /// nothing.
  func uninstall()
}

extension HookPlugin {
  /// The identifier's last dot-separated part: `bar-layer` for `swizzlekit.bar-layer`.
  public var name: String {
    // Without `split`'s array when the identifier does not end in a dot: the registry asks on
    // every install and uninstall, and a matrix cell does both (0.9 % of a cell with `split`).
    guard let dot = identifier.lastIndex(of: "."), identifier.last != "." else {
      return identifier.split(separator: ".").last.map(String.init) ?? identifier
    }
    return String(identifier[identifier.index(after: dot)...])
  }

  /// Does nothing: hooks are removed by the registry.
  public func uninstall() {}
}

/// A plugin that hosts find without being told about it: a type that can be made with no
/// arguments. ``PluginRegistry/discover()`` finds every conforming struct, enum or class of every
/// loaded image, including libraries opened later, and registers one value of each (without
/// installing it), so that a host such as `swizzle-lab` lists and runs plugins it has never heard
/// of.
///
/// ```swift
/// struct TintPlugin: DiscoverablePlugin {
///   let identifier = "com.example.tint"
///   let summary = "Tints every bar"
///   func install() throws {}
/// }
/// ```
public protocol DiscoverablePlugin: HookPlugin {
  /// A plugin value, ready to install.
  init()
}

/// Why the registry refused a plugin or its installation. Nothing was installed when one is
/// thrown, and no hook of the plugin was left behind.
public enum PluginError: Error, Sendable, CustomStringConvertible {
  /// The plugin's ``HookPlugin/install()`` threw `underlying` (a ``HookError`` naming the hook
  /// that failed, or the plugin's own error, to match on); the hooks it had installed were
  /// removed.
  case installFailed(plugin: String, identifier: String, underlying: any Error)
  /// Another plugin type already has this identifier (`existing` and `refused` are the two
  /// types, module-qualified).
  case duplicateIdentifier(String, existing: String, refused: String)
  /// Another plugin already uses this short name.
  case duplicateName(String, existing: String, refused: String)
  /// No plugin of that name is known.
  case unknown(name: String, known: [String])

  /// What went wrong and what to do.
  public var description: String {
    switch self {
    case .installFailed(let plugin, let identifier, let underlying):
      "the plugin \(plugin) (\(identifier)) did not install: \(underlying); the hooks it had"
        + " installed were removed"
    case .duplicateIdentifier(let identifier, let existing, let refused):
      "two plugins have the identifier \(identifier): \(existing) was registered first, so"
        + " \(refused) was refused; give one of them another identifier"
    case .duplicateName(let name, let existing, let refused):
      "two plugins have the name \(name): \(existing) was registered first, so \(refused) was"
        + " refused; give one of them another `name`"
    case .unknown(let name, let known):
      "no plugin named \(name); plugins: "
        + (known.isEmpty ? "none" : known.joined(separator: ", "))
    }
  }
}
