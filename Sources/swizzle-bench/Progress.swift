// Progress on a terminal: a full run takes minutes, so the case being measured shows on standard
// error, overwritten in place; piped or redirected, nothing is written.
import Foundation

/// The line `[3/41] cached-send` on standard error, when standard error is a terminal.
struct Progress {
  /// How many cases the run measures.
  let total: Int
  /// Whether standard error is a terminal (a pipe or a file gets no progress) and the run
  /// prints nothing else meanwhile (`--annotate` prints profiles).
  private let isTerminal: Bool
  private var done = 0

  init(total: Int, enabled: Bool) {
    self.total = total
    isTerminal = enabled && isatty(STDERR_FILENO) == 1
  }

  /// Shows that `name`, the next case, is being measured.
  mutating func show(_ name: String) {
    done += 1
    guard isTerminal else { return }
    // Carriage return and "erase line": the next case replaces this one.
    write("\r\u{1B}[2K[\(done)/\(total)] \(name)")
  }

  /// Clears the line before the table is printed.
  func finish() {
    guard isTerminal else { return }
    write("\r\u{1B}[2K")
  }

  private func write(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
