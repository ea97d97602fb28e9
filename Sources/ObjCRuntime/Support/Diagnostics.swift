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
/// set, and to the observer, if one is set (tests and the lab use it to show them).
public enum Diagnostics {
  private static let observer = RuntimeLock<(@Sendable (String) -> Void)?>(nil)

  /// Reports `message`.
  public static func warn(_ message: String) {
    if let observer = observer.withLock({ $0 }) { observer(message) }
    guard getenv("SWIZZLEKIT_QUIET") == nil else { return }
    let line = "SwizzleKit: \(message)\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
  }

  /// Sets the function every warning is also handed to, replacing any other; nil removes it.
  public static func setObserver(_ newObserver: (@Sendable (String) -> Void)?) {
    observer.withLock { $0 = newObserver }
  }
}
