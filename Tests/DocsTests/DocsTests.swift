// The docs tell the truth: every Swift code block of Docs/, the README and the plugins' READMEs
// compiles, the generated sections of Docs/UIKitModel.md are what the model does now, and the
// module table of Docs/Architecture.md is Package.swift's.
import Foundation
import Scenarios
import SwizzleKitTesting
import Testing
import UIKitModel

@testable import SwizzleLab

/// The package's root, from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The text of a file of the package.
func read(_ path: String) throws -> String {
  try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
}

/// The part of `document` between `<!-- BEGIN generated: name -->` and its END marker, compared
/// with `generated`; `SWIZZLEKIT_UPDATE_DOCS=1` writes `generated` there instead.
func checkGenerated(_ generated: String, named name: String, in document: String) throws {
  let url = packageRoot.appendingPathComponent(document)
  let text = try String(contentsOf: url, encoding: .utf8)
  let begin = "<!-- BEGIN generated: \(name) -->\n"
  let end = "<!-- END generated: \(name) -->"
  guard let start = text.range(of: begin), let stop = text.range(of: end) else {
    Issue.record("\(document) has no section marked \(begin.dropLast()) ... \(end)")
    return
  }
  let current = String(text[start.upperBound..<stop.lowerBound])
  if ProcessInfo.processInfo.environment["SWIZZLEKIT_UPDATE_DOCS"] == "1" {
    try (text[..<start.upperBound] + generated + text[stop.lowerBound...]).write(
      to: url, atomically: true, encoding: .utf8)
    return
  }
  #expect(
    current == generated,
    "\(document), section \(name), is not what the model does now; SWIZZLEKIT_UPDATE_DOCS=1 rewrites it"
  )
}

@MainActor
@Suite("Docs", .uiKitModel)
struct DocsTests {
  @Test("the gallery's table in Docs/Gallery.md is the plugins' breakages")
  func galleryTable() throws {
    let rows = BreakageGallery.all().map { breakage in
      "| `\(breakage.name)` | \(breakage.report) | \(breakage.device.rawValue), \(breakage.profile)"
        + " | \(breakage.reported) | \(breakage.mechanism) | `\(breakage.scenario)` |"
    }
    let table =
      (["| name | report | where | what users saw | why | scenario |", "|---|---|---|---|---|---|"]
      + rows).joined(separator: "\n") + "\n"
    try checkGenerated(table, named: "gallery", in: "Docs/Gallery.md")
  }

  @Test("the table of hookable methods in Docs/UIKitModel.md is the model's tables")
  func methodsTable() throws {
    try checkGenerated(MethodsCommand.markdown(), named: "methods", in: "Docs/UIKitModel.md")
  }

  @Test("the timelines in Docs/UIKitModel.md are what a run records")
  func timelines() throws {
    try checkGenerated(Timelines.markdown(), named: "timelines", in: "Docs/UIKitModel.md")
  }

  @Test("the module table of Docs/Architecture.md lists Package.swift's targets")
  func moduleTable() throws {
    let manifest = try read("Package.swift")
    let architecture = try read("Docs/Architecture.md")
    // Every library and executable target of the manifest (test support aside) has a row.
    var targets: [String] = []
    for line in manifest.split(separator: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("name: \"") else { continue }
      let name = trimmed.dropFirst(7).prefix { $0 != "\"" }
      targets.append(String(name))
    }
    let documented = targets.filter { name in
      !name.hasSuffix("Tests") && !name.hasSuffix("TestSupport") && name != "SwizzleKit"
    }
    #expect(!documented.isEmpty)
    let rows = architecture.split(separator: "\n").filter { $0.hasPrefix("| `") }
    for name in documented {
      #expect(
        rows.contains { $0.contains("`\(name)`") }, "Docs/Architecture.md has no row for \(name)")
    }
  }

  @Test("the README's layout table names every folder of the package, and only folders that exist")
  func layoutTable() throws {
    let readme = try read("README.md")
    let section = readme.components(separatedBy: "## Layout").dropFirst().first ?? ""
    let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
    // The paths named in the first column of each row.
    let named = rows.flatMap { row -> [String] in
      let first = row.split(separator: "|").first ?? ""
      return first.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map {
        String($0.element)
      }
    }
    #expect(!named.isEmpty)
    let files = FileManager.default
    for path in named {
      #expect(
        files.fileExists(atPath: packageRoot.appendingPathComponent(path).path), "\(path) is gone")
    }
    for folder in ["Sources", "Plugins", "Tests", "Examples"] {
      let entries = try files.contentsOfDirectory(
        atPath: packageRoot.appendingPathComponent(folder).path)
      for entry in entries.sorted() where !entry.hasSuffix(".md") {
        #expect(
          named.contains("\(folder)/\(entry)"), "the layout table has no row for \(folder)/\(entry)"
        )
      }
    }
  }

  @Test("Docs/Hooks.md shows the coexistence tables as the lab's golden output has them")
  func coexistenceTables() throws {
    let golden = try read("Tests/SwizzleLabTests/Golden/coexist.txt")
    let start = try #require(golden.range(of: "ONE CLASS: the call"))
    let end = try #require(golden.range(of: "Call: both ="))
    let tables = golden[start.lowerBound..<end.lowerBound]
      .trimmingCharacters(in: .newlines)
    #expect(tables.contains("CLASS AND SUBCLASS: the reverts"))
    #expect(
      try read("Docs/Hooks.md").contains("```text\n\(tables)\n```"),
      "Docs/Hooks.md, section 10, must show the tables of swizzle-lab coexist as they are")
  }

  @Test("Docs/Lab.md names every command of the lab's help, and every option each one takes")
  func labCommands() throws {
    let lab = try read("Docs/Lab.md")
    let commands = Usage.commands.split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(commands.count >= 11)
    for command in commands {
      #expect(lab.contains("`swizzle-lab \(command)"), "Docs/Lab.md does not show \(command)")
      // The options the command's help lists (`--plugin`, `--out`...).
      let help = Usage.text(for: command)
      let options = help.split(whereSeparator: { !$0.isLetter && $0 != "-" })
        .filter { $0.hasPrefix("--") && $0.count > 2 }
      for option in Set(options) where option != "--help" {
        let named = ["`", "[", " "].contains { lab.contains("\($0)\(option)") }
        #expect(named, "Docs/Lab.md does not name \(option) of \(command)")
      }
    }
  }
}
