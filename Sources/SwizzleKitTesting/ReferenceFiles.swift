// Where references and failure artifacts live, and the one way they are written: every write a
// test makes of a reference is reported, and no reference is replaced outside a record mode.
import Foundation
import Synchronization
import Testing

/// The files of the testing library's references (golden timelines, image snapshots) and of
/// the artifacts a failure leaves (the actual output, the reference, a difference image).
enum ReferenceFiles {
  /// The artifacts directory a block of code set (``withArtifactsDirectory(_:_:)``).
  @TaskLocal static var artifactsOverride: String?

  /// Where a failure's artifacts go for the test file `testFile`:
  /// `$SWIZZLEKIT_ARTIFACTS/<TestFile>/` when that is set, else
  /// `.build/swizzlekit-failures/<TestFile>/` in the package that holds the test (found by its
  /// `Package.swift`; out of Git and of the targets' sources), else the temporary directory's.
  static func artifactsDirectory(for testFile: URL) -> URL {
    let name = testFile.deletingPathExtension().lastPathComponent
    if let root = artifactsOverride
      ?? ProcessInfo.processInfo.environment["SWIZZLEKIT_ARTIFACTS"], !root.isEmpty
    {
      return URL(fileURLWithPath: root).appendingPathComponent(name)
    }
    var directory = testFile.deletingLastPathComponent()
    while directory.path != "/" {
      if FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("Package.swift").path)
      {
        return directory.appendingPathComponent(".build/swizzlekit-failures")
          .appendingPathComponent(name)
      }
      directory.deleteLastPathComponent()
    }
    return FileManager.default.temporaryDirectory.appendingPathComponent("swizzlekit-failures")
      .appendingPathComponent(name)
  }

  /// Creates `directory`; the error says which path failed and what to do.
  static func prepare(_ directory: URL) throws(ReferenceFileError) {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw ReferenceFileError(
        "could not create the directory \(directory.path) (\(error.localizedDescription)):"
          + " check that its parent exists and is writable")
    }
  }

  /// Writes `data` to `file`, creating its directory; the error names the path.
  static func write(_ data: Data, to file: URL) throws(ReferenceFileError) {
    try prepare(file.deletingLastPathComponent())
    do {
      try data.write(to: file, options: .atomic)
    } catch {
      throw ReferenceFileError(
        "could not write \(file.path) (\(error.localizedDescription)): check that it is"
          + " writable")
    }
  }

  /// Whether `path` is a directory (so no reference can be read or written there).
  static func isDirectory(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory)
      && directory.boolValue
  }

  /// The unnamed snapshots each test case has taken so far, per reference (the `<n>` of their
  /// names), kept by the scope the testing library's traits and `SwizzleKitTestCase` give each
  /// test case, so that a repetition or a parameterized case counts from 1 again.
  final class Counters: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// The next number of an unnamed snapshot of `key` (1 for the first).
    func next(_ key: String) -> Int {
      counts.withLock { counts in
        counts[key, default: 0] += 1
        return counts[key]!
      }
    }
  }

  /// The counters of the running test case.
  @TaskLocal static var counters: Counters?

  /// Counters for code outside any trait's scope, per test (`Test.current`): numbers go on
  /// across repetitions there.
  private static let unscoped = Counters()

  /// The next number of an unnamed snapshot of `key` (1 for the first) in the running test case.
  static func nextCounter(_ key: String) -> Int {
    if let counters { return counters.next(key) }
    return unscoped.next("\(Test.current.map { "\($0.id)" } ?? "")|\(key)")
  }
}

/// A reference or artifact that could not be read or written.
struct ReferenceFileError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Runs `body` with failure artifacts written under `directory` (instead of
/// `$SWIZZLEKIT_ARTIFACTS` or the package's `.build/swizzlekit-failures`).
public func withArtifactsDirectory<Result>(_ directory: String, _ body: () throws -> Result)
  rethrows -> Result
{
  try ReferenceFiles.$artifactsOverride.withValue(directory, operation: body)
}
