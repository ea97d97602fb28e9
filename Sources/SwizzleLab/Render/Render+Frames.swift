// A frame of the report: the screen as the user sees it (the pages under the bar where they are
// drawn, both during a transition; the bar composited whole, moved by its translation; the status
// bar), as shapes drawn once and written as SVG or rasterized to PNG.
import Foundation
import Scenarios
import UIKitModel

/// One shape of a frame, in points of the device's screen.
enum FrameShape: Equatable {
  /// A rectangle in `color` (components 0 to 1, alpha included) at `opacity`; `outlined` draws
  /// a hairline around it (a page's edge).
  case rect(
    x: Double, y: Double, width: Double, height: Double, color: [Double], opacity: Double,
    outlined: Bool)
  /// A line of text whose baseline starts at (`x`, `y`), or centres there when `centered`.
  case text(
    x: Double, y: Double, size: Double, text: String, color: [Double], opacity: Double,
    centered: Bool)
}

extension RenderCommand {
  /// The scale of the report's SVG frames: half the screen's points, large enough to read.
  static let frameScale = 0.5

  /// The colour a page without a background colour is drawn in.
  static let pageColor: [Double] = [0.957, 0.957, 0.957, 1]

  /// The shapes of a frame: the backdrop, the views under the bar (below it; what shows through
  /// the bar is the backdrop its colour was composited over), the bar, the status bar's strip,
  /// the time, the back button and `title`.
  static func frameShapes(
    _ sample: BarSample, views: [ViewSample]?, title: String, device: DeviceProfile,
    systemVersion: String
  ) -> [FrameShape] {
    let width = Double(device.screenSize.width)
    let height = Double(device.screenSize.height)
    let status = Double(device.statusBarHeight)
    let bar = Double(UINavigationBar.height(on: device, systemVersion: systemVersion))
    let offset = sample.offset
    let top = max(0, status + bar + offset)
    let backdrop = UIColorComponents(scenarioBackdrop)
    var shapes: [FrameShape] = [
      .rect(
        x: 0, y: 0, width: width, height: height,
        color: [backdrop.red, backdrop.green, backdrop.blue, 1].map(Double.init), opacity: 1,
        outlined: false)
    ]
    if let views, !views.isEmpty {
      for view in views { shapes += viewShapes(view, below: top, page: true) }
    } else {
      shapes.append(
        .rect(
          x: 0, y: top, width: width, height: height - top, color: pageColor, opacity: 1,
          outlined: false))
    }
    shapes.append(
      .rect(
        x: 0, y: offset, width: width, height: status + bar, color: sample.background,
        opacity: 1, outlined: false))
    if let area = sample.statusArea {
      shapes.append(
        .rect(
          x: 0, y: offset, width: width, height: status, color: area, opacity: 1,
          outlined: false))
    }
    let ink: [Double] = sample.statusBar == "lightContent" ? [1, 1, 1, 1] : [0, 0, 0, 1]
    let middle = offset + status + bar / 2 + 5
    shapes += [
      .text(x: 12, y: status - 5, size: 12, text: "9:41", color: ink, opacity: 1, centered: false),
      .text(
        x: 10, y: middle, size: 15, text: "< Back", color: sample.tint, opacity: 1,
        centered: false),
      .text(
        x: width / 2, y: middle, size: 15, text: title, color: sample.title,
        opacity: sample.title.count > 3 ? sample.title[3] : 1, centered: true),
    ]
    return shapes
  }

  /// A view and the views inside it, below `top`: a page without a colour of its own in the
  /// page colour, a view inside one without a colour not drawn (its own subviews are). A view's
  /// alpha is its opacity as drawn, its ancestors' included.
  private static func viewShapes(_ view: ViewSample, below top: Double, page: Bool)
    -> [FrameShape]
  {
    var shapes: [FrameShape] = []
    let y = max(view.y, top)
    let visible = view.y + view.height - y
    if visible > 0, view.width > 0, view.color != nil || page {
      shapes.append(
        .rect(
          x: view.x, y: y, width: view.width, height: visible, color: view.color ?? pageColor,
          opacity: view.alpha, outlined: page))
    }
    for inner in view.subviews ?? [] {
      shapes += viewShapes(inner, below: top, page: false)
    }
    return shapes
  }

  /// The shapes as an SVG element, `scale` pixels a point; `standalone` for a file of its own
  /// (with the namespace), `attributes` added to the root element.
  static func svg(
    _ shapes: [FrameShape], device: DeviceProfile, scale: Double, standalone: Bool,
    attributes: String = ""
  ) -> String {
    let width = Double(device.screenSize.width) * scale
    let height = Double(device.screenSize.height) * scale
    func number(_ value: Double) -> String { String(format: "%.2f", value * scale) }
    func opacity(_ color: [Double], _ extra: Double) -> String {
      String(format: "%.3f", (color.count > 3 ? color[3] : 1) * extra)
    }
    let body = shapes.map { shape -> String in
      switch shape {
      case .rect(let x, let y, let w, let h, let color, let alpha, let outlined):
        return
          "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(w))\" height=\"\(number(h))\" fill=\"\(rgb(color))\" fill-opacity=\"\(opacity(color, alpha))\""
          + (outlined ? " stroke=\"#999999\" stroke-width=\"0.5\"" : "") + "/>"
      case .text(let x, let y, let size, let text, let color, let alpha, let centered):
        return
          "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(number(size))\" fill=\"\(rgb(color))\" fill-opacity=\"\(opacity(color, alpha))\""
          + (centered ? " text-anchor=\"middle\"" : "") + ">\(escape(text))</text>"
      }
    }.joined(separator: "\n")
    let namespace = standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : ""
    return """
      <svg\(namespace) width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(width) \(height)"\(attributes)>
      \(body)
      </svg>
      """
  }

  /// The shapes rasterized at one pixel a point. Text becomes a bar of its colour as long as
  /// the text would be (a PNG is for documents, where the filmstrip's captions say the rest).
  static func png(_ shapes: [FrameShape], device: DeviceProfile) -> PNGImage {
    var image = PNGImage(
      width: Int(device.screenSize.width), height: Int(device.screenSize.height))
    for shape in shapes {
      switch shape {
      case .rect(let x, let y, let w, let h, let color, let alpha, _):
        image.fill(x: x, y: y, width: w, height: h, color: color, opacity: alpha)
      case .text(let x, let y, let size, let text, let color, let alpha, let centered):
        let length = Double(text.count) * size * 0.55
        image.fill(
          x: centered ? x - length / 2 : x, y: y - size * 0.7, width: length,
          height: size * 0.7, color: color, opacity: alpha)
      }
    }
    return image
  }

  /// `rgb(r,g,b)` for SVG.
  static func rgb(_ components: [Double]) -> String {
    let values = (0..<3).map { index in
      Int((max(0, min(1, index < components.count ? components[index] : 0)) * 255).rounded())
    }
    return "rgb(\(values[0]),\(values[1]),\(values[2]))"
  }

  /// `text` escaped for HTML and XML.
  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
