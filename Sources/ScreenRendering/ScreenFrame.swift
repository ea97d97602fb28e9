// A frame of the screen as the user sees it (the pages under the bar where they are drawn, both
// during a transition; the bar composited whole, moved by its translation; the status bar), as
// shapes drawn once and written as SVG or rasterized.
public import Foundation
public import Scenarios
public import UIKitModel

/// One shape of a frame, in points of the device's screen.
public enum FrameShape: Equatable, Sendable {
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

/// The screen at one frame, on a device: what ``ScreenSample`` holds, drawn.
///
/// ```swift
/// let frame = ScreenFrame(moment: moments[0], options: options)
/// try frame.image(scale: 2).write(to: "/tmp/start.png")
/// ```
public struct ScreenFrame: Equatable, Sendable {
  /// What the bar and the views showed.
  public var sample: ScreenSample
  /// The device, whose screen and status bar set the frame's size.
  public var device: DeviceProfile
  /// The system version, which sets the bar's height.
  public var systemVersion: String
  /// The SDK the application was built with (nil: the system version's); snapshots name it.
  public var sdkVersion: String?
  /// The text drawn as the bar's title (a PNG draws text as a bar of its colour as long as the
  /// text).
  public var title: String

  /// The colour a page without a background colour is drawn in.
  public static let pageColor: [Double] = [0.957, 0.957, 0.957, 1]

  /// A frame of `sample` on `device` running `systemVersion` (with an application built with
  /// `sdkVersion`), titled `title`.
  public init(
    sample: ScreenSample, device: DeviceProfile, systemVersion: String,
    sdkVersion: String? = nil, title: String
  ) {
    self.sample = sample
    self.device = device
    self.systemVersion = systemVersion
    self.sdkVersion = sdkVersion
    self.title = title
  }

  /// The frame of a scenario's `moment` on the options' device and version, titled with the
  /// moment's name unless `title` is given (as the lab's report draws it).
  public init(moment: ScenarioMoment, options: ScenarioOptions, title: String? = nil) {
    self.init(
      sample: ScreenSample(
        moment.seenBar, time: moment.time, transitioning: false,
        views: moment.views.isEmpty ? nil : moment.views, tabBar: moment.seenTabBar,
        sheet: moment.sheetFrame),
      device: options.device, systemVersion: options.systemVersion,
      sdkVersion: options.sdkVersion, title: title ?? moment.name)
  }

  /// The screen of the key window's navigation controller (or its tab bar controller's
  /// selected one, with the tab bar) now, its bar composited over `scenarioBackdrop` (of
  /// `Scenarios`), on the model's device and version, titled with the top item's title (or
  /// `title`); nil when the key window shows no navigation controller.
  @MainActor
  public static func current(title: String? = nil) -> ScreenFrame? {
    guard let (sample, navigation) = ScreenSample.current() else { return nil }
    return ScreenFrame(
      sample: sample,
      device: UIScreen.main.profile, systemVersion: UIDevice.current.systemVersion,
      sdkVersion: UIDevice.current.linkedSDKVersion,
      title: title ?? navigation.navigationBar.topItem?.title ?? "")
  }

  /// The frame's size in points.
  public var size: CGSize { device.screenSize }

