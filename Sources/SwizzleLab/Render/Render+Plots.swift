// The report's plots: values from 0 to 1 against time, with axes, ticks, units and a legend,
// transitions shaded.
import Foundation
import ScreenRendering

extension RenderCommand {
  /// A plot of `series` (name, colour, value from 0 to 1) against the samples' time.
  static func plot(
    title: String, unit: String, samples: [ScreenSample],
    series: [(String, String, (ScreenSample) -> Double)]
  ) -> String {
    let left = 44.0
    let right = 16.0
    let top = 12.0
    let bottom = 34.0
    let width = 560.0
    let height = 150.0
    let end = max(samples.last?.time ?? 1, 0.001)
    func x(_ time: Double) -> Double { left + time / end * width }
    func y(_ value: Double) -> Double { top + height - max(0, min(1, value)) * height }
    func number(_ value: Double) -> String { String(format: "%.1f", value) }
    var parts: [String] = []
    // Transitions, shaded.
    var start: Double?
    for sample in samples + [ScreenSample.end(after: samples.last)] {
      if sample.transitioning, start == nil { start = sample.time }
      if !sample.transitioning, let begin = start {
        parts.append(
          "<rect x=\"\(number(x(begin)))\" y=\"\(number(top))\" width=\"\(number(x(sample.time) - x(begin)))\" height=\"\(number(height))\" fill=\"#e4e4e4\"/>"
        )
        start = nil
      }
    }
    // The value axis: 0, 0.5 and 1, with grid lines.
    for value in [0.0, 0.25, 0.5, 0.75, 1.0] {
      parts.append(
        "<line x1=\"\(number(left))\" y1=\"\(number(y(value)))\" x2=\"\(number(left + width))\" y2=\"\(number(y(value)))\" stroke=\"#eeeeee\"/>"
      )
      parts.append(
        "<text x=\"\(number(left - 6))\" y=\"\(number(y(value) + 4))\" font-size=\"10\" text-anchor=\"end\">\(String(format: "%.2g", value))</text>"
      )
    }
    // The time axis: a tick at each step that gives four to ten ticks.
    let step = [0.05, 0.1, 0.25, 0.5, 1, 2, 5].first { end / $0 <= 10 } ?? 10
    var tick = 0.0
    while tick <= end + 1e-9 {
      parts.append(
        "<line x1=\"\(number(x(tick)))\" y1=\"\(number(top + height))\" x2=\"\(number(x(tick)))\" y2=\"\(number(top + height + 4))\" stroke=\"#333333\"/>"
      )
      parts.append(
        "<text x=\"\(number(x(tick)))\" y=\"\(number(top + height + 15))\" font-size=\"10\" text-anchor=\"middle\">\(String(format: step < 0.1 ? "%.2f" : (step < 1 ? "%.2g" : "%.0f"), tick))</text>"
      )
      tick += step
    }
    parts.append(
      "<line x1=\"\(number(left))\" y1=\"\(number(top))\" x2=\"\(number(left))\" y2=\"\(number(top + height))\" stroke=\"#333333\"/>"
    )
    parts.append(
      "<line x1=\"\(number(left))\" y1=\"\(number(top + height))\" x2=\"\(number(left + width))\" y2=\"\(number(top + height))\" stroke=\"#333333\"/>"
    )
    parts.append(
      "<text x=\"\(number(left + width / 2))\" y=\"\(number(top + height + 30))\" font-size=\"11\" text-anchor=\"middle\">time (s)</text>"
    )
    parts.append(
      "<text x=\"12\" y=\"\(number(top + height / 2))\" font-size=\"11\" text-anchor=\"middle\" transform=\"rotate(-90 12 \(number(top + height / 2)))\">\(escape(unit))</text>"
    )
    for (name, color, value) in series {
      let points = samples.map { "\(number(x($0.time))),\(number(y(value($0))))" }
        .joined(separator: " ")
      parts.append(
        "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(points)\"><title>\(escape(name))</title></polyline>"
      )
    }
    // The legend, above the plot's top right corner.
    for (index, (name, color, _)) in series.enumerated() {
      let legendX = left + width - Double(series.count - index) * 70
      parts.append(
        "<rect x=\"\(number(legendX))\" y=\"\(number(top + 4))\" width=\"10\" height=\"3\" fill=\"\(color)\"/>"
      )
      parts.append(
        "<text x=\"\(number(legendX + 14))\" y=\"\(number(top + 9))\" font-size=\"10\">\(escape(name))</text>"
      )
    }
    let totalWidth = left + width + right
    let totalHeight = top + height + bottom
    return """
      <h3>\(escape(title))</h3>
      <svg width="\(Int(totalWidth))" height="\(Int(totalHeight))" viewBox="0 0 \(totalWidth) \(totalHeight)" font-family="sans-serif">
      \(parts.joined(separator: "\n"))
      </svg>
      """
  }
}

extension ScreenSample {
  /// A sample after `last` that ends any transition under way, so that its band is shaded to
  /// the plot's end.
  fileprivate static func end(after last: ScreenSample?) -> ScreenSample {
    ScreenSample(
      time: last?.time ?? 0, background: [], opacity: 0, tint: [], title: [], statusBar: "")
  }
}
