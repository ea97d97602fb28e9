// `export`: a scenario run turned into a test a maintainer can run: a Swift Testing file, its
// golden timeline and its image snapshots, laid out as the testing library reads them.
import Foundation
import Hooks
import Scenarios
import ScreenRendering
import UIKitModel

/// `export`: writes a scenario run (plugins, device, iOS profile and SDK) as a test.
enum ExportCommand {
  @MainActor static func run(_ options: Options, output: LabOutput) throws(LabError) -> LabExit {
    guard let directory = options.outDirectory else {
      throw .usage("export needs --out DIR", topic: "export")
    }
    guard let scenario = ScenarioCatalog.named(options.scenario ?? "") else {
      throw .usage("no scenario", topic: "export")
    }
    let scenarioOptions = options.scenarioOptions
    let plugins = scenario.plugins(for: scenarioOptions)
    var resolved = scenarioOptions
    resolved.plugins = plugins
    let report: ScenarioReport
    do {
      report = try scenario.check(options: resolved)
    } catch {
      throw .failure(error.description)
    }
    let export = Export(scenario: scenario, options: resolved, report: report, command: options)
    let folder = URL(fileURLWithPath: directory)
    let golden = folder.appendingPathComponent("Golden/\(export.goldenName).txt")
    let snapshots = folder.appendingPathComponent("__Snapshots__/\(export.typeName)")
    let testFile = folder.appendingPathComponent("\(export.typeName).swift")
    for existing in [testFile, golden] where FileManager.default.fileExists(atPath: existing.path) {
      throw .failure(
        "\(existing.path) exists already; export into an empty folder, or move it away (the"
          + " lab never replaces a test or its references)")
    }
    var written: [String] = []
    do {
      try FileManager.default.createDirectory(
        at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
      try export.source.write(to: testFile, atomically: true, encoding: .utf8)
      written.append(testFile.path)
      try ScenarioTimeline.text(report).write(to: golden, atomically: true, encoding: .utf8)
      written.append(golden.path)
      let identifiers = SnapshotName.momentIdentifiers(
        scenario: scenario.name, moments: report.moments.map(\.name))
      for (moment, identifier) in zip(report.moments, identifiers) {
        let frame = ScreenFrame(moment: moment, options: resolved)
        let name = SnapshotName.fileName(
          test: Export.testName, identifier: identifier, frame: frame, scale: 1)
        let path = snapshots.appendingPathComponent(name).path
        try frame.image().write(to: path)
        written.append(path)
      }
    } catch {
      throw .failure("could not write the export to \(directory): \(error)")
    }
    output.out(
      "wrote \(written.count) files for \(scenario.name) on \(resolved.device.rawValue), iOS"
        + " \(resolved.profileName):\n" + written.map { "  \($0)\n" }.joined()
        + "Copy them into a test target that links the plugins (\(plugins.isEmpty ? "none" : plugins.joined(separator: ", "))),"
        + " exclude Golden and __Snapshots__ from its sources, and run swift test.\n")
    return .ok
  }
}

/// The text of an exported test.
struct Export {
  let scenario: Scenario
  let options: ScenarioOptions
  let report: ScenarioReport
  let command: Options

  /// The test function's name: what `#function` reads as the snapshots' `<test>`.
  static let testName = "reproduces"

  /// `TransparentSwipeBackReproTests`: the suite's type and the file's name.
  var typeName: String {
    let words = scenario.name.split { !$0.isLetter && !$0.isNumber }
    let camel = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    let start = camel.first?.isLetter == true ? camel : "Scenario" + camel
    return start + "ReproTests"
  }

  /// The golden timeline's name: the scenario and its cell.
  var goldenName: String {
    SnapshotName.fileComponent(
      "\(scenario.name)-\(options.device.rawValue.replacingOccurrences(of: " ", with: ""))"
        + "-iOS\(options.systemVersion)" + (options.sdkVersion.map { "-SDK\($0)" } ?? ""))
  }

  /// The lab command that made the export, to run the same scenario again.
  var labCommand: String {
    var words = ["swizzle-lab", "run", scenario.name]
    if let plugins = options.plugins {
      words += ["--plugin", plugins.isEmpty ? "none" : plugins.joined(separator: ",")]
    }
    words += ["--device", "\"\(options.device.rawValue)\"", "--ios", options.systemVersion]
    if let sdk = options.sdkVersion { words += ["--sdk", sdk] }
    return words.joined(separator: " ")
  }

