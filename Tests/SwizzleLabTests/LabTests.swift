// swizzle-lab: golden files of its output, exit codes, and the HTML report's SVG.
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import ScreenRendering
import SwizzleKitTesting
import Synchronization
import Testing
import UIKitModel

@testable import SwizzleLab

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Runs the lab with `arguments` on a fresh model; returns its exit code and output.
@MainActor private func lab(_ arguments: [String], terminal: Bool = false) -> (
  LabExit, CapturedOutput
) {
  UIApplication.resetModel()
  let output = CapturedOutput(terminal: terminal)
  let code = Lab.main(arguments, output: output, environment: [:])
  return (code, output)
}

/// Compares `text` with `Golden/<name>.txt` next to this file, the testing library's way
/// (the record mode, `SWIZZLEKIT_RECORD=failed`, writes it instead).
private func golden(
  _ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  GoldenTimeline.check(text, named: name, sourceLocation: sourceLocation)
}

@MainActor
@Suite("swizzle-lab", .uiKitModel)
struct LabTests {
  @Test("help") func help() throws {
    let (code, output) = lab(["--help"])
    #expect(code == .ok)
    golden(output.standardOutput, "help")
    for command in ["run", "trace", "hooks", "render", "load", "list"] {
      let (code, output) = lab([command, "--help"])
      #expect(code == .ok && output.standardOutput.contains("USAGE: swizzle-lab \(command)"))
    }
  }

