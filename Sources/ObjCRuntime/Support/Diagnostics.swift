// Warnings the runtime prints for problems it survives (bad declarations, broken restores).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Warnings about problems the runtime and the layers on it survive: a bad declaration, a hook
/// that cannot restore a method because someone swizzled on top of it.
///
/// Warnings go to standard error with a `SwizzleKit:` prefix, unless `SWIZZLEKIT_QUIET=1` is
/// set, and to the observers: the one set with ``setObserver(_:)`` (a program's, for the whole
/// run), and any watching for the duration of a ``withObserver(_:_:)`` call (tests, which run
/// concurrently and must not replace each other's).
public enum Diagnostics {
  private struct Observers {
    var main: (@Sendable (String) -> Void)?
    var scoped: [Int: @Sendable (String) -> Void] = [:]
    var nextID = 0
  }

  private static let observers = RuntimeLock(Observers())

  /// Reports `message`.
  public static func warn(_ message: String) {
    let (main, scoped) = observers.withLock { ($0.main, Array($0.scoped.values)) }
    main?(message)
    for observer in scoped { observer(message) }
    guard getenv("SWIZZLEKIT_QUIET") == nil else { return }
    let line = "SwizzleKit: \(message)\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
  }

  /// Sets the function every warning is also handed to, replacing the one set before; nil
  /// removes it. Observers of ``withObserver(_:_:)`` are not affected.
  public static func setObserver(_ newObserver: (@Sendable (String) -> Void)?) {
    observers.withLock { $0.main = newObserver }
  }

  /// Runs `body` with `observer` receiving every warning, from any thread, until `body` returns.
  /// Several such observers can watch at once; each sees all warnings, so filter by content.
  ///
  /// ```swift
  /// let warnings = RuntimeLock<[String]>([])
  /// let observer: @Sendable (String) -> Void = { message in
  ///   warnings.withLock { $0.append(message) }
  /// }
  /// Diagnostics.withObserver(observer) { token.remove() }
  /// ```
  public static func withObserver<Result, Failure: Error>(
    _ observer: @escaping @Sendable (String) -> Void, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let id = observers.withLock { state in
      state.nextID += 1
      state.scoped[state.nextID] = observer
      return state.nextID
    }
    defer { observers.withLock { _ = $0.scoped.removeValue(forKey: id) } }
    return try body()
  }
}
