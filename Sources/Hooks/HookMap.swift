// The hook map: every hooked or swizzled method, its layers in call order with their owners, and
// the conflicts between plugins.
import ObjCRuntime
import Synchronization

/// Every method that hooks or runtime swizzles changed, with the layers a call goes through.
///
/// Layers are listed in call order: the newest change is the outermost, the one a call reaches
/// first, down to the method's original implementation. Changes made through the runtime API
/// (`method_exchangeImplementations`, `method_setImplementation`, `class_addMethod`) appear as
/// well as hooks, attributed to the plugin that was installing when they were made.
public struct HookMap: Sendable, CustomStringConvertible {
  /// One layer of a method.
  public struct Layer: Sendable, Hashable, CustomStringConvertible {
    /// What the layer is: `before hook`, `exchanged with -[A b]`...
    public let kind: String
    /// The plugin that made it; nil when no plugin was installing.
    public let plugin: String?
    /// Where it was made, for changes made through the runtime API.
    public let location: SourceLocation?
    /// Whether the layer is a hook (rather than a swizzle through the runtime API).
    public let isHook: Bool
    /// For a hook, whether it ran at least once since it was installed; nil for a swizzle, whose
    /// calls nobody counts.
    public let hasFired: Bool?

    /// A layer of the map.
    public init(
      kind: String, plugin: String?, location: SourceLocation?, isHook: Bool,
      hasFired: Bool? = nil
    ) {
      self.kind = kind
      self.plugin = plugin
      self.location = location
      self.isHook = isHook
      self.hasFired = hasFired
    }

    /// `before hook [plugin]`.
    public var description: String {
      kind + (plugin.map { " [\($0)]" } ?? location.map { " at \($0)" } ?? "")
    }
  }

  /// One hooked or swizzled method.
  public struct Entry: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public let method: MethodReference
    /// Its layers, outermost first.
    public let layers: [Layer]