  @Test("list shows the bar-layer plugin and its scenarios, found by discovery")
  func list() throws {
    let (code, output) = lab(["list"])
    #expect(code == .ok)
    let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { $0.count <= 80 })
    // The test binary holds other suites' plugins too (and registers more as they run): the
    // golden keeps the bar-layer plugin's entry of the PLUGINS section.
    var kept: [Substring] = []
    var section = ""
    var entry = ""
    for line in lines {
      if !line.hasPrefix(" ") { section = String(line) }
      if section == "PLUGINS", line.hasPrefix("  "), !line.hasPrefix("   ") {
        entry = String(line.dropFirst(2).prefix { $0 != " " })
      }
      if section == "PLUGINS", line.hasPrefix("  "), entry != "bar-layer" { continue }
      kept.append(line)
    }
    golden(kept.joined(separator: "\n"), "list")
  }

  @Test("run") func run() throws {
    let (code, output) = lab(["run", "push", "--no-color", "--device", "iPhone X"])
    #expect(code == .ok)
    golden(output.standardOutput, "run")
    let (_, again) = lab(["run", "push", "--no-color", "--device", "iPhone X"])
    #expect(again.standardOutput == output.standardOutput, "byte for byte the same")
    let (_, colored) = lab(["run", "push"], terminal: true)
    #expect(colored.standardOutput.contains("\u{1B}[48;2;"), "24-bit colour on a terminal")
    #expect(!lab(["run", "push"]).1.standardOutput.contains("\u{1B}"), "plain when piped")
  }

  @Test("run prints the plugins' log lines with their time, before the moment that followed them")
  func runLog() {
    let moment = { (name: String) in
      ScenarioMoment(name: name, time: 0, seenBar: UINavigationBar().asSeen(over: .white))
    }
    let report = ScenarioReport(
      moments: [moment("start"), moment("pushed")], checks: [],
      log: [
        ScenarioLogLine(time: 0, plugin: "fade", message: "installed", moment: 0),
        ScenarioLogLine(time: 0.25, plugin: "fade", message: "alpha 0.5", moment: 1),
        ScenarioLogLine(time: 0.5, plugin: "fade", message: "done", moment: 2),
      ])
    #expect(RunCommand.logLines(report, before: 0) == ["  \(Format.time(0))  [fade] installed"])
    #expect(RunCommand.logLines(report, before: 1) == ["  \(Format.time(0.25))  [fade] alpha 0.5"])
    #expect(RunCommand.logLines(report, before: 2) == ["  \(Format.time(0.5))  [fade] done"])
    #expect(RunCommand.logLines(report, before: 3).isEmpty)
  }

  @Test("trace") func trace() throws {
    let (code, output) = lab(["trace", "push", "--filter", "pushViewController:animated:"])
    #expect(code == .ok)
    golden(output.standardOutput, "trace")
    let (_, all) = lab(["trace", "push"])
    #expect(all.standardOutput.contains("barLayerTick:"), "display-link ticks")
    #expect(all.standardOutput.contains("transition started"))
    #expect(all.standardOutput.contains("transition ended"))
    // The plugin's hooks show under its install, without addresses that differ from run to run.
    let lines = all.standardOutput.split(separator: "\n").map(String.init)
    let install = try #require(
      lines.firstIndex { $0.hasSuffix("install plugin swizzlekit.bar-layer") })
    let push = "set -[UINavigationController pushViewController:animated:] (hook engine)"
    #expect(lines[install...].contains { $0.hasSuffix(push) })
    #expect(!all.standardOutput.contains("0x"))
  }

  @Test("a trace shows the events of the scenario's thread, not another thread's")
  func traceOwnThread() throws {
    _ = lab(["trace", "push"])  // the first run realizes classes; the trace shows that once
    let quiet = lab(["trace", "push"]).1.standardOutput
    // Another thread makes and disposes of classes while the trace records (a tracer is
    // process-wide): none of its events may appear, and the trace must not change.
    let stop = Atomic(false)
    let noise = Thread {
      var round = 0
      while !stop.load(ordering: .relaxed) {
        round += 1
        if let cls = objc_allocateClassPair(UIView.runtimeClass, "LabNoise\(round)", 0) {
          objc_registerClassPair(cls)
          objc_disposeClassPair(cls)
        }
      }
    }
    noise.start()
    let noisy = lab(["trace", "push"]).1.standardOutput
    stop.store(true, ordering: .relaxed)
    #expect(!noisy.contains("LabNoise"))
    #expect(noisy == quiet)
  }

  @Test("render: frames of the screen as SVG and PNG, a scrubber through every frame, plots")
  func render() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("swizzlekit-lab-render-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (code, _) = lab(["render", "push", "--out", directory.path])
    #expect(code == .ok)
    let json = try String(
      contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
    golden(json, "render")
    let data = try JSONDecoder().decode(ReportData.self, from: Data(json.utf8))
    let html = try String(
      contentsOf: directory.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(html.components(separatedBy: "<figure>").count - 1 == 3, "one frame per moment")
    // The scrubber: a frame per sample, the first shown, and a script of its own (nothing
    // fetched).
    #expect(html.components(separatedBy: " data-time=").count - 1 == data.samples.count)
    #expect(html.components(separatedBy: "<script").count - 1 == 1)
    #expect(!html.contains("<script src") && !html.contains("https://"))
    // The status bar's ink follows its style: white over the transparent page (lightContent),
    // black once the opaque page is up (default).
    let first = try String(
      contentsOf: directory.appendingPathComponent("frame-1.svg"), encoding: .utf8)
    let last = try String(
      contentsOf: directory.appendingPathComponent("frame-3.svg"), encoding: .utf8)
    #expect(first.contains("fill=\"rgb(255,255,255)\" fill-opacity=\"1.000\">9:41"))
    #expect(last.contains("fill=\"rgb(0,0,0)\" fill-opacity=\"1.000\">9:41"))
    // Mid-push, both pages are drawn: the transparent one leaving, the opaque one arriving.
    let midPush = try #require(data.moments.first { $0.name == "mid push" }?.views)
    #expect(midPush.count == 2 && midPush[0].x < 0 && midPush[1].x > 0)
    // Every SVG fragment is well-formed XML.
    var rest = html[...]
    var fragments = 0
    while let start = rest.range(of: "<svg"),
      let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex)
    {
      var fragment = String(rest[start.lowerBound..<end.upperBound])
      if !fragment.contains("xmlns") {
        fragment = fragment.replacingOccurrences(
          of: "<svg", with: "<svg xmlns=\"http://www.w3.org/2000/svg\"")
      }
      #expect(XMLParser(data: Data(fragment.utf8)).parse(), "fragment \(fragments) parses")
      fragments += 1
      rest = rest[end.upperBound...]
    }
    #expect(fragments == 3 + data.samples.count + 4, "the frames, the scrubber's and the plots")
    // Each moment's PNG decodes, at one pixel a point, with the bar drawn in its colour.
    for (index, moment) in data.moments.enumerated() {
      let image = try RGBAImage.read(
        directory.appendingPathComponent("frame-\(index + 1).png").path)
      #expect(image.width == 375 && image.height == 667)
      let bar = (image.pixel(x: 300, y: 30) ?? []).prefix(3).map { Double($0) / 255 }
      let expected = moment.sample.background.prefix(3)
      #expect(zip(bar, expected).allSatisfy { abs($0 - $1) < 0.01 }, "\(moment.name)'s bar")
    }
    #expect(throws: ImageFileError.self) {
      try RGBAImage.read(directory.appendingPathComponent("report.json").path)
    }
  }

  @Test("matrix: every scenario of a plugin on each profile, a table, an HTML page with reports")
  func matrix() throws {
    let (code, output) = lab(["matrix", "--plugin", "overlay", "--device", "iPhone X"])
    #expect(code == .ok)
    let lines = output.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasSuffix("iOS 15/sdk14  iOS 15  iOS 17  iOS 18  iOS 26") })
    // The seed's elements stay from iOS 11; its overlay is short under the notch.
    #expect(
      lines.contains(
        "lt-scrolling (iPhone X)         ok      xfail   xfail   xfail   xfail         xfail   xfail"
          + "   xfail   xfail"))
    #expect(
      lines.contains(
        "lt-background-color (iPhone X)  xfail   xfail   xfail   xfail   xfail         xfail   xfail"
          + "   xfail   xfail"))
    #expect(lines.last == "81 runs: 81 as expected (71 known failures), 0 not")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("swizzlekit-matrix-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (written, _) = lab([
      "matrix", "--scenario", "lt-scrolling", "--device", "iPhone 8", "--out", directory.path,
    ])
    #expect(written == .ok)
    let page = try String(
      contentsOf: directory.appendingPathComponent("matrix.html"), encoding: .utf8)
    #expect(page.contains("cells/lt-scrolling-iPhone8-ios15/report.html"))
    #expect(
      FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("cells/lt-scrolling-iPhone8-ios10/report.html")
          .path))
    #expect(lab(["matrix", "--scenario", "nope"]).0 == .usage)
  }

  @Test("bad input exits 64 with the usage; a library that does not load exits 1")
  func exitCodes() {
    for arguments in [
      ["bogus"], ["run"], ["run", "nope"], ["run", "push", "--plugin", "nope"],
      ["run", "push", "--device", "Nokia"], ["run", "push", "--wat"], ["render", "push"],
      ["trace", "push", "--speed"], ["run", "push", "--ios", "14"],
      ["run", "push", "--ios", "x.1"], ["trace", "push", "--speed", "5000"],
      ["trace", "push", "--speed", "inf"], ["trace", "push", "--speed", "nan"],
      ["trace", "push", "--speed", "-1"], ["list", "extra"], ["hooks", "x"],
      ["matrix", "--plugin", "bar-layer,bar-layer"], ["matrix", "--scenario", "push,push"],
      ["matrix", "--scenario", ","], ["matrix", "--device", "iPhone 8", "--device", "iPhone 8"],
      ["run", "push", "--load", "a.so", "--load", "a.so"], ["trace", "push", "--filter", ""],
      ["trace", "push", "--filter", " "], ["run", " "], ["render", "push", "--out", ""],
      ["run", "push", "--device", ""], ["matrix", "--out", ""],
      ["run", "push", "--ios", "15", "--ios", "17"],
      ["trace", "push", "--speed", "0", "--speed", "0"],
      ["render", "push", "--out", "a", "--out", "b"], ["run", "push", "--plugin", "bar-layer,"],
      ["run", "push", "--device", "iPhone X", "--device", "iPad Air"],
    ] {
      let (code, output) = lab(arguments)
      #expect(code == .usage, "\(arguments)")
      #expect(
        output.standardError.contains("error:") && output.standardError.contains("USAGE"),
        "\(arguments)")
      #expect(output.standardOutput.isEmpty, "\(arguments): errors go to standard error")
    }
    let (code, output) = lab(["run", "nope"])
    #expect(
      code == .usage && output.standardError.contains("ant-forest"), "lists the valid names")
    // Each says what is wrong, not something else.
    #expect(lab(["list", "extra"]).1.standardError.hasPrefix("error: unexpected argument 'extra'"))
    #expect(
      lab(["matrix", "--plugin", "bar-layer,bar-layer"]).1.standardError.hasPrefix(
        "error: --plugin names 'bar-layer' twice"))
    let (empty, emptyOutput) = lab([""])
    #expect(empty == .usage)
    #expect(emptyOutput.standardError.hasPrefix("error: an empty word where a command goes;"))
    #expect(lab(["load", "/nonexistent/libNothing.so"]).0 == .failure)
    let (_, profile) = lab(["run", "push", "--ios", "14"])
    #expect(
      profile.standardError.contains(
        "no iOS profile '14'; profiles: 10, 11, 12, 13, 15/sdk14, 15, 17, 18, 26"))
    // The linked SDK: older than the running version runs, newer is refused with one line.
    let (linked, older) = lab(["run", "push", "--ios", "15", "--sdk", "14", "--no-color"])
    #expect(linked == .ok && older.standardOutput.contains("iOS 15.0, iOS 14.0 SDK,"))
    let (newer, refused) = lab(["run", "push", "--ios", "15", "--sdk", "16"])
    #expect(newer == .usage)
    #expect(
      refused.standardError.hasPrefix("error: --sdk 16.0 is newer than the running iOS 15.0\n"))
    #expect(lab(["run", "push", "--sdk", "fourteen"]).0 == .usage)
    let (variant, named) = lab(["run", "push", "--ios", "15/sdk14", "--no-color"])
    #expect(variant == .ok && named.standardOutput.contains("iOS 15.0, iOS 14.0 SDK,"))
    let (exact, version) = lab(["run", "push", "--ios", "14.2", "--no-color"])
    #expect(exact == .ok && version.standardOutput.contains("iOS 14.2"), "an exact version runs")
  }

  @Test("the hook map of the bar-layer plugin")
  func hooks() {
    let (code, output) = lab(["hooks", "--plugin", "bar-layer"])
    #expect(code == .ok)
    #expect(
      output.standardOutput.contains("-[UINavigationController pushViewController:animated:]"))
    #expect(output.standardOutput.contains("instead of hook [bar-layer]"))
    PluginRegistry.shared.uninstall("bar-layer")
  }

  @Test("hooks --scenario runs it and lists the hooks no call reached: the tour never pops")
  func hooksNeverFired() {
    func installed() -> [String] {
      PluginRegistry.shared.plugins.filter(\.isInstalled).map(\.name).sorted()
    }
    let before = installed()
    let (code, output) = lab(["hooks", "--scenario", "tour"])
    #expect(code == .ok)
    let text = output.standardOutput
    #expect(text.hasPrefix("ran tour with bar-layer\n"))
    let never = text.components(separatedBy: "never fired in this run:\n").last ?? ""
    #expect(
      never.contains("-[UINavigationController popViewControllerAnimated:]: instead of hook"))
    #expect(!never.contains("pushViewController:animated:"), "the tour pushes")
    #expect(installed() == before, "the plugins it installed are uninstalled after")
    #expect(lab(["hooks", "--scenario", "tour,push"]).0 == .usage)
    #expect(lab(["hooks", "--scenario", "nope"]).0 == .usage)
  }

  @Test("shadows lists the methods of a file's extensions that never run, and exits with 1")
  func shadows() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("swizzlekit-shadows-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let seed = directory.appendingPathComponent("Seed.swift")
    try """
    import UIKit

    extension UINavigationController {
      public func navigationBar(_ navigationBar: UINavigationBar, shouldPop item: UINavigationItem)
        -> Bool { true }
      var navBarBgAlpha: CGFloat { 1 }
    }
    """.write(to: seed, atomically: true, encoding: .utf8)
    let clean = directory.appendingPathComponent("Clean.swift")
    try "extension UIView { func fadeOut() {} }\n".write(
      to: clean, atomically: true, encoding: .utf8)

    let (code, output) = lab(["shadows", seed.path, clean.path])
    #expect(code == .failure)
    #expect(
      output.standardOutput == """
        \(seed.path):4: UINavigationController.navigationBar(_:shouldPop:) never runs: sends of \
        -[UINavigationController navigationBar:shouldPopItem:] reach the runtime's table, not \
        this Swift method; hook or replace the selector instead (Docs/Porting.md, section 5)
        1 Swift method of 2 files never runs

        """)
    let (cleanCode, cleanOutput) = lab(["shadows", clean.path])
    #expect(cleanCode == .ok)
    #expect(cleanOutput.standardOutput.hasPrefix("no Swift method of 1 file shadows"))
    #expect(lab(["shadows"]).0 == .usage)
    #expect(lab(["shadows", "--plugin", "x"]).0 == .usage)
    let (missing, missingOutput) = lab(["shadows", directory.appendingPathComponent("none").path])
    #expect(missing == .failure && missingOutput.standardError.hasPrefix("error: cannot read"))
    // A device is not a source file: refused, and the other files are still read.
    let (device, deviceOutput) = lab(["shadows", "/dev/zero", clean.path])
    #expect(device == .failure)
    #expect(deviceOutput.standardError == "error: cannot read /dev/zero: not a regular file\n")
    #expect(deviceOutput.standardOutput.hasPrefix("no Swift method of 1 file shadows"))
  }

  @Test("matrix counts an unexpected failure and an unexpected pass as failures, and exits 1")
  func matrixSurprises() {
    func scenario(_ name: String, holds: Bool, knownToFail: Bool) -> Scenario {
      Scenario(name: name, summary: "a check that is \(holds ? "held" : "not held")") { context in
        _ = context.start(root: UIViewController())
        context.expect(holds, "the check", failsOn: knownToFail ? ["13"] : [])
      }
    }
    let cases: [(Scenario, String)] = [
      (scenario("holds", holds: true, knownToFail: false), "ok"),
      (scenario("fails-as-known", holds: false, knownToFail: true), "xfail"),
      (scenario("fails", holds: false, knownToFail: false), "FAIL"),
      (scenario("passes-though-known-to-fail", holds: true, knownToFail: true), "FAIL"),
    ]
    for (scenario, mark) in cases {
      UIApplication.resetModel()
      let cell = MatrixCommand.run(
        scenario, device: .iPhone8, profile: .ios13, Options(), sampling: false)
      #expect(cell.outcome.mark == mark, "\(scenario.name)")
      // The exit code is 1 exactly when a cell is a failure.
      #expect(cell.outcome.isFailure == (mark == "FAIL"), "\(scenario.name)")
    }
  }
}
