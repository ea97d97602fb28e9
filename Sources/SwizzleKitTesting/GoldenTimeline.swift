// Golden timelines: a scenario's moments (or any text) kept in a file next to the test, compared
// on later runs, re-recorded on demand.
import Foundation
public import ObjCRuntime
public import Scenarios
import Synchronization
public import Testing
import UIKitModel

/// Text a test keeps in a file next to its source and compares on every run: a scenario's
/// timeline of moments, a session's trace. A file that differs fails the test with a unified
/// diff of the whole file, and the text seen is left in the failure artifacts beside a copy of
/// the reference. The record mode (``RecordMode``: a trait, ``withRecordMode(_:_:)`` or
/// `SWIZZLEKIT_RECORD`) says when the file is written instead: by default only a missing one,
/// and that fails too, so that a clean checkout cannot pass by writing its own goldens.
///
/// ```swift
/// let moments = try scenario.run(options: ScenarioOptions(systemVersion: "15.0"))
/// GoldenTimeline.check(GoldenTimeline.timeline(moments), named: "scrolling-ios15")
/// ```
public enum GoldenTimeline {
  /// One line per moment: `time  name: what the user sees` (`ScenarioTimeline` of `Scenarios`).
  public static func timeline(_ moments: [ScenarioMoment]) -> String {
    ScenarioTimeline.text(moments)
  }

  /// A scenario run's timeline: its moments, one line each, then each check with its outcome
  /// (`ScenarioTimeline` of `Scenarios`).
  public static func timeline(_ report: ScenarioReport) -> String {
    ScenarioTimeline.text(report)
  }

