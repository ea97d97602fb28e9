// `render`: an HTML report (a filmstrip of frames that draw the screen, a scrubber through every
// frame, plots with axes), the same data as JSON, and each moment's frame as SVG and PNG. This
// file collects the data; Render+Frames, Render+Plots and Render+Page draw it.
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import ScreenRendering
import UIKitModel

/// A named moment in the report.
struct ReportMoment: Codable, Equatable {
  var name: String
  var time: Double
  var sample: ScreenSample
  /// The views under the bar (absent for reports made before they were drawn).
  var views: [ViewSample]?
}

/// The report's data, as written to report.json.
struct ReportData: Codable, Equatable {
  var scenario: String
  var summary: String
  var device: String
  var systemVersion: String
  var moments: [ReportMoment]
  var samples: [ScreenSample]
}

enum RenderCommand {
  /// The scale of the report's SVG frames: half the screen's points, large enough to read.
  static let frameScale = 0.5

  /// `text` escaped for HTML.
  static func escape(_ text: String) -> String { ScreenFrame.escape(text) }

  /// The frame of `sample` in the report, titled `title`.
  static func frame(
    _ sample: ScreenSample, views: [ViewSample]?, title: String, device: DeviceProfile,
    systemVersion: String
  ) -> ScreenFrame {
    var sample = sample
    if let views { sample.views = views }
    return ScreenFrame(sample: sample, device: device, systemVersion: systemVersion, title: title)
  }

  @MainActor static func run(_ options: Options, output: LabOutput) throws(LabError) -> LabExit {
    guard let directory = options.outDirectory else {
      throw .usage("render needs --out DIR", topic: "render")
    }
    let data = try collect(options)
    let folder = URL(fileURLWithPath: directory)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try json(data).write(
        to: folder.appendingPathComponent("report.json"), atomically: true, encoding: .utf8)
      try html(data).write(
        to: folder.appendingPathComponent("report.html"), atomically: true, encoding: .utf8)
      // Each moment's frame, drawn once, written as SVG and as PNG.
      for (index, moment) in data.moments.enumerated() {
        let frame = frame(
          moment.sample, views: moment.views, title: moment.name, device: options.device,
          systemVersion: options.systemVersion)
        try frame.svg(scale: frameScale, standalone: true).write(
          to: folder.appendingPathComponent("frame-\(index + 1).svg"), atomically: true,
          encoding: .utf8)
        try frame.image().write(to: folder.appendingPathComponent("frame-\(index + 1).png").path)
      }
    } catch let error as LabError {
      throw error
    } catch {
      throw .failure("could not write the report to \(directory): \(error)")
    }
    output.out(
      "wrote \(directory)/report.html, report.json and \(data.moments.count) frames as SVG and"
        + " PNG (\(data.samples.count) samples)\n")
    return .ok
  }

  /// Runs the scenario, sampling the bar at every frame.
  @MainActor static func collect(_ options: Options) throws(LabError) -> ReportData {
    guard let scenario = ScenarioCatalog.named(options.scenario ?? "tour") else {
      throw .usage("no scenario", topic: "render")
    }
    do {
      return try collect(scenario, options.scenarioOptions).data
    } catch {
      throw .failure(error.description)
    }
  }

  /// Runs `scenario` with `options`, sampling the bar at every frame: the report's data, and
  /// the outcome of the scenario's checks (the matrix reads both from one run).
  @MainActor static func collect(_ scenario: Scenario, _ options: ScenarioOptions)
    throws(PluginError) -> (data: ReportData, report: ScenarioReport)
  {
    var samples: [ScreenSample] = []
    let observer = VirtualRunLoop.main.addFrameObserver { time in
      if let (sample, _) = ScreenSample.current(at: time) { samples.append(sample) }
    }
    defer { VirtualRunLoop.main.removeFrameObserver(observer) }
    let report = try scenario.check(options: options)
    let data = ReportData(
      scenario: scenario.name, summary: scenario.summary, device: options.device.rawValue,
      systemVersion: options.systemVersion,
      moments: report.moments.map {
        ReportMoment(
          name: $0.name, time: ($0.time * 10_000).rounded() / 10_000,
          sample: ScreenSample(
            $0.seenBar, time: $0.time, transitioning: false, tabBar: $0.seenTabBar,
            sheet: $0.sheetFrame),
          views: $0.views.isEmpty ? nil : $0.views.map(ViewSample.init))
      }, samples: samples)
    return (data, report)
  }

  static func json(_ data: ReportData) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(data), as: UTF8.self) + "\n"
  }

}
