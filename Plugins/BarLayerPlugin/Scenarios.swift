// The seed's demo screens as scripted scenarios, with what the bar must look like at named
// moments: reusable by the tests, the lab and the harness.
public import Foundation
import Hooks
import ObjCRuntime
public import UIKitModel

/// What the bar looks like at one named moment of a scenario.
public struct BarMoment: Sendable, CustomStringConvertible {
  /// The moment's name (`start`, `past the change point`...).
  public let name: String
  /// The virtual time.
  public let time: TimeInterval
  /// What the user sees.
  public let appearance: NavigationBarAppearance

  /// `name @ time: appearance`.
  public var description: String {
    "\(name) @ \(String(format: "%.3f", time)): \(appearance)"
  }
}

/// The device a scenario runs on.
public struct ScenarioOptions: Sendable {
  /// The device.
  public var device: DeviceProfile = .iPhone8
  /// The system version.
  public var systemVersion = "13.0"
  /// Whether the bar-layer plugin is installed (false shows UIKit's own behaviour).
  public var installsPlugin = true

  /// The defaults: an iPhone 8 on iOS 13, with the plugin.
  public init() {}

  fileprivate static let current = RuntimeLock(ScenarioOptions())
}

/// A scenario: a name, a line saying what it shows, and a script that runs it on a freshly
/// launched application and returns the bar at its named moments.
public struct BarScenario: Sendable {
  /// The name used on the command line (`ant-forest`).
  public let name: String
  /// One line.
  public let summary: String
  private let script: @Sendable () -> [BarMoment]

  /// A scenario from its name, summary and script.
  public init(name: String, summary: String, _ script: @escaping @Sendable () -> [BarMoment]) {
    self.name = name
    self.summary = summary
    self.script = script
  }

  /// Runs the scenario from a fresh launch on the default device.
  public func run() -> [BarMoment] { run(options: ScenarioOptions()) }

  /// Runs the scenario from a fresh launch with `options`.
  public func run(options: ScenarioOptions) -> [BarMoment] {
    ScenarioOptions.current.withLock { $0 = options }
    return script()
  }

  /// Every built-in scenario.
  public static let all: [BarScenario] = [
    tour, antForest, zhihuDaily, weiboProfile, qqZone, qqProfile, lagouHome, gradientBar, imageBar,
    customBar, moveBar, push, pop, popTo, popToRoot, swipeBackCancelled, swipeBackFinished,
  ]

  /// The scenario named `name`.
  public static func named(_ name: String) -> BarScenario? { all.first { $0.name == name } }
}

/// A controller with a scroll view whose offset drives the bar, as the seed's demo screens do.
final class ScrollingScreen: UIViewController, UIScrollViewDelegate {
  let scrollView = UIScrollView(frame: .zero)
  let onScroll: (ScrollingScreen, CGFloat) -> Void

  init(title: String, onScroll: @escaping (ScrollingScreen, CGFloat) -> Void) {
    self.onScroll = onScroll
    super.init()
    self.title = title
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.frame = view.bounds
    scrollView.contentSize = CGSize(width: view.bounds.width, height: 2000)
    scrollView.delegate = self
    view.addSubview(scrollView)
  }

  func scrollViewDidScroll(_ scrollView: UIScrollView) {
    onScroll(self, scrollView.contentOffset.y)
  }
}

/// What the scenarios' screens show behind the bar (a header photo's green), so that a
/// transparent bar is told from a white one.
public let scenarioBackdrop = UIColor(red: 0.2, green: 0.6, blue: 0.3, alpha: 1)

/// Runs a scenario: a session rooted at `root`, and the moments recorded by `script`. The plugin
/// is installed if it is not (through the registry, so once).
private func scenario(
  root: UIViewController,
  _ script: (NavigationSession, (String) -> Void) -> Void
) -> [BarMoment] {
  let options = ScenarioOptions.current.withLock { $0 }
  if options.installsPlugin {
    _ = try? PluginRegistry.shared.install(BarLayerPlugin())
  } else {
    PluginRegistry.shared.uninstall("swizzlekit.bar-layer")
  }
  let session = NavigationSession(
    root: root, device: options.device, systemVersion: options.systemVersion)
  var moments: [BarMoment] = []
  let mark: (String) -> Void = { name in
    moments.append(
      BarMoment(
        name: name, time: VirtualRunLoop.main.currentTime,
        appearance: session.navigationController.navigationBar.appearance(over: scenarioBackdrop)))
  }
  script(session, mark)
  return moments
}

