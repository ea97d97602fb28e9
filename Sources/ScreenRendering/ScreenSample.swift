// What the screen showed at one frame, as plain numbers: the bar as the user saw it and the
// views under it. The lab's reports keep these as JSON; the drawing reads them.
public import Scenarios
public import UIKitModel

/// The bar and the views under it at one frame, in plain numbers (colours as four components
/// from 0 to 1, rounded to four places, so that what is kept is stable).
public struct ScreenSample: Codable, Equatable, Sendable {
  /// The virtual time.
  public var time: Double
  /// The bar's background, composited over the backdrop.
  public var background: [Double]
  /// How opaque the bar's background is, 0 to 1.
  public var opacity: Double
  /// The buttons' tint.
  public var tint: [Double]
  /// The title's colour, its alpha the title's opacity.
  public var title: [Double]
  /// The status bar style by UIKit's name for it (`lightContent`).
  public var statusBar: String
  /// The status bar's strip, when it shows another colour than the bar (absent otherwise).
  public var statusArea: [Double]?
  /// The bar's vertical offset.
  public var offset: Double
  /// Whether a transition was under way.
  public var transitioning: Bool
  /// The views under the bar (absent in reports made before they were drawn).
  public var views: [ViewSample]?
  /// True when the bar was hidden (absent when it showed): nothing of it is drawn.
  public var hidden: Bool?
  /// The tab bar, in a session with tabs while it showed (absent otherwise).
  public var tabBar: TabBarSample?
  /// The sheet the bar is in, when it is a sheet's (absent otherwise).
  public var sheet: SheetSample?
  /// How far the bar reaches below its row as drawn (absent for a bar of its row's height).
  public var grownHeight: Double?
  /// The large title's colour while one shows (absent otherwise).
  public var largeTitle: [Double]?
  /// How much of the large title's area shows below the row (absent without one).
  public var largeTitleHeight: Double?
  /// How much of a search bar shows below the row and the large title (absent without one).
  public var searchBarHeight: Double?

  /// A sample of what `bar` showed at `time`, with `views` under it and `tabBar` over them;
  /// `sheet` is where the sheet the bar is in was, for a sheet's bar.
  public init(
    _ bar: SeenBar, time: Double, transitioning: Bool,
    views: [ScenarioViewSnapshot]? = nil, tabBar: SeenTabBar? = nil, sheet: CGRect? = nil
  ) {
    func components(_ color: UIColorComponents) -> [Double] {
      [color.red, color.green, color.blue, color.alpha].map {
        (Double($0) * 10_000).rounded() / 10_000
      }
    }
    self.time = (time * 10_000).rounded() / 10_000
    background = components(bar.backgroundColor)
    opacity = (Double(bar.backgroundOpacity) * 10_000).rounded() / 10_000
    tint = components(bar.tintColor)
    title = components(bar.titleColor)
    statusBar = "\(bar.statusBarStyle)"
    statusArea =
      bar.statusBarAreaColor == bar.backgroundColor ? nil : components(bar.statusBarAreaColor)
    offset = Double(bar.translationY)
    self.transitioning = transitioning
    self.views = views.map { $0.map(ViewSample.init) }
    hidden = bar.isHidden ? true : nil
    self.tabBar = tabBar.flatMap(TabBarSample.init)
    self.sheet = sheet.map { SheetSample($0, barHeight: bar.frame.height) }
    grownHeight = bar.grownHeight > 0 ? Double(bar.grownHeight) : nil
    largeTitle = bar.largeTitleColor.map(components)
    largeTitleHeight = bar.largeTitleHeight > 0 ? Double(bar.largeTitleHeight) : nil
    searchBarHeight = bar.searchBarHeight > 0 ? Double(bar.searchBarHeight) : nil
  }

  /// What the key window shows now: its navigation controller, or its tab bar controller's
  /// selected one with the tab bar, or the top-most navigation controller presented over them
  /// (a sheet's, drawn where the sheet is), the bar composited over `scenarioBackdrop`, sampled
  /// at `time` (the clock's now by default); nil when it shows none.
  @MainActor
  public static func current(at time: TimeInterval = VirtualRunLoop.main.currentTime)
    -> (sample: ScreenSample, navigation: UINavigationController)?
  {
    let root = UIApplication.shared.keyWindow?.rootViewController
    let tabs = root as? UITabBarController
    var front =
      root as? UINavigationController ?? tabs?.selectedViewController as? UINavigationController
    var presented = root?.presentedViewController
    while let controller = presented {
      if let navigation = controller as? UINavigationController { front = navigation }
      presented = controller.presentedViewController
    }
    guard let navigation = front else { return nil }
    let presentation = navigation.activePresentationController
    let sheet = presentation?.isSheet == true ? navigation.viewIfLoaded?.presentationFrame : nil
    let sample = ScreenSample(
      navigation.navigationBar.asSeen(over: scenarioBackdrop),
      time: time, transitioning: navigation.isTransitioning,
      views: ScenarioViewSnapshot.snapshots(of: navigation),
      tabBar: presentation == nil ? tabs?.tabBar.asSeen(over: scenarioBackdrop) : nil,
      sheet: sheet)
    return (sample, navigation)
  }