  /// A Swift string literal of `text`.
  static func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// The device's case name in Swift (`.iPhoneX`).
  var deviceCase: String {
    "\(options.device)"
  }

  /// The Swift Testing file.
  var source: String {
    let plugins = options.plugins ?? []
    let call = [
      "expectScenario(",
      "  scenario,",
      "  options: ScenarioOptions(",
      "    device: .\(deviceCase), systemVersion: \(Export.literal(options.systemVersion)),",
      "    sdkVersion: \(options.sdkVersion.map(Export.literal) ?? "nil"),",
      "    plugins: [\(plugins.map(Export.literal).joined(separator: ", "))]),",
      "  golden: \(Export.literal(goldenName)), snapshots: true)",
    ]
    // A run whose checks did not come out as the scenario says reproduces a failure: the test
    // keeps it as a known issue, so that it passes while the failure stays as it is.
    let surprises = report.checks.filter { !$0.isAsExpected }.map(\.label)
    var bodyLines: [String]
    if surprises.isEmpty {
      bodyLines = call.map { "    " + $0 }
    } else {
      let why =
        "The run's checks did not all come out as the scenario says (\(surprises.joined(separator: "; "))):"
        + " the failure this test reproduces. Those checks' issues are known; the golden timeline"
        + " and the snapshots are still compared, so once the failure is fixed the timeline"
        + " differs (a check \"ok\" where it said \"failed\") and the test says so."
      bodyLines = Lab.wrap(why, width: 90).map { "    // " + $0 }
      bodyLines.append(
        "    withKnownIssue(\(Export.literal("reproduced: " + surprises.joined(separator: "; ")))) {"
      )
      bodyLines += call.map { "      " + $0 }
      // Only the checks' own issues are known: each starts with the cell and the check's label,
      // as expectScenario writes it.
      let cell = "\(scenario.name) on \(options.device.rawValue), iOS \(options.profileName)"
      bodyLines.append("    } matching: { issue in")
      bodyLines.append("      let reproduced = [")
      bodyLines += surprises.map { "        " + Export.literal("\(cell): \"\($0)\"") + "," }
      bodyLines.append("      ]")
      bodyLines.append("      return issue.comments.contains { comment in")
      bodyLines.append("        reproduced.contains { comment.rawValue.hasPrefix($0) }")
      bodyLines.append("      }")
      bodyLines.append("    }")
    }
    let body = bodyLines.joined(separator: "\n")
    let named = plugins.isEmpty ? "(none)" : plugins.joined(separator: ", ")
    let sdk = options.sdkVersion.map { " (built with the iOS \($0) SDK)" } ?? ""
    let those = plugins.count == 1 ? "that plugin" : "those plugins"
    var placement = "The scenario runs with the plugin\(plugins.count == 1 ? "" : "s") \(named)"
    placement += " on \(options.device.rawValue), iOS \(options.systemVersion)\(sdk); its timeline"
    placement += " is compared with Golden/\(goldenName).txt and each moment's screen with its"
    placement += " image in __Snapshots__/\(typeName)/. Put this file and both folders in a test"
    placement += " target that links \(those), and exclude the folders from its sources"
    placement += " (exclude: [\"Golden\", \"__Snapshots__\"])."
    let summary = scenario.summary.replacingOccurrences(of: "\n", with: " ")
    var lines = [
      "// Exported by swizzle-lab export. The same run in the lab:", "//   \(labCommand)", "//",
    ]
    for paragraph in ["\(scenario.name): \(summary)", "", placement] {
      lines += paragraph.isEmpty ? ["//"] : Lab.wrap(paragraph, width: 96).map { "// " + $0 }
    }
    let header = lines.joined(separator: "\n")
    return """
      \(header)
      import Scenarios
      import SwizzleKitTesting
      import Testing
      import UIKitModel

      @MainActor
      @Suite(.uiKitModel)
      struct \(typeName) {
        @Test(\(Export.literal("\(scenario.name) on \(options.device.rawValue), iOS \(options.profileName)")))
        func \(Export.testName)() throws {
          let scenario = try #require(
            ScenarioCatalog.named(\(Export.literal(scenario.name))),
            "the plugin that brings the scenario is linked into the test target")
      \(body)
        }
      }

      """
  }
}