extension BarScenario {
  /// The change point of the Ant Forest demo: an image 260 tall, minus twice the bar.
  static let changePoint: CGFloat = 260 - 64 * 2

  /// The Ant Forest screen of the seed's demo.
  static func antForestScreen() -> ScrollingScreen {
    let screen = ScrollingScreen(title: "Ant Forest") { screen, offset in
      if offset > changePoint {
        let alpha = (offset - changePoint) / 64
        screen.navBarBackgroundAlpha = alpha
        if alpha > 0.5 {
          screen.navBarTintColor = UIColor(red: 0, green: 0.478431, blue: 1, alpha: 1)
          screen.navBarTitleColor = .black
          screen.statusBarStyle = .default
        } else {
          screen.navBarTintColor = .white
          screen.navBarTitleColor = .white
          screen.statusBarStyle = .lightContent
        }
      } else {
        screen.navBarBackgroundAlpha = 0
        screen.navBarTintColor = .white
        screen.navBarTitleColor = .white
        screen.statusBarStyle = .lightContent
      }
    }
    screen.navBarBarTintColor = .white
    screen.navBarBackgroundAlpha = 0
    screen.navBarTintColor = .white
    screen.navBarTitleColor = .white
    screen.statusBarStyle = .lightContent
    return screen
  }

  /// The lab's default: Ant Forest scrolled until opaque, a push to a blue screen, a swipe-back
  /// released at 30 % (cancelled), then one released from 70 % (finished).
  public static let tour = BarScenario(
    name: "tour",
    summary: "Ant Forest scrolled to opaque, a push, a swipe-back cancelled, then one finished"
  ) {
    let screen = antForestScreen()
    let detail = UIViewController()
    detail.title = "Detail"
    detail.navBarBarTintColor = UIColor(red: 0, green: 0.686, blue: 0.941, alpha: 1)
    detail.navBarTintColor = .white
    detail.navBarTitleColor = .white
    detail.statusBarStyle = .lightContent
    return scenario(root: screen) { session, mark in
      mark("transparent")
      session.scroll(screen.scrollView, by: changePoint + 16)
      mark("fading in")
      session.scroll(screen.scrollView, by: 32)
      mark("dark past half")
      session.scroll(screen.scrollView, by: 32)
      mark("opaque")
      session.navigationController.pushViewController(detail, animated: true)
      VirtualRunLoop.main.advance(frames: 4)
      mark("mid push")
      VirtualRunLoop.main.runUntilIdle()
      mark("pushed")
      session.swipeBack(to: 0.3)
      mark("swipe cancelled at 30 %")
      session.swipeBack(to: 0.7)
      mark("swipe finished from 70 %")
    }
  }

  /// Ant Forest: a transparent bar with white buttons, title and status bar; scrolling up makes
  /// it white, and past half opacity the buttons turn blue and title and status bar dark.
  public static let antForest = BarScenario(
    name: "ant-forest",
    summary: "transparent white-text bar turning white while scrolling; dark past half opacity"
  ) {
    let screen = antForestScreen()
    return scenario(root: screen) { session, mark in
      mark("start")
      session.scroll(screen.scrollView, by: changePoint + 16)
      mark("quarter opaque")
      session.scroll(screen.scrollView, by: 32)
      mark("three quarters opaque")
      session.scroll(screen.scrollView, by: 64)
      mark("opaque")
      session.scroll(screen.scrollView, by: -(changePoint + 112))
      mark("back at the top")
    }
  }

  /// Zhihu Daily: scrolling moves the bar up by its height while its buttons fade.
  public static let zhihuDaily = BarScenario(
    name: "zhihu-daily", summary: "the bar moves up with translation-Y while its buttons fade"
  ) {
    let screen = ScrollingScreen(title: "Zhihu Daily") { screen, offset in
      guard let bar = screen.navigationController?.navigationBar else { return }
      let progress = max(0, min(1, offset / 44))
      bar.barLayerSetTranslationY(-44 * progress)
      bar.barLayerSetBarButtonItemsAlpha(1 - progress, hasSystemBackIndicator: true)
    }
    screen.navBarBarTintColor = UIColor(red: 0, green: 0.56, blue: 0.9, alpha: 1)
    screen.navBarTitleColor = .white
    screen.navBarTintColor = .white
    return scenario(root: screen) { session, mark in
      mark("start")
      session.scroll(screen.scrollView, by: 22)
      mark("half up")
      session.scroll(screen.scrollView, by: 40)
      mark("hidden")
    }
  }