  /// Runs `body` and returns what it returned with the sends of `selectors` through the runtime
  /// that `body` made on this thread, one line each: the virtual time and `-[Class selector]`
  /// (the class the lookup started at). With no selectors, nothing is traced and no cache is
  /// flushed.
  @MainActor
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
  /// calling test's source) and fails the test with a unified diff of the two when they differ,
  /// leaving `<name>.actual.txt` and `<name>.reference.txt` in the failure artifacts. The record
  /// mode (`record`, else the trait's or block's, else `SWIZZLEKIT_RECORD`'s) says when the file
  /// is written instead; every write fails and says what changed. A file that is not UTF-8 text
  /// is a failure and is left as it is, unless the mode rewrites what differs.
  ///
  /// - Returns: whether the text matched the file (false after a write).
  @discardableResult
  public static func check(
    _ text: String, named name: String, record: RecordMode? = nil, filePath: String = #filePath,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) -> Bool {
    func fail(_ message: String) -> Bool {
      TestReporter.fail(message, at: sourceLocation)
      return false
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
    let mode: RecordMode
    switch record.map({ .success($0) }) ?? RecordMode.resolved() {
    case .success(let resolved): mode = resolved
    case .failure(let error): return fail("\(name): \(error)")
    }
    let testFile = URL(fileURLWithPath: filePath)
    let file = testFile.deletingLastPathComponent().appendingPathComponent("Golden")
      .appendingPathComponent("\(name).txt")
    func write(_ what: String) -> Bool {
      do {
        try ReferenceFiles.write(Data(text.utf8), to: file)
      } catch {
        return fail("\(name): \(error)")
      }
      return fail(mode.recorded("golden file", at: file.path, what))
    }
    if ReferenceFiles.isDirectory(file.path) {
      return fail(
        "\(name): the golden path \(file.path) is a directory, not a file; move it away, then"
          + " run again to write the golden file")
    }
    guard FileManager.default.fileExists(atPath: file.path) else {
      guard mode.writesMissing else {
        return fail(mode.missing("golden file", named: name, at: file.path))
      }
      return write("new, \(lines(text).count) lines")
    }
    guard let data = FileManager.default.contents(atPath: file.path),
      let golden = String(data: data, encoding: .utf8)
    else {
      if mode.rewritesUnreadable { return write("the old file was not UTF-8 text") }
      return fail(
        "\(name): the golden file \(file.path) is not UTF-8 text; it was left as it is "
          + "(delete it, or run with SWIZZLEKIT_RECORD=failed, to write it again)")
    }
    let diff = unifiedDiff(golden, text, from: "Golden/\(name).txt", to: "seen")
    switch mode.decision(matches: diff == nil) {
    case .pass: return true
    case .rewrite: return write(diff.map(changeSummary) ?? "unchanged")
    case .fail: break
    }
    guard let diff else { return true }
    let artifacts = ReferenceFiles.artifactsDirectory(for: testFile)
    var left = ""
    do {
      let actual = artifacts.appendingPathComponent("\(name).actual.txt")
      let reference = artifacts.appendingPathComponent("\(name).reference.txt")
      try ReferenceFiles.write(Data(text.utf8), to: actual)
      try ReferenceFiles.write(data, to: reference)
      left = "\n  actual: \(actual.path)\n  reference: \(reference.path)"
    } catch {
      left = "\n  (could not write the artifacts: \(error))"
    }
    return fail(
      "\(name) differs from \(file.lastPathComponent):\n\(diff)\(left)\n"
        + "(SWIZZLEKIT_RECORD=failed writes the file again)")
  }

  /// `2 lines added, 1 removed`, from a unified diff.
  private static func changeSummary(_ diff: String) -> String {
    let lines = diff.split(separator: "\n").dropFirst(2)
    let added = lines.filter { $0.hasPrefix("+") }.count
    let removed = lines.filter { $0.hasPrefix("-") }.count
    return "\(added) line\(added == 1 ? "" : "s") added, \(removed) removed"
  }

  /// The lines of `text`: a final line break ends the last line and starts no empty one, and
  /// any line break counts (a golden file checked out with CRLF line ends, as Git does on
  /// Windows with `core.autocrlf`, reads as the same lines; "\r\n" is one Character in Swift).
  static func lines(_ text: String) -> [Substring] {
    let body = text.last?.isNewline == true ? text.dropLast() : Substring(text)
    return body.isEmpty
      ? [] : body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
  }

  /// A unified diff (three lines of context) from `expected` to `seen`, headed `--- from` and
  /// `+++ to`; nil when their lines are equal. Longest common subsequence, line by line; above
  /// 4,000,000 line pairs, the common head and tail are kept and the middle shown whole.
  public static func unifiedDiff(_ expected: String, _ seen: String, from: String, to: String)
    -> String?
  {
    let old = lines(expected).map(String.init)
    let new = lines(seen).map(String.init)
    guard old != new else { return nil }
    // The common head and tail, then the middle by LCS.
    var head = 0
    while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
    var tail = 0
    while tail < old.count - head, tail < new.count - head,
      old[old.count - 1 - tail] == new[new.count - 1 - tail]
    {
      tail += 1
    }
    let a = Array(old[head..<(old.count - tail)])
    let b = Array(new[head..<(new.count - tail)])
    enum Edit {
      case keep(String)
      case remove(String)
      case add(String)
    }
    var middle: [Edit] = []
    if a.count * b.count <= 4_000_000 {
      var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
      for i in stride(from: a.count - 1, through: 0, by: -1) {
        for j in stride(from: b.count - 1, through: 0, by: -1) {
          table[i][j] =
            a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
        }
      }
      var i = 0
      var j = 0
      while i < a.count || j < b.count {
        if i < a.count, j < b.count, a[i] == b[j] {
          middle.append(.keep(a[i]))
          i += 1
          j += 1
        } else if i < a.count, j == b.count || table[i + 1][j] >= table[i][j + 1] {
          middle.append(.remove(a[i]))
          i += 1
        } else {
          middle.append(.add(b[j]))
          j += 1
        }
      }
    } else {
      middle = a.map { .remove($0) } + b.map { .add($0) }
    }
    let edits =
      old[..<head].map { Edit.keep($0) } + middle
      + old[(old.count - tail)...].map { Edit.keep($0) }
    // Hunks: runs of changes with up to three kept lines around them.
    var output = ["--- \(from)", "+++ \(to)"]
    var index = 0
    var oldLine = 1
    var newLine = 1
    while index < edits.count {
      guard case .keep = edits[index] else {
        // A hunk starts up to three kept lines before this change.
        var start = index
        var back = 0
        while start > 0, back < 3, case .keep = edits[start - 1] {
          start -= 1
          back += 1
        }
        var end = index
        var kept = 0
        while end < edits.count {
          if case .keep = edits[end] {
            if kept == 6 { break }
            kept += 1
          } else {
            kept = 0
          }
          end += 1
        }
        // Keep at most three lines of context after the last change.
        while kept > 3 {
          end -= 1
          kept -= 1
        }
        let hunk = edits[start..<end]
        let oldCount = hunk.filter { if case .add = $0 { false } else { true } }.count
        let newCount = hunk.filter { if case .remove = $0 { false } else { true } }.count
        let oldStart = oldLine - back
        let newStart = newLine - back
        output.append(
          "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount)"
            + " +\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@")
        for edit in hunk {
          switch edit {
          case .keep(let line): output.append(" " + line)
          case .remove(let line): output.append("-" + line)
          case .add(let line): output.append("+" + line)
          }
        }
        for edit in edits[index..<end] {
          switch edit {
          case .keep:
            oldLine += 1
            newLine += 1
          case .remove: oldLine += 1
          case .add: newLine += 1
          }
        }
        index = end
        continue
      }
      oldLine += 1
      newLine += 1
      index += 1
    }
    return output.joined(separator: "\n")
  }

  /// The first line where `expected` and `seen` differ (1-based), with both lines; nil when they
  /// are equal. Lines end at any line break: a golden file checked out with CRLF line ends (as
  /// Git does on Windows with `core.autocrlf`) reads as the same lines.
  public static func firstDifference(_ expected: String, _ seen: String)
    -> (line: Int, expected: String, seen: String)?
  {
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
    // The recorder's thread runs the model: the main thread.
    let time = MainThread.assumeIsolated { VirtualRunLoop.main.currentTime }
    let line =
      String(format: "%.3f", time)
      + "  \(cls.isMetaClass ? "+" : "-")[\(cls.name) \(selector)]"
    lines.withLock { $0.append(line) }
  }
}
