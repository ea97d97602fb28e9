// `swizzle-lab learn`: every lesson golden, in 80 columns, the same twice, its code the code its
// file runs; the list, a page, and bad names.
import Foundation
import GNUObjC
import SwizzleKitTesting
import Testing

@testable import SwizzleLab

extension Lesson: CustomTestStringConvertible {
  /// The lesson's name, as a test case shows it.
  public var testDescription: String { name }
}

/// Runs the lab with `arguments`; returns its exit code and output.
@MainActor private func learn(_ arguments: [String]) -> (LabExit, CapturedOutput) {
  let output = CapturedOutput()
  return (Lab.main(["learn"] + arguments, output: output), output)
}

// The lessons change the runtime's tables (classes made and disposed of, exchanges, a hook): they
// take the model's turn so that no test that counts hooks or watches a class runs meanwhile.
extension Lessons {
  /// The lessons this machine runs: the Objective-C ones need gcc's Objective-C (gobjc), which
  /// CI installs.
  static var runnable: [Lesson] {
    all.filter { !$0.isObjectiveC || ObjectiveCCompiler.isAvailable }
  }
}

@MainActor
@Suite("swizzle-lab learn", .uiKitModel)
struct LessonTests {
  @Test("each lesson's output is the golden one, in 80 columns", arguments: Lessons.runnable)
  func golden(lesson: Lesson) throws {
    let (code, output) = learn([lesson.name])
    #expect(code == .ok && output.standardError.isEmpty)
    let text = output.standardOutput
    GoldenTimeline.check(text, named: "learn-\(lesson.name)")
    let wide = text.split(separator: "\n").map(String.init).filter {
      $0.count > LearnCommand.width
    }
    #expect(wide.isEmpty, "lines over 80 columns: \(wide)")
    #expect(!text.contains("error:"), "the lesson ran to its end")
  }

  @Test("a lesson gives the same output twice: its classes go with it", arguments: Lessons.runnable)
  func deterministic(lesson: Lesson) {
    #expect(Lessons.run(lesson) == Lessons.run(lesson))
  }

  @Test(
    "the code shown is the code the lesson's file runs, line for line", arguments: Lessons.runnable)
  func codeIsTheSource(lesson: Lesson) throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let source = try String(
      contentsOf: root.appendingPathComponent(lesson.file), encoding: .utf8)
    let shown = LearnCommand.codeLines(lesson).map { $0.trimmingCharacters(in: .whitespaces) }
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
    let start = try #require(
      lines.firstIndex { $0 == shown.first }, "the first line of \(lesson.name)'s code")
    #expect(Array(lines[start..<min(lines.count, start + shown.count)]) == shown)
  }

  @Test("learn lists the lessons; an unknown name exits 64 with the list")
  func listAndBadName() {
    let (code, output) = learn([])
    #expect(code == .ok)
    for lesson in Lessons.all {
      #expect(output.standardOutput.contains("  \(lesson.name) "))
    }
    let (bad, error) = learn(["nope"])
    #expect(bad == .usage)
    #expect(error.standardError.contains("no lesson 'nope'; lessons: lookup-and-caches"))
    #expect(learn(["forwarding", "--wat"]).0 == .usage)
    #expect(learn(["--html", "x.html"]).0 == .usage, "--html writes one lesson")
  }

  @Test("--html writes the lesson as a page with its code, events and printed lines")
  func page() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("lesson-\(UUID().uuidString).html")
    defer { try? FileManager.default.removeItem(at: file) }
    let (code, _) = learn(["inherited-method", "--html", file.path])
    #expect(code == .ok)
    let page = try String(contentsOf: file, encoding: .utf8)
    #expect(page.contains("<h1>The inherited-method bug, and the safe pattern</h1>"))
    #expect(page.contains("class_addMethod(sub, &quot;swz_greet&quot;"))
    #expect(page.contains("<b>exchange</b> <code>-[Base greet] &lt;-&gt; -[Sub swz_greet]</code>"))
    #expect(page.contains("<li class=\"said\">"))
  }
}