  /// Weibo's profile: an orange bar fading in with the scroll.
  public static let weiboProfile = BarScenario(
    name: "weibo-profile", summary: "an orange bar that fades in as the header scrolls away"
  ) {
    fadeIn(title: "Weibo", color: UIColor(red: 0.98, green: 0.55, blue: 0.2, alpha: 1))
  }

  /// QQ Zone: a blue bar fading in, the title turning dark with it.
  public static let qqZone = BarScenario(
    name: "qq-zone", summary: "a bar fading in, the title following its opacity"
  ) {
    fadeIn(title: "QQ Zone", color: UIColor(red: 0.2, green: 0.55, blue: 0.95, alpha: 1))
  }

  /// Lagou's home: a green bar over a banner, opaque once the banner has gone.
  public static let lagouHome = BarScenario(
    name: "lagou-home", summary: "a green bar over a banner, opaque once the banner has gone"
  ) {
    fadeIn(title: "Lagou", color: UIColor(red: 0, green: 0.72, blue: 0.55, alpha: 1))
  }

  /// QQ's profile page: a white bar fading in over a photo.
  public static let qqProfile = BarScenario(
    name: "qq-profile", summary: "a white bar fading in over the profile photo"
  ) {
    fadeIn(title: "QQ Profile", color: .white)
  }

  private static func fadeIn(title: String, color: UIColor) -> [BarMoment] {
    let screen = ScrollingScreen(title: title) { screen, offset in
      screen.navBarBackgroundAlpha = max(0, min(1, offset / 100))
      screen.navBarTitleColor = offset > 50 ? .white : .clear
    }
    screen.navBarBarTintColor = color
    screen.navBarBackgroundAlpha = 0
    screen.navBarTitleColor = .clear
    return scenario(root: screen) { session, mark in
      mark("start")
      session.scroll(screen.scrollView, by: 50)
      mark("half")
      session.scroll(screen.scrollView, by: 100)
      mark("opaque")
    }
  }

  /// A bar showing an image (the gradient and image demos): the image's colour, whatever the
  /// bar colour.
  public static let imageBar = BarScenario(
    name: "image-bar", summary: "a background image instead of a colour"
  ) {
    let screen = UIViewController()
    screen.title = "Image"
    screen.navBarBackgroundImage = UIImage(
      color: UIColor(red: 0.5, green: 0.2, blue: 0.8, alpha: 1))
    screen.navBarTitleColor = .white
    return scenario(root: screen) { _, mark in mark("start") }
  }

  /// A gradient bar. Images in the model have one colour, so the gradient (from a purple to a
  /// blue) is shown as its mean colour, which is what the "what the user sees" query reports for
  /// the bar as a whole.
  public static let gradientBar = BarScenario(
    name: "gradient-bar", summary: "a gradient background image (its mean colour in the model)"
  ) {
    let screen = UIViewController()
    screen.title = "Gradient"
    let from = UIColor(red: 0.55, green: 0.3, blue: 0.9, alpha: 1)
    let to = UIColor(red: 0.25, green: 0.5, blue: 0.95, alpha: 1)
    screen.navBarBackgroundImage = UIImage(color: from.interpolated(to: to, fraction: 0.5))
    screen.navBarTitleColor = .white
    return scenario(root: screen) { _, mark in mark("start") }
  }

  /// Moving the bar: up by its height, then back, with a button tap's animation.
  public static let moveBar = BarScenario(
    name: "move-bar", summary: "the bar moved up by its height and back, animated"
  ) {
    let screen = UIViewController()
    screen.title = "Move"
    return scenario(root: screen) { session, mark in
      let bar = session.navigationController.navigationBar
      mark("start")
      UIView.animate(withDuration: 0.3) { bar.barLayerSetTranslationY(-44) }
      VirtualRunLoop.main.runUntilIdle()
      mark("moved up")
      UIView.animate(withDuration: 0.3) { bar.barLayerSetTranslationY(0) }
      VirtualRunLoop.main.runUntilIdle()
      mark("back")
    }
  }

