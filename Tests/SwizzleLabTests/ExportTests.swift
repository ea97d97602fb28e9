// swizzle-lab export: a scenario run written as a Swift Testing file, its golden timeline and
// its snapshots, named as the testing library reads them. (CI compiles and runs an export in a
// fresh package.)
import Foundation
import Scenarios
import ScreenRendering
import SwizzleKitTesting
import Testing
import UIKitModel

@testable import SwizzleLab

@MainActor
@Suite("swizzle-lab export", .uiKitModel)
struct ExportTests {
  private func export(_ arguments: [String]) -> (LabExit, CapturedOutput) {
    UIApplication.resetModel()
    let output = CapturedOutput(terminal: false)
    return (Lab.main(["export"] + arguments, output: output, environment: [:]), output)
  }

  @Test("writes the test, the golden timeline of the run and each moment's snapshot")
  func writes() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("export-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (code, output) = export([
      "transparent-swipe-back", "--device", "iPhone X", "--ios", "15", "--out", directory.path,
    ])
    #expect(code == .ok, "\(output.standardError)")
    let source = try String(
      contentsOf: directory.appendingPathComponent("TransparentSwipeBackReproTests.swift"),
      encoding: .utf8)
    #expect(source.contains("struct TransparentSwipeBackReproTests {"))
    #expect(source.contains("device: .iPhoneX, systemVersion: \"15.0\""))
    #expect(source.contains("plugins: [\"transparent\"]"))
    #expect(!source.contains("withKnownIssue"), "the run's checks hold")
    // The golden is the timeline of the same run; the snapshots are its moments' screens.
    let options = ScenarioOptions(
      device: .iPhoneX, systemVersion: "15.0", plugins: ["transparent"])
    let scenario = try #require(ScenarioCatalog.named("transparent-swipe-back"))
    let report = try scenario.check(options: options)
    let golden = try String(
      contentsOf: directory.appendingPathComponent(
        "Golden/transparent-swipe-back-iPhoneX-iOS15.0.txt"), encoding: .utf8)
    #expect(golden == ScenarioTimeline.text(report))
    for moment in report.moments {
      let frame = ScreenFrame(moment: moment, options: options)
      let name = SnapshotName.fileName(
        test: "reproduces()",
        identifier: SnapshotName.fileComponent("transparent-swipe-back-\(moment.name)"),
        frame: frame, scale: 1)
      let path = directory.appendingPathComponent(
        "__Snapshots__/TransparentSwipeBackReproTests/\(name)"
      ).path
      #expect(try RGBAImage.read(path) == frame.image(), "\(moment.name)")
    }
    // A second export into the same folder replaces nothing.
    let (again, refused) = export([
      "transparent-swipe-back", "--out", directory.path, "--device", "iPhone X", "--ios", "15",
    ])
    #expect(again == .failure && refused.standardError.contains("exists already"))
  }

  @Test("a run whose checks fail keeps them as a known issue, named in the test")
  func knownIssue() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("export-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (code, _) = export([
      "transparent-scroll-edge", "--ios", "15", "--plugin", "none", "--out", directory.path,
    ])
    #expect(code == .ok)
    let source = try String(
      contentsOf: directory.appendingPathComponent("TransparentScrollEdgeReproTests.swift"),
      encoding: .utf8)
    #expect(source.contains("withKnownIssue(\"reproduced: "))
    #expect(source.contains("plugins: []"))
  }

  @Test("export needs a scenario and --out; an unknown scenario is refused with the list")
  func usage() {
    #expect(export([]).0 == .usage)
    #expect(export(["transparent-swipe-back"]).0 == .usage)
    let (code, output) = export(["nope", "--out", "/tmp/x"])
    #expect(code == .usage && output.standardError.contains("no scenario 'nope'"))
  }
}
