// Golden timelines: a scenario's moments (or any text) kept in a file next to the test, compared
// on later runs, re-recorded on demand.
import Foundation
public import Scenarios
public import Testing

/// Text a test keeps in a file next to its source and compares on every run: a scenario's
/// timeline of moments, a session's trace. The first run writes the file; later runs report the
/// first line that differs, with the lines around it. Set `SWIZZLEKIT_UPDATE_GOLDEN=1` to write
/// the files again (after a change you meant).
///
/// ```swift
/// let moments = try scenario.run(options: ScenarioOptions(systemVersion: "15.0"))
/// GoldenTimeline.check(GoldenTimeline.timeline(moments), named: "scrolling-ios15")
/// ```
public enum GoldenTimeline {
  /// One line per moment: `time  name: what the user sees`.
  public static func timeline(_ moments: [ScenarioMoment]) -> String {
    moments.map {
      String(format: "%.3f", $0.time) + "  \($0.name): \($0.appearance)"
    }.joined(separator: "\n") + "\n"
  }

  /// Compares `text` with the file `Golden/<name>.txt` in the directory of `filePath` (the
  /// calling test's source): records an issue naming the first line that differs, writes the
  /// file when it is missing or `SWIZZLEKIT_UPDATE_GOLDEN` is set.
  public static func check(
    _ text: String, named name: String, filePath: String = #filePath,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden")
    let file = directory.appendingPathComponent("\(name).txt")
    let update = ProcessInfo.processInfo.environment["SWIZZLEKIT_UPDATE_GOLDEN"] != nil
    guard !update, let golden = try? String(contentsOf: file, encoding: .utf8) else {
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
      } catch {
        Issue.record(
          Comment(rawValue: "could not write the golden file \(file.path): \(error)"),
          sourceLocation: sourceLocation)
      }
      return
    }
    guard let difference = firstDifference(golden, text) else { return }
    Issue.record(
      Comment(
        rawValue: "\(name) differs from \(file.lastPathComponent) at line \(difference.line):\n"
          + "  expected: \(difference.expected)\n  seen:     \(difference.seen)\n"
          + "(SWIZZLEKIT_UPDATE_GOLDEN=1 writes the file again)"),
      sourceLocation: sourceLocation)
  }

  /// The first line where `expected` and `seen` differ (1-based), with both lines; nil when they
  /// are equal.
  public static func firstDifference(_ expected: String, _ seen: String)
    -> (line: Int, expected: String, seen: String)?
  {
    func lines(_ text: String) -> [Substring] {
      // A final newline ends the last line; it starts no empty one.
      let body = text.hasSuffix("\n") ? text.dropLast() : Substring(text)
      return body.isEmpty ? [] : body.split(separator: "\n", omittingEmptySubsequences: false)
    }
    let wanted = lines(expected)
    let got = lines(seen)
    for index in 0..<max(wanted.count, got.count) {
      let left = index < wanted.count ? String(wanted[index]) : "(end of file)"
      let right = index < got.count ? String(got[index]) : "(end of text)"
      if left != right { return (index + 1, left, right) }
    }
    return nil
  }
}