  /// A controller with a bar view of its own: the one-line API goes to that bar.
  public static let customBar = BarScenario(
    name: "custom-bar", summary: "a controller's own bar view, set with the same one-line API"
  ) {
    let screen = UIViewController()
    screen.title = "Custom"
    var own: BarMoment?
    let system = scenario(root: screen) { _, mark in
      let bar = UINavigationBar()
      screen.view.addSubview(bar)
      screen.customNavBar = bar
      screen.navBarBarTintColor = .orange
      screen.navBarTitleColor = .white
      own = BarMoment(
        name: "custom bar", time: CACurrentMediaTime(),
        appearance: bar.appearance(over: scenarioBackdrop))
      mark("system bar")
    }
    return (own.map { [$0] } ?? []) + system
  }

  // MARK: Transitions between a transparent and an opaque controller

  private static func transparentAndOpaque() -> (UIViewController, UIViewController) {
    let transparent = UIViewController()
    transparent.title = "Transparent"
    transparent.navBarBarTintColor = UIColor(red: 0, green: 0.686, blue: 0.941, alpha: 1)
    transparent.navBarBackgroundAlpha = 0
    transparent.navBarTitleColor = .white
    transparent.navBarTintColor = .white
    transparent.statusBarStyle = .lightContent
    let opaque = UIViewController()
    opaque.title = "Opaque"
    return (transparent, opaque)
  }

  /// A push from a transparent to an opaque controller.
  public static let push = BarScenario(name: "push", summary: "transparent to opaque, animated") {
    let (transparent, opaque) = transparentAndOpaque()
    return scenario(root: transparent) { session, mark in
      mark("before")
      session.navigationController.pushViewController(opaque, animated: true)
      VirtualRunLoop.main.advance(frames: 4)
      mark("mid push")
      VirtualRunLoop.main.runUntilIdle()
      mark("after")
    }
  }

  /// A pop back to the transparent controller.
  public static let pop = BarScenario(name: "pop", summary: "opaque back to transparent") {
    let (transparent, opaque) = transparentAndOpaque()
    return scenario(root: transparent) { session, mark in
      session.push(opaque)
      mark("before")
      session.navigationController.popViewController(animated: true)
      VirtualRunLoop.main.advance(frames: 4)
      mark("mid pop")
      VirtualRunLoop.main.runUntilIdle()
      mark("after")
    }
  }

  /// A scenario between the transparent root and the opaque controller: `pushes` controllers
  /// pushed (the opaque one first, then plain ones), the bar marked `before`, then `operation`,
  /// run until idle, and the bar marked `after`.
  private static func fromStack(
    name: String, summary: String, pushes: Int,
    _ operation: @escaping @Sendable (NavigationSession, UIViewController) -> Void
  ) -> BarScenario {
    BarScenario(name: name, summary: summary) {
      let (transparent, opaque) = transparentAndOpaque()
      return scenario(root: transparent) { session, mark in
        session.push(opaque)
        for _ in 1..<max(1, pushes) { session.push(UIViewController()) }
        mark("before")
        operation(session, transparent)
        VirtualRunLoop.main.runUntilIdle()
        mark("after")
      }
    }
  }

  /// popTo from a third controller back to the transparent root.
  public static let popTo = fromStack(
    name: "pop-to", summary: "popTo the transparent root", pushes: 2
  ) { session, root in
    session.navigationController.popToViewController(root, animated: true)
  }

  /// popToRoot from two levels up.
  public static let popToRoot = fromStack(name: "pop-to-root", summary: "popToRoot", pushes: 2) {
    session, _ in
    session.navigationController.popToRootViewController(animated: true)
  }

  /// A swipe-back released slowly at 30 %: cancelled, the bar back to the opaque one.
  public static let swipeBackCancelled = fromStack(
    name: "swipe-back-cancelled", summary: "a swipe-back released at 30 %: cancelled", pushes: 1
  ) { session, _ in
    session.swipeBack(to: 0.3)
  }

  /// A swipe-back released from 60 %: finished, the bar transparent.
  public static let swipeBackFinished = fromStack(
    name: "swipe-back-finished", summary: "a swipe-back released from 60 %: finished", pushes: 1
  ) { session, _ in
    session.swipeBack(to: 0.6)
  }
}