    /// The method and its layers, one per line.
    public var description: String {
      ([method.description] + layers.map { "  -> \($0)" } + ["  -> original implementation"])
        .joined(separator: "\n")
    }
  }

  /// Two plugins in each other's way on one method.
  public struct Conflict: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public let method: MethodReference
    /// The plugins involved.
    public let plugins: [String]
    /// What they do to each other.
    public let reason: String

    /// `conflict on -[A b]: ...`.
    public var description: String { "conflict on \(method): \(reason)" }
  }

  /// The methods, sorted by name.
  public let entries: [Entry]
  /// The conflicts found.
  public let conflicts: [Conflict]

  /// The hooks that never ran since they were installed, one line each (`-[A b]: before hook
  /// [plugin]`): after a run, the hooks a call never reached, because nothing sent the method, or
  /// because the calls bypassed the method table (a Swift method called directly).
  public var hooksNeverFired: [String] {
    entries.flatMap { entry in
      entry.layers.filter { $0.hasFired == false }.map { "\(entry.method): \($0)" }
    }
  }

  /// The map as text: each method with its layers, then the conflicts.
  public var description: String {
    var lines = entries.map(\.description)
    if entries.isEmpty { lines.append("(no hooks or swizzles)") }
    lines += conflicts.map(\.description)
    return lines.joined(separator: "\n")
  }

  /// The map of the process now.
  internal static func current() -> HookMap {
    var layers: [MethodReference: [(Int, Layer)]] = [:]
    var hookOwners: [MethodReference: Set<String>] = [:]
    var replacers: [MethodReference: [String]] = [:]
    var exchangers: [MethodReference: Set<String>] = [:]
    // The latest `method_setImplementation` of each method (a plugin's or anyone's, such as the
    // restore of an uninstall), and the earliest hook of each owner: a replacement silences only
    // the hooks installed before it, while it is the method's latest.
    var latestReplacement: [MethodReference: (sequence: Int, plugin: String?)] = [:]
    var earliestHooks: [MethodReference: [String: Int]] = [:]

    for change in ChangeLog.shared.all {
      let kind: String
      switch change.kind {
      case .added: kind = "added"
      case .replaced: kind = "implementation replaced"
      case .exchanged(let other): kind = "exchanged with \(other)"
      }
      layers[change.method, default: []].append(
        (
          change.sequence,
          Layer(kind: kind, plugin: change.plugin, location: change.location, isHook: false)
        ))
      if case .replaced = change.kind,
        change.sequence > latestReplacement[change.method]?.sequence ?? .min
      {
        latestReplacement[change.method] = (change.sequence, change.plugin)
      }
      guard let plugin = change.plugin else { continue }
      switch change.kind {
      case .added: break
      case .replaced:
        if !(replacers[change.method]?.contains(plugin) ?? false) {
          replacers[change.method, default: []].append(plugin)
        }
      case .exchanged:
        if !(replacers[change.method]?.contains(plugin) ?? false) {
          replacers[change.method, default: []].append(plugin)
        }
        exchangers[change.method, default: []].insert(plugin)
      }
    }

    let sites = HookEngine.state.withLock { Array($0.sites.values) }
    for site in sites {
      let snapshot = site.snapshots.value
      let entries =
        snapshot.classHooks.all + snapshot.objectHooks.lists.flatMap(\.all)
      for entry in entries where !entry.removed.load(ordering: .acquiring) {
        let scope = entry.objectKey == nil ? "" : " (one object)"
        layers[site.method, default: []].append(
          (
            entry.sequence,
            Layer(
              kind: "\(entry.position) hook\(scope)", plugin: entry.owner, location: nil,
              isHook: true, hasFired: entry.hasRun)
          ))
        if let owner = entry.owner {
          hookOwners[site.method, default: []].insert(owner)
          earliestHooks[site.method, default: [:]][owner] = min(
            entry.sequence, earliestHooks[site.method]?[owner] ?? .max)
        }
      }
    }

    let entries = layers.map { method, layers in
      Entry(method: method, layers: layers.sorted { $0.0 > $1.0 }.map(\.1))
    }
    .sorted { $0.method.description < $1.method.description }

    var conflicts: [Conflict] = []
    for (method, plugins) in replacers where plugins.count > 1 {
      conflicts.append(
        Conflict(
          method: method, plugins: plugins,
          reason: "replaced by \(plugins.count) plugins (\(plugins.joined(separator: ", "))):"
            + " each swizzle wraps the others', and removing one can break the rest"))
    }
    // A plugin that exchanged an implementation another plugin hooks.
    for (method, exchanging) in exchangers {
      for exchanger in exchanging.sorted() {
        let others = (hookOwners[method] ?? []).subtracting([exchanger]).sorted()
        guard !others.isEmpty else { continue }
        conflicts.append(
          Conflict(
            method: method, plugins: [exchanger] + others,
            reason: "plugin \(exchanger) exchanges the implementation that \(hooks(others))"))
      }
    }
    // A plugin whose replacement is the method's latest, made after another plugin's hook: the
    // hook runs only if the new implementation calls the one it displaced. (A hook installed
    // after the replacement wraps it, and an uninstall's restore supersedes it: no conflict.)
    for (method, latest) in latestReplacement {
      guard let replacer = latest.plugin else { continue }
      let silenced = (earliestHooks[method] ?? [:])
        .filter { owner, sequence in owner != replacer && sequence < latest.sequence }
        .keys.sorted()
      guard !silenced.isEmpty else { continue }
      conflicts.append(
        Conflict(
          method: method, plugins: [replacer] + silenced,
          reason: "plugin \(replacer) replaces the implementation that \(hooks(silenced)):"
            + " the hook runs only if the new implementation calls the one it replaced"))
    }
    conflicts.sort { $0.description < $1.description }
    return HookMap(entries: entries, conflicts: conflicts)
  }

  /// `a hooks`, `a, b hook`.
  private static func hooks(_ owners: [String]) -> String {
    "\(owners.joined(separator: ", ")) hook\(owners.count == 1 ? "s" : "")"
  }
}

/// The order in which hooks and changes were made, shared by both so that the map can interleave
/// them.
internal enum ChangeSequence {
  private static let counter = Atomic<Int>(0)

  static func next() -> Int {
    counter.add(1, ordering: .relaxed).newValue
  }
}
