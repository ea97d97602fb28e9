// The report's page: the named moments as a filmstrip, a scrubber through every frame (a slider
// and a few lines of plain JavaScript in the page; nothing is fetched), and the plots.
import Foundation
import ScreenRendering
import UIKitModel

extension RenderCommand {
  /// The report as one self-contained HTML page; `scrubber` adds a frame for every sample and
  /// the slider that shows them (the matrix's per-cell reports leave it out, to stay small).
  static func html(_ data: ReportData, scrubber: Bool = true) -> String {
    let device = DeviceProfile(rawValue: data.device) ?? .iPhone8
    func shapes(_ sample: ScreenSample, _ views: [ViewSample]?, _ title: String) -> ScreenFrame {
      frame(sample, views: views, title: title, device: device, systemVersion: data.systemVersion)
    }
    let frames = data.moments.map { moment in
      "<figure>"
        + shapes(moment.sample, moment.views, moment.name).svg(
          scale: frameScale, standalone: false)
        + "<figcaption>\(escape(moment.name))<br/>\(String(format: "%.3f", moment.time)) s"
        + "</figcaption></figure>"
    }.joined(separator: "\n")
    let plots = [
      plot(
        title: "Background opacity", unit: "opacity", samples: data.samples,
        series: [("opacity", "#333333", { $0.opacity })]),
      plot(
        title: "Background colour", unit: "component", samples: data.samples,
        series: [
          ("red", "#d33", { $0.background[0] }), ("green", "#3a3", { $0.background[1] }),
          ("blue", "#33d", { $0.background[2] }),
        ]),
      plot(
        title: "Tint", unit: "component", samples: data.samples,
        series: [
          ("red", "#d33", { $0.tint[0] }), ("green", "#3a3", { $0.tint[1] }),
          ("blue", "#33d", { $0.tint[2] }),
        ]),
      plot(
        title: "Title colour", unit: "component", samples: data.samples,
        series: [
          ("red", "#d33", { $0.title[0] }), ("green", "#3a3", { $0.title[1] }),
          ("blue", "#33d", { $0.title[2] }),
        ]),
    ].joined(separator: "\n")
    let scrub =
      scrubber && !data.samples.isEmpty
      ? """
      <h2>Every frame</h2>
      <p><input type="range" id="scrub" min="0" max="\(data.samples.count - 1)" value="0" step="1" style="width:560px"/> <span id="scrub-time"></span></p>
      <div id="scrub-frames">
      \(data.samples.enumerated().map { index, sample in
          shapes(sample, sample.views, sample.transitioning ? "(transition)" : "").svg(
            scale: frameScale, standalone: false,
            attributes: " data-time=\"\(String(format: "%.3f", sample.time))\""
              + (index == 0 ? "" : " style=\"display:none\""))
        }.joined(separator: "\n"))
      </div>
      <script>
      \(scrubberScript)
      </script>
      """ : ""
    return """
      <!DOCTYPE html>
      <html><head><meta charset="utf-8"/><title>swizzle-lab: \(escape(data.scenario))</title>
      <style>body{font-family:sans-serif;margin:2em}figure{display:inline-block;margin:0 10px 14px 0;text-align:center;font-size:12px}</style>
      </head><body>
      <h1>\(escape(data.scenario))</h1>
      <p>\(escape(data.summary)). \(escape(data.device)), iOS \(escape(data.systemVersion)). Grey bands in the plots: transitions.</p>
      <h2>Filmstrip</h2>
      \(frames)
      \(scrub)
      <h2>Plots</h2>
      \(plots)
      </body></html>

      """
  }

  /// The slider's script: shows the frame the slider is on and its time, hides the others.
  static let scrubberScript = """
    (function () {
      var slider = document.getElementById("scrub");
      var label = document.getElementById("scrub-time");
      var frames = document.querySelectorAll("#scrub-frames > svg");
      function show(index) {
        for (var i = 0; i < frames.length; i++) {
          frames[i].style.display = i === index ? "" : "none";
        }
        label.textContent = frames[index].getAttribute("data-time") + " s";
      }
      slider.addEventListener("input", function () { show(Number(slider.value)); });
      show(0);
    })();
    """
}