  /// A sample of the given values.
  public init(
    time: Double, background: [Double], opacity: Double, tint: [Double], title: [Double],
    statusBar: String, statusArea: [Double]? = nil, offset: Double = 0,
    transitioning: Bool = false, views: [ViewSample]? = nil, hidden: Bool? = nil
  ) {
    self.time = time
    self.background = background
    self.opacity = opacity
    self.tint = tint
    self.title = title
    self.statusBar = statusBar
    self.statusArea = statusArea
    self.offset = offset
    self.transitioning = transitioning
    self.views = views
    self.hidden = hidden
  }
}

/// A view under the bar at a moment: its frame in the container, colour and opacity.
public struct ViewSample: Codable, Equatable, Sendable {
  /// The frame's left edge, in the container's points.
  public var x: Double
  /// The frame's top edge.
  public var y: Double
  /// The frame's width.
  public var width: Double
  /// The frame's height.
  public var height: Double
  /// Its background colour, absent when it has none (a page drawn in the page colour).
  public var color: [Double]?
  /// Its opacity as drawn, its ancestors' included.
  public var alpha: Double
  /// The views inside it, back to front, in the container's coordinates (absent when none).
  public var subviews: [ViewSample]?

  /// The sample of `view`, its numbers rounded to two places.
  public init(_ view: ScenarioViewSnapshot) {
    func rounded(_ value: CGFloat) -> Double { (Double(value) * 100).rounded() / 100 }
    x = rounded(view.frame.minX)
    y = rounded(view.frame.minY)
    width = rounded(view.frame.width)
    height = rounded(view.frame.height)
    color = view.color.map { [$0.red, $0.green, $0.blue, $0.alpha].map(rounded) }
    alpha = rounded(view.alpha)
    subviews = view.subviews.isEmpty ? nil : view.subviews.map(ViewSample.init)
  }
}

/// A sheet at one frame, in plain numbers: where it was in the window and how tall its bar was.
public struct SheetSample: Codable, Equatable, Sendable {
  /// Its left edge, in the screen's points.
  public var x: Double
  /// Its top.
  public var y: Double
  /// Its width.
  public var width: Double
  /// Its height.
  public var height: Double
  /// Its navigation bar's height (56 points in a card).
  public var barHeight: Double

  /// The sample of a sheet at `frame` whose bar is `barHeight` tall, rounded to two places.
  public init(_ frame: CGRect, barHeight: CGFloat) {
    func rounded(_ value: CGFloat) -> Double { (Double(value) * 100).rounded() / 100 }
    x = rounded(frame.minX)
    y = rounded(frame.minY)
    width = rounded(frame.width)
    height = rounded(frame.height)
    self.barHeight = rounded(barHeight)
  }
}

/// A tab bar at one frame, in plain numbers: where it was drawn, its background composited over
/// the backdrop, and the selected tab's title.
public struct TabBarSample: Codable, Equatable, Sendable {
  /// Its frame, mid-slide off to a side.
  public var x: Double
  /// Its top.
  public var y: Double
  /// Its width.
  public var width: Double
  /// Its height (the home indicator's inset included).
  public var height: Double
  /// Its background.
  public var background: [Double]
  /// The selected tab's title, if a tab is selected.
  public var selected: String?

  /// The sample of `bar`; nil when it was hidden (nothing of it is drawn).
  public init?(_ bar: SeenTabBar) {
    guard !bar.isHidden else { return nil }
    func rounded(_ value: CGFloat) -> Double { (Double(value) * 100).rounded() / 100 }
    x = rounded(bar.frame.minX)
    y = rounded(bar.frame.minY)
    width = rounded(bar.frame.width)
    height = rounded(bar.frame.height)
    let color = bar.backgroundColor
    background = [color.red, color.green, color.blue, color.alpha].map {
      (Double($0) * 10_000).rounded() / 10_000
    }
    selected = bar.selectedTitle
  }
}
