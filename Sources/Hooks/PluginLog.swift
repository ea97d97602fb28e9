// A plugin's log: lines a plugin writes for whoever runs it, which the lab prints among a
// scenario's moments at the virtual time they were written.
import Foundation
import ObjCRuntime

/// Lines a plugin writes for whoever runs it.
///
/// `print` from a plugin lands wherever standard output is at that moment: after the lab's
/// timeline (which the lab prints once the run is over), and mixed into other lines under
/// `2>&1`. A log line goes to whoever watches instead: while a scenario runs, the scenario keeps
/// the lines of its run (its thread's, and main-queue work's while the model waits) with the
/// virtual time each was written and the moment it came before, and `swizzle-lab run` prints
/// them there; the testing library's reports carry them too. A line nobody keeps goes to
/// standard error whole, in one write, prefixed with the plugin's name (and not at all under
/// `SWIZZLEKIT_QUIET`).
///
/// ```swift
/// struct FadingBarPlugin: HookPlugin {
///   static let log = PluginLog("fading-bar")
///
///   func install() throws {
///     Self.log("installed")
///   }
/// }
/// ```
public struct PluginLog: Sendable {
  /// One line written.
  public struct Line: Sendable, Equatable, CustomStringConvertible {
    /// The plugin's name, as the log was made with.
    public let plugin: String
    /// The text, on one line.
    public let message: String

    /// `[plugin] message`.
    public var description: String { "[\(plugin)] \(message)" }
  }

  /// The name lines are written under.
  public let plugin: String

  /// The observers of ``withObserver(_:_:)`` calls; each answers whether it kept a line.
  private static let observers = ScopedObservers<Line, Bool>()

  /// A log whose lines carry `plugin` (an empty name is written as `plugin`).
  public init(_ plugin: String) {
    let trimmed = plugin.trimmingCharacters(in: .whitespacesAndNewlines)
    self.plugin = trimmed.isEmpty ? "plugin" : trimmed
  }

  /// Writes `message`. Line breaks in it become spaces, so that each write is one line.
  public func callAsFunction(_ message: String) {
    write(message)
  }

  /// Writes `message`. Line breaks in it become spaces, so that each write is one line.
  public func write(_ message: String) {
    let line = Line(
      plugin: plugin,
      message: String(message.map { $0.isNewline ? " " : $0 }))
    var kept = false
    for watcher in Self.observers.current where watcher(line) { kept = true }
    // A line nobody kept (written on a thread no observer watches) goes to standard error.
    guard !kept, getenv("SWIZZLEKIT_QUIET") == nil else { return }
    // One write: a line is never cut by another thread's output.
    FileHandle.standardError.write(Data("\(line)\n".utf8))
  }

  /// Runs `body` with `observer` offered every line written meanwhile, from any thread; it
  /// returns whether it kept the line. A line that no observer kept goes to standard error, as
  /// with nobody watching: a scenario keeps the lines of its own run, not those another thread
  /// writes beside it. Several observers can watch at once; each is offered every line.
  public static func withObserver<Result, Failure: Error>(
    _ observer: @escaping @Sendable (Line) -> Bool, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try observers.watching(observer, body)
  }

  /// Runs `body` and returns what it returned with the lines written meanwhile, on any thread.
  public static func collecting<Result, Failure: Error>(_ body: () throws(Failure) -> Result)
    throws(Failure) -> (Result, [Line])
  {
    let lines = RuntimeLock<[Line]>([])
    let keep: @Sendable (Line) -> Bool = { line in
      lines.withLock { $0.append(line) }
      return true
    }
    let result = try withObserver(keep, body)
    return (result, lines.withLock { $0 })
  }
}
