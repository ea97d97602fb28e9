// `render`: an HTML report (a filmstrip of frames that draw the screen, a scrubber through every
// frame, plots with axes), the same data as JSON, and each moment's frame as SVG and PNG. This
// file collects the data; Render+Frames, Render+Plots and Render+Page draw it.
import Foundation
import Hooks
import ObjCRuntime
import Scenarios
import UIKitModel

/// One sample of the bar, per frame.
struct BarSample: Codable, Equatable {
  var time: Double
  var background: [Double]
  var opacity: Double
  var tint: [Double]
  var title: [Double]
  var statusBar: String
  /// The status bar's strip, when it shows another colour than the bar (absent otherwise).
  var statusArea: [Double]?
  var offset: Double
  var transitioning: Bool
  /// The views under the bar at that frame (absent in reports made before the scrubber).
  var views: [ViewSample]?
}

/// A view under the bar at a moment: its frame in the container, colour and opacity.
struct ViewSample: Codable, Equatable {
  var x: Double
  var y: Double
  var width: Double
  var height: Double
  /// Its background colour, absent when it has none (a page drawn in the page colour).
  var color: [Double]?
  var alpha: Double
  /// The views inside it, back to front, in the container's coordinates (absent when none).
  var subviews: [ViewSample]?
}

/// A named moment in the report.
struct ReportMoment: Codable, Equatable {
  var name: String
  var time: Double
  var sample: BarSample
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
  var samples: [BarSample]
}

enum RenderCommand {
  static func run(_ options: Options, output: LabOutput) throws(LabError) -> LabExit {
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
        let shapes = frameShapes(
          moment.sample, views: moment.views, title: moment.name, device: options.device,
          systemVersion: options.systemVersion)
        try svg(shapes, device: options.device, scale: frameScale, standalone: true).write(
          to: folder.appendingPathComponent("frame-\(index + 1).svg"), atomically: true,
          encoding: .utf8)
        try png(shapes, device: options.device).write(
          to: folder.appendingPathComponent("frame-\(index + 1).png").path)
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

  static func sample(
    _ bar: NavigationBarAppearance, time: TimeInterval, transitioning: Bool,
    views: [ScenarioViewSnapshot]? = nil
  ) -> BarSample {
    func components(_ color: UIColorComponents) -> [Double] {
      [color.red, color.green, color.blue, color.alpha].map {
        (Double($0) * 10_000).rounded() / 10_000
      }
    }
    return BarSample(
      time: (time * 10_000).rounded() / 10_000, background: components(bar.backgroundColor),
      opacity: (Double(bar.backgroundOpacity) * 10_000).rounded() / 10_000,
      tint: components(bar.tintColor), title: components(bar.titleColor),
      statusBar: Format.status(bar.statusBarStyle),
      statusArea: bar.statusBarAreaColor == bar.backgroundColor
        ? nil : components(bar.statusBarAreaColor),
      offset: Double(bar.translationY),
      transitioning: transitioning, views: views.map { $0.map(viewSample) })
  }

  /// Runs the scenario, sampling the bar at every frame.
  static func collect(_ options: Options) throws(LabError) -> ReportData {
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
  static func collect(_ scenario: Scenario, _ options: ScenarioOptions)
    throws(PluginError) -> (data: ReportData, report: ScenarioReport)
  {
    var samples: [BarSample] = []
    let observer = VirtualRunLoop.main.addFrameObserver { time in
      guard
        let navigation = UIApplication.shared.keyWindow?.rootViewController
          as? UINavigationController
      else { return }
      samples.append(
        sample(
          navigation.navigationBar.appearance(over: scenarioBackdrop), time: time,
          transitioning: navigation.isTransitioning,
          views: ScenarioViewSnapshot.snapshots(of: navigation)))
    }
    defer { VirtualRunLoop.main.removeFrameObserver(observer) }
    let report = try scenario.check(options: options)
    let data = ReportData(
      scenario: scenario.name, summary: scenario.summary, device: options.device.rawValue,
      systemVersion: options.systemVersion,
      moments: report.moments.map {
        ReportMoment(
          name: $0.name, time: ($0.time * 10_000).rounded() / 10_000,
          sample: sample($0.appearance, time: $0.time, transitioning: false),
          views: $0.views.isEmpty ? nil : $0.views.map(viewSample))
      }, samples: samples)
    return (data, report)
  }

  static func viewSample(_ view: ScenarioViewSnapshot) -> ViewSample {
    func rounded(_ value: CGFloat) -> Double { (Double(value) * 100).rounded() / 100 }
    return ViewSample(
      x: rounded(view.frame.minX), y: rounded(view.frame.minY), width: rounded(view.frame.width),
      height: rounded(view.frame.height),
      color: view.color.map { [$0.red, $0.green, $0.blue, $0.alpha].map(rounded) },
      alpha: rounded(view.alpha),
      subviews: view.subviews.isEmpty ? nil : view.subviews.map(viewSample))
  }

  static func json(_ data: ReportData) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(data), as: UTF8.self) + "\n"
  }

}
