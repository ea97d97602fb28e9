// Warnings the runtime prints for problems it survives (bad declarations, broken restores).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

internal enum Diagnostics {
  /// Prints `message` to standard error with the runtime's prefix, unless silenced with
  /// `SWIZZLEKIT_QUIET=1`.
  static func warn(_ message: String) {
    guard getenv("SWIZZLEKIT_QUIET") == nil else { return }
    let line = "SwizzleKit: \(message)\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
  }
}
