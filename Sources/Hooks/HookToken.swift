// The handle of one installed hook.
import ObjCRuntime

/// One installed hook. ``remove()`` takes it off; the hook stays installed if the token is
/// dropped (as in Aspects), so keep the token to remove the hook later.
public final class HookToken: Sendable, CustomStringConvertible {
  internal let entry: HookEntry
  /// The hooked method, as the caller named it (`-[Counter add:]`, `+[Counter make]`).
  public let method: MethodReference
  /// Where the hook runs.
  public var position: HookPosition { entry.position }
  /// The plugin that was installing when the hook was made, if any.
  public var plugin: String? { entry.owner }
  /// Whether the hook is for one object (rather than every instance of a class).
  public var isPerObject: Bool { entry.objectKey != nil }

  internal init(entry: HookEntry, method: MethodReference) {
    self.entry = entry
    self.method = method
    HookToken.collector?.append(self)
  }

  /// Whether the hook is installed: false after ``remove()``, after the first call of a `once`
  /// hook, and after the death of the object of a per-object hook.
  public var isActive: Bool { !entry.removed.load(ordering: .acquiring) }

  /// Whether the hook ran at least once since it was installed.
  public var hasFired: Bool { entry.hasRun }

  /// Removes the hook. Idempotent and safe from any thread; a call already running keeps the
  /// hook for its whole duration. When the last hook of a method goes, the method gets its
  /// implementation back, unless someone replaced it since (then the hook's implementation
  /// stays as a pass-through, and a warning names who replaced it). When the last hook of an
  /// object goes, the object gets its class back, if it still has the class we gave it.
  public func remove() {
    HookEngine.remove(entry)
  }

  /// `before -[Counter add:]`, with the plugin when there is one.
  public var description: String {
    "\(position) \(method)\(isPerObject ? " (one object)" : "")"
      + (plugin.map { " [\($0)]" } ?? "")
  }

  // MARK: Collecting the tokens a plugin makes

  /// Gathers the tokens made on this thread while `body` runs.
  internal final class Collector: @unchecked Sendable {
    // @unchecked Sendable: used only by the thread that runs `body`, through a task-local.
    var tokens: [HookToken] = []
    func append(_ token: HookToken) { tokens.append(token) }
  }

  @TaskLocal internal static var collector: Collector?

  /// The outcome of running a plugin's install: the tokens it made, and its error if it threw.
  internal enum Collected {
    case success([HookToken])
    case failure(any Error, [HookToken])
  }

  internal static func collect(_ body: () throws -> Void) -> Collected {
    let collector = Collector()
    do {
      try $collector.withValue(collector) { try body() }
      return .success(collector.tokens)
    } catch {
      return .failure(error, collector.tokens)
    }
  }
}
