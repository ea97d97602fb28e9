// `render`: an HTML report (a filmstrip of SVG frames and SVG plots, self-contained) and the same
// data as JSON.
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
      for (index, moment) in data.moments.enumerated() {
        try frame(
          moment, device: options.device, systemVersion: options.systemVersion, standalone: true
        ).write(
          to: folder.appendingPathComponent("frame-\(index + 1).svg"), atomically: true,
          encoding: .utf8)
      }
    } catch {
      throw .failure("could not write the report to \(directory): \(error)")
    }
    output.out(
      "wrote \(directory)/report.html, report.json and \(data.moments.count) frames"
        + " (\(data.samples.count) samples)\n")
    return .ok
  }

  static func sample(_ bar: NavigationBarAppearance, time: TimeInterval, transitioning: Bool)
    -> BarSample
  {
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
      transitioning: transitioning)
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
          transitioning: navigation.isTransitioning))
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
      alpha: rounded(view.alpha))
  }

  static func json(_ data: ReportData) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(data), as: UTF8.self) + "\n"
  }

  private static func rgb(_ components: [Double]) -> String {
    let values = components.prefix(3).map { Int((max(0, min(1, $0)) * 255).rounded()) }
    return "rgb(\(values[0]),\(values[1]),\(values[2]))"
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// One frame of the filmstrip: status bar, bar and content, 1/3 scale.
  static func frame(
    _ moment: ReportMoment, device: DeviceProfile, systemVersion: String, standalone: Bool
  ) -> String {
    let width = Double(device.screenSize.width) / 3
    let height = Double(device.screenSize.height) / 3
    let status = Double(device.statusBarHeight) / 3
    let bar = Double(UINavigationBar.height(on: device, systemVersion: systemVersion)) / 3
    let offset = moment.sample.offset / 3
    let sample = moment.sample
    let statusInk = sample.statusBar == "light" ? "#ffffff" : "#000000"
    let namespace = standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : ""
    return """
      <svg\(namespace) width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(width) \(height)">
      <rect x="0" y="0" width="\(width)" height="\(height)" fill="\(rgb([0.2, 0.6, 0.3]))"/>
      \(content(moment, width: width, height: height, top: status + bar + offset))
      <rect x="0" y="\(offset)" width="\(width)" height="\(status + bar)" fill="\(rgb(sample.background))"/>
      \(sample.statusArea.map { "<rect x=\"0\" y=\"\(offset)\" width=\"\(width)\" height=\"\(status)\" fill=\"\(rgb($0))\"/>" } ?? "")
      <text x="4" y="\(status - 1.5)" font-size="5" fill="\(statusInk)">9:41</text>
      <text x="\(width / 2)" y="\(status + bar / 2 + 2 + offset)" font-size="6" text-anchor="middle" fill="\(rgb(sample.title))" fill-opacity="\(sample.title[3])">\(escape(moment.name))</text>
      <text x="4" y="\(status + bar / 2 + 2 + offset)" font-size="6" fill="\(rgb(sample.tint))">&lt; Back</text>
      </svg>
      """
  }

  /// The colour a page without a background colour is drawn in.
  static let pageColor = "#f4f4f4"

  /// What is under the bar: the container's views where they are drawn (a page sliding in, a
  /// mask over another), in the page colour or their own, or one page below the bar when the
  /// moment has none.
  static func content(_ moment: ReportMoment, width: Double, height: Double, top: Double)
    -> String
  {
    guard let views = moment.views, !views.isEmpty else {
      return
        "<rect x=\"0\" y=\"\(top)\" width=\"\(width)\" height=\"\(height - top)\" fill=\"#f4f4f4\"/>"
    }
    // Below the bar only: what shows through the bar is the scenario's backdrop, which the
    // bar's colour was composited over.
    return views.map { view in
      let fill = view.color.map { rgb($0) } ?? pageColor
      let opacity = (view.color?[3] ?? 1) * view.alpha
      let y = max(view.y / 3, top)
      let visible = max(0, view.y / 3 + view.height / 3 - y)
      return
        "<rect x=\"\(view.x / 3)\" y=\"\(y)\" width=\"\(view.width / 3)\" height=\"\(visible)\" fill=\"\(fill)\" fill-opacity=\"\(opacity)\" stroke=\"#999999\" stroke-width=\"0.3\"/>"
    }.joined(separator: "\n")
  }

  /// A plot of `series` (values from 0 to 1) against time, transitions shaded.
  static func plot(
    title: String, samples: [BarSample], series: [(String, String, (BarSample) -> Double)]
  ) -> String {
    let width = 560.0
    let height = 120.0
    let end = max(samples.last?.time ?? 1, 0.001)
    func x(_ time: Double) -> Double { time / end * width }
    func y(_ value: Double) -> Double { height - max(0, min(1, value)) * height }
    var parts: [String] = []
    var start: Double?
    for sample in samples {
      if sample.transitioning, start == nil { start = sample.time }
      if !sample.transitioning, let begin = start {
        parts.append(
          "<rect x=\"\(x(begin))\" y=\"0\" width=\"\(x(sample.time) - x(begin))\" height=\"\(height)\" fill=\"#dddddd\"/>"
        )
        start = nil
      }
    }
    for (name, color, value) in series {
      let points = samples.map { "\(x($0.time)),\(y(value($0)))" }.joined(separator: " ")
      parts.append(
        "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(points)\"><title>\(escape(name))</title></polyline>"
      )
    }
    return """
      <h3>\(escape(title))</h3>
      <svg width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(width) \(height)">
      <rect x="0" y="0" width="\(width)" height="\(height)" fill="#ffffff" stroke="#999999"/>
      \(parts.joined(separator: "\n"))
      </svg>
      """
  }

  static func html(_ data: ReportData) -> String {
    let device = DeviceProfile(rawValue: data.device) ?? .iPhone8
    let frames = data.moments.map { moment in
      "<figure>\(frame(moment, device: device, systemVersion: data.systemVersion, standalone: false))<figcaption>\(escape(moment.name))<br/>\(String(format: "%.3f", moment.time)) s</figcaption></figure>"
    }.joined(separator: "\n")
    let plots = [
      plot(
        title: "Background opacity", samples: data.samples,
        series: [("opacity", "#333333", { $0.opacity })]),
      plot(
        title: "Background colour (red, green, blue)", samples: data.samples,
        series: [
          ("red", "#d33", { $0.background[0] }), ("green", "#3a3", { $0.background[1] }),
          ("blue", "#33d", { $0.background[2] }),
        ]),
      plot(
        title: "Tint (red, green, blue)", samples: data.samples,
        series: [
          ("red", "#d33", { $0.tint[0] }), ("green", "#3a3", { $0.tint[1] }),
          ("blue", "#33d", { $0.tint[2] }),
        ]),
      plot(
        title: "Title colour (red, green, blue)", samples: data.samples,
        series: [
          ("red", "#d33", { $0.title[0] }), ("green", "#3a3", { $0.title[1] }),
          ("blue", "#33d", { $0.title[2] }),
        ]),
    ].joined(separator: "\n")
    return """
      <!DOCTYPE html>
      <html><head><meta charset="utf-8"/><title>swizzle-lab: \(escape(data.scenario))</title>
      <style>body{font-family:sans-serif;margin:2em}figure{display:inline-block;margin:0 8px 12px 0;text-align:center;font-size:11px}</style>
      </head><body>
      <h1>\(escape(data.scenario))</h1>
      <p>\(escape(data.summary)). \(escape(data.device)), iOS \(escape(data.systemVersion)). Grey bands: transitions.</p>
      <h2>Filmstrip</h2>
      \(frames)
      <h2>Plots</h2>
      \(plots)
      </body></html>

      """
  }
}