  /// The shapes of the frame: the backdrop, the views under the bar (below it; what shows
  /// through the bar is the backdrop its colour was composited over), the bar, the status
  /// bar's strip, the time, the back button and the title, and below the row a large title and
  /// a search field while they show (the bar as tall as drawn). A hidden bar draws none of its
  /// parts, and the views show up to the status bar. A sheet's bar is drawn at the sheet's top
  /// with its page below, over a dark window around the sheet (the presenter behind is not
  /// drawn).
  public var shapes: [FrameShape] {
    let sheet = sample.sheet
    // The area the bar and its page fill: the screen, or the sheet.
    let left = sheet?.x ?? 0
    let width = sheet?.width ?? Double(device.screenSize.width)
    let height = sheet.map { $0.y + $0.height } ?? Double(device.screenSize.height)
    let deviceStatus = Double(device.statusBarHeight)
    let status = sheet.map { $0.y } ?? deviceStatus
    let row = Double(UINavigationBar.height(on: device, systemVersion: systemVersion))
    let large = sample.largeTitleHeight ?? 0
    let search = sample.searchBarHeight ?? 0
    let bar = sheet?.barHeight ?? row + max(sample.grownHeight ?? 0, large + search)
    let hidden = sample.hidden == true
    let offset = sample.offset + (sheet?.y ?? 0)
    let top = hidden ? (sheet?.y ?? 0) : max(0, (sheet == nil ? status : 0) + bar + offset)
    let backdrop = UIColorComponents(scenarioBackdrop)
    var shapes: [FrameShape] = [
      .rect(
        x: 0, y: 0, width: Double(device.screenSize.width),
        height: Double(device.screenSize.height),
        color: sheet == nil
          ? [backdrop.red, backdrop.green, backdrop.blue, 1].map(Double.init) : [0, 0, 0, 1],
        opacity: 1, outlined: false)
    ]
    if let sheet {
      shapes.append(
        .rect(
          x: sheet.x, y: sheet.y, width: sheet.width, height: sheet.height,
          color: [backdrop.red, backdrop.green, backdrop.blue, 1].map(Double.init), opacity: 1,
          outlined: true))
    }
    if let views = sample.views, !views.isEmpty {
      for view in views {
        shapes += ScreenFrame.viewShapes(
          view.moved(by: left, sheet?.y ?? 0), below: top, page: true)
      }
    } else {
      shapes.append(
        .rect(
          x: left, y: top, width: width, height: height - top, color: ScreenFrame.pageColor,
          opacity: 1, outlined: false))
    }
    if let tabBar = sample.tabBar {
      shapes += [
        .rect(
          x: tabBar.x, y: tabBar.y, width: tabBar.width, height: tabBar.height,
          color: tabBar.background, opacity: 1, outlined: false),
        .text(
          x: tabBar.x + tabBar.width / 2, y: tabBar.y + 30, size: 11,
          text: tabBar.selected ?? "", color: [0, 0.48, 1, 1], opacity: 1, centered: true),
      ]
    }
    // Over a card's dark surround the time is drawn light, whatever the style.
    let ink: [Double] =
      sample.statusBar == "lightContent" || sheet != nil ? [1, 1, 1, 1] : [0, 0, 0, 1]
    let time = FrameShape.text(
      x: 12, y: deviceStatus - 5, size: 12, text: "9:41", color: ink, opacity: 1,
      centered: false)
    guard !hidden else { return shapes + [time] }
    // A sheet's bar has no status bar's strip above it.
    let strip = sheet == nil ? status : 0
    shapes.append(
      .rect(
        x: left, y: offset, width: width, height: strip + bar, color: sample.background,
        opacity: 1, outlined: false))
    if let area = sample.statusArea, strip > 0 {
      shapes.append(
        .rect(
          x: left, y: offset, width: width, height: strip, color: area, opacity: 1,
          outlined: false))
    }
    // The row's middle: in a sheet the bar's height is the row's and the parts below it.
    let rowHeight = sheet == nil ? row : bar - max(sample.grownHeight ?? 0, large + search)
    let middle = offset + strip + rowHeight / 2 + 5
    shapes += [
      time,
      .text(
        x: left + 10, y: middle, size: 15, text: "< Back", color: sample.tint, opacity: 1,
        centered: false),
      .text(
        x: left + width / 2, y: middle, size: 15, text: title, color: sample.title,
        opacity: sample.title.count > 3 ? sample.title[3] : 1, centered: true),
    ]
    // A large title on the left below the row, while its area has room for its 30-point text
    // (nothing is clipped here), then a search field below it.
    if let color = sample.largeTitle, large >= 36 {
      shapes.append(
        .text(
          x: left + 16, y: offset + strip + rowHeight + large - 10, size: 30, text: title,
          color: color, opacity: color.count > 3 ? color[3] : 1, centered: false))
    }
    if search > 10 {
      let field = min(36, search - 10)
      shapes.append(
        .rect(
          x: left + 8, y: offset + strip + rowHeight + large + search - 10 - field,
          width: width - 16, height: field, color: [0.46, 0.46, 0.5, 1], opacity: 0.12,
          outlined: false))
    }
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

  /// The frame as an SVG element, `scale` pixels a point; `standalone` for a file of its own
  /// (with the namespace), `attributes` added to the root element.
  public func svg(scale: Double, standalone: Bool, attributes: String = "") -> String {
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
          "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(w))\" height=\"\(number(h))\" fill=\"\(ScreenFrame.rgb(color))\" fill-opacity=\"\(opacity(color, alpha))\""
          + (outlined ? " stroke=\"#999999\" stroke-width=\"0.5\"" : "") + "/>"
      case .text(let x, let y, let size, let text, let color, let alpha, let centered):
        return
          "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(number(size))\" fill=\"\(ScreenFrame.rgb(color))\" fill-opacity=\"\(opacity(color, alpha))\""
          + (centered ? " text-anchor=\"middle\"" : "") + ">\(ScreenFrame.escape(text))</text>"
      }
    }.joined(separator: "\n")
    let namespace = standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : ""
    return """
      <svg\(namespace) width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(width) \(height)"\(attributes)>
      \(body)
      </svg>
      """
  }

  /// The largest scale ``image(scale:)`` draws at: 4, past every device's (3x), so that the
  /// largest screen stays within ``RGBAImage/maximumSide``.
  public static let maximumScale = 4

  /// The frame rasterized at `scale` pixels a point (1 to ``maximumScale``; values outside
  /// are clamped). Text becomes a bar of its colour as long as the text would be.
  public func image(scale: Int = 1) -> RGBAImage {
    let factor = Double(min(ScreenFrame.maximumScale, max(1, scale)))
    var image = RGBAImage(
      width: Int(Double(device.screenSize.width) * factor),
      height: Int(Double(device.screenSize.height) * factor))
    for shape in shapes {
      switch shape {
      case .rect(let x, let y, let w, let h, let color, let alpha, _):
        image.fill(
          x: x * factor, y: y * factor, width: w * factor, height: h * factor, color: color,
          opacity: alpha)
      case .text(let x, let y, let size, let text, let color, let alpha, let centered):
        let length = Double(text.count) * size * 0.55
        image.fill(
          x: (centered ? x - length / 2 : x) * factor, y: (y - size * 0.7) * factor,
          width: length * factor, height: size * 0.7 * factor, color: color, opacity: alpha)
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

  /// `text` escaped for HTML and XML (`&`, `<`, `>`, `"`).
  public static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}

extension ViewSample {
  /// The sample moved by (`dx`, `dy`), its subviews with it: from a sheet's coordinates to the
  /// screen's.
  func moved(by dx: Double, _ dy: Double) -> ViewSample {
    guard dx != 0 || dy != 0 else { return self }
    var moved = self
    moved.x += dx
    moved.y += dy
    moved.subviews = subviews?.map { $0.moved(by: dx, dy) }
    return moved
  }
}
