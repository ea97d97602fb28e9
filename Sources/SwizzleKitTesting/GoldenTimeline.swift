// Golden timelines: a scenario's moments (or any text) kept in a file next to the test, compared
// on later runs, re-recorded on demand.
import Foundation
public import ObjCRuntime
public import Scenarios
import Synchronization
public import Testing
import UIKitModel

/// Text a test keeps in a file next to its source and compares on every run: a scenario's
/// timeline of moments, a session's trace. The first run writes the file (and fails, so that
/// the new file is reviewed); later runs report the first line that differs, with both lines.
/// Set `SWIZZLEKIT_UPDATE_GOLDEN=1` to write the files again (after a change you meant).
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

  /// A scenario run's timeline: its moments, one line each, then each check with its outcome
  /// (`ok`, `failed` with its differences, `failed, as known`, or `held, though known to fail`).
  public static func timeline(_ report: ScenarioReport) -> String {
    var text = timeline(report.moments)
    for check in report.checks {
      let outcome =
        switch (check.held, check.isKnownFailure) {
        case (true, false): "ok"
        case (false, false): "failed"
        case (false, true): "failed, as known"
        case (true, true): "held, though known to fail"
        }
      text += "check \(check.label): \(outcome)\n"
      for difference in check.differences { text += "  \(difference)\n" }
    }
    return text
  }

  /// Runs `body` and returns what it returned with the sends of `selectors` through the runtime
  /// that `body` made on this thread, one line each: the virtual time and `-[Class selector]`
  /// (the class the lookup started at). With no selectors, nothing is traced and no cache is
  /// flushed.
  public static func recordingSends<Result>(
    of selectors: Set<Selector>, _ body: () throws -> Result
  ) rethrows -> (Result, [String]) {
    guard !selectors.isEmpty else { return (try body(), []) }
    let recorder = SendRecorder()
    Tracing.install(recorder, tracingSends: selectors)
    defer { Tracing.remove(recorder) }
    let result = try body()
    return (result, recorder.lines.withLock { $0 })
  }

  /// Compares `text` with the file `Golden/<name>.txt` in the directory of `filePath` (the
  /// calling test's source) and records an issue naming the first line that differs. A missing
  /// file is written from `text` and is an issue too (a clean checkout must not pass by writing
  /// its own goldens): review the new file, commit it, run again. A file that is not UTF-8 text
  /// is an issue, and is left as it is. With `SWIZZLEKIT_UPDATE_GOLDEN` set, the file is written
  /// and nothing is compared.
  public static func check(
    _ text: String, named name: String, filePath: String = #filePath,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    func fail(_ message: String) {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
    // A name is a file name in the Golden folder: it may not climb out of it or name nothing.
    guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name != ".", name != "..",
      !name.contains("/"),
      !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      return fail(
        "the golden name \"\(name)\" is not a file name: give a name with no '/' and no control"
          + " character, not blank, not '.' or '..' (the file is Golden/NAME.txt next to the test)")
    }
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden")
    let file = directory.appendingPathComponent("\(name).txt")
    func write() -> Bool {
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return true
      } catch {
        fail("could not write the golden file \(file.path): \(error)")
        return false
      }
    }
    if ProcessInfo.processInfo.environment["SWIZZLEKIT_UPDATE_GOLDEN"] != nil {
      _ = write()
      return
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      return fail(
        "\(name): the golden path \(file.path) is a directory, not a file; move it away, then"
          + " run again to write the golden file")
    }
    guard FileManager.default.fileExists(atPath: file.path) else {
      if write() {
        fail(
          "\(name): there was no golden file; this run wrote \(file.path): review it, commit it, "
            + "and run again")
      }
      return
    }
    guard let data = FileManager.default.contents(atPath: file.path),
      let golden = String(data: data, encoding: .utf8)
    else {
      return fail(
        "\(name): the golden file \(file.path) is not UTF-8 text; it was left as it is "
          + "(delete it, or run with SWIZZLEKIT_UPDATE_GOLDEN=1, to write it again)")
    }
    guard let difference = firstDifference(golden, text) else { return }
    fail(
      "\(name) differs from \(file.lastPathComponent) at line \(difference.line):\n"
        + "  expected: \(difference.expected)\n  seen:     \(difference.seen)\n"
        + "(SWIZZLEKIT_UPDATE_GOLDEN=1 writes the file again)")
  }

  /// The first line where `expected` and `seen` differ (1-based), with both lines; nil when they
  /// are equal. Lines end at any line break: a golden file checked out with CRLF line ends (as
  /// Git does on Windows with `core.autocrlf`) reads as the same lines.
  public static func firstDifference(_ expected: String, _ seen: String)
    -> (line: Int, expected: String, seen: String)?
  {
    func lines(_ text: String) -> [Substring] {
      // A final line break ends the last line; it starts no empty one. ("\r\n" is one
      // Character in Swift, so splitting on "\n" alone would keep a CRLF file in one line.)
      let body = text.last?.isNewline == true ? text.dropLast() : Substring(text)
      return body.isEmpty
        ? [] : body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
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

/// Records the sends a thread makes: a tracer hears every thread of the process (the tests
/// running beside this one), and keeps the events of the thread that made it.
private final class SendRecorder: RuntimeTracer {
  private let owner = pthread_self()
  let lines = Mutex<[String]>([])

  func runtime(_ event: RuntimeEvent) {
    guard case .messageSent(let cls, let selector, _) = event,
      pthread_equal(pthread_self(), owner) != 0
    else { return }
    let line =
      String(format: "%.3f", VirtualRunLoop.main.currentTime)
      + "  \(cls.isMetaClass ? "+" : "-")[\(cls.name) \(selector)]"
    lines.withLock { $0.append(line) }
  }
}
