// The seed's demo screens as scripted scenarios, with what the bar must look like at named
// moments: the bar-layer plugin brings them (`BarLayerPlugin.scenarios`), and the lab, the
// benchmark and the tests run them.
import Foundation
import Hooks
public import Scenarios
import UIKitModel

extension BarLayerPlugin: ScenarioPlugin {
  /// The seed's demo screens and the six transitions, in the order the lab lists them.
  public var scenarios: [Scenario] { BarLayerScenarios.all }

}

/// The bar-layer plugin's scenarios, each meant for the plugin: a run installs it unless its
/// options name other plugins.
public enum BarLayerScenarios {
  /// The plugin's short name, `bar-layer`.
  static let plugin = BarLayerPlugin().name

  /// Every scenario of the plugin.
  public static let all: [Scenario] = [
    tour, antForest, zhihuDaily, weiboProfile, qqZone, qqProfile, lagouHome, gradientBar, imageBar,
    customBar, moveBar, push, pop, popTo, popToRoot, swipeBackCancelled, swipeBackFinished,
    picker, gallerySwipe, tabBar, sheet, largeTitle, search,
  ]

}

/// A controller with a scroll view whose offset drives the bar, as the seed's demo screens do:
/// a header in the screen's colour, then a list of rows (what the report's frames draw).
final class ScrollingScreen: UIViewController, UIScrollViewDelegate {
  let scrollView = UIScrollView(frame: .zero)
  let onScroll: (ScrollingScreen, CGFloat) -> Void
  /// The colour of the header at the top of the content (the demo's image), 260 points tall.
  let headerColor: UIColor

  init(
    title: String, header: UIColor = UIColor(red: 0.55, green: 0.75, blue: 0.6, alpha: 1),
    onScroll: @escaping (ScrollingScreen, CGFloat) -> Void
  ) {
    self.onScroll = onScroll
    self.headerColor = header
    super.init()
    self.title = title
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.backgroundColor = .white
    scrollView.frame = view.bounds
    scrollView.contentSize = CGSize(width: view.bounds.width, height: 2000)
    scrollView.delegate = self
    let header = UIView(frame: CGRect(x: 0, y: 0, width: view.bounds.width, height: 260))
    header.backgroundColor = headerColor
    scrollView.addSubview(header)
    // Rows of the list below it, every other one shaded, as far as a scroll of the demo goes.
    for row in 0..<14 where row % 2 == 1 {
      let shade = UIView(
        frame: CGRect(x: 0, y: 260 + CGFloat(row) * 58, width: view.bounds.width, height: 58))
      shade.backgroundColor = UIColor(white: 0.93, alpha: 1)
      scrollView.addSubview(shade)
    }
    view.addSubview(scrollView)
  }

  func scrollViewDidScroll(_ scrollView: UIScrollView) {
    onScroll(self, scrollView.contentOffset.y)
  }
}

/// What the user sees of a bar `color` at `alpha` over the scenarios' backdrop.
private func seen(_ color: UIColor, alpha: CGFloat) -> UIColor {
  color.composited(over: scenarioBackdrop, opacity: alpha)
}

/// The system blue the seed's buttons turn past half opacity.
private let systemBlue = UIColor(red: 0, green: 0.478431, blue: 1, alpha: 1)

/// Starts `context`'s session at `root` and runs `script` with it and a function that marks a
/// moment.
private func scenario(
  _ context: ScenarioContext, root: UIViewController,
  _ script: (NavigationSession, (String) -> Void) -> Void
) {
  let session = context.start(root: root)
  script(session) { context.mark($0) }
}

extension BarLayerScenarios {
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
  public static let tour = Scenario(
    name: "tour",
    summary: "Ant Forest scrolled to opaque, a push, a swipe-back cancelled, then one finished",
    plugin: plugin
  ) { context in
    let screen = antForestScreen()
    let detail = UIViewController()
    detail.title = "Detail"
    detail.navBarBarTintColor = UIColor(red: 0, green: 0.686, blue: 0.941, alpha: 1)
    detail.navBarTintColor = .white
    detail.navBarTitleColor = .white
    detail.statusBarStyle = .lightContent
    // The detail page's content: a light blue page (the report draws both pages mid-push).
    detail.view.backgroundColor = UIColor(red: 0.85, green: 0.93, blue: 0.98, alpha: 1)
    scenario(context, root: screen) { session, mark in
      mark("transparent")
      context.expectBar(ExpectedBar(background: scenarioBackdrop), "transparent at the top")
      session.scroll(screen.scrollView, by: changePoint + 16)
      mark("fading in")
      session.scroll(screen.scrollView, by: 32)
      mark("dark past half")
      session.scroll(screen.scrollView, by: 32)
      mark("opaque")
      context.expectBar(ExpectedBar(background: .white), "white once scrolled")
      session.navigationController.pushViewController(detail, animated: true)
      VirtualRunLoop.main.advance(frames: 4)
      mark("mid push")
      VirtualRunLoop.main.runUntilIdle()
      mark("pushed")
      let blue = ExpectedBar(background: detail.navBarBarTintColor, titleColor: .white)
      context.expectBar(blue, "the detail's blue after the push")
      session.swipeBack(to: 0.3)
      mark("swipe cancelled at 30 %")
      context.expectBar(blue, "still blue after a cancelled swipe")
      session.swipeBack(to: 0.7)
      mark("swipe finished from 70 %")
      context.expectBar(
        ExpectedBar(background: .white, titleColor: .black), "white again after the swipe")
    }
  }

  /// Ant Forest: a transparent bar with white buttons, title and status bar; scrolling up makes
  /// it white, and past half opacity the buttons turn blue, the title dark and the status bar back to `default`.
  public static let antForest = Scenario(
    name: "ant-forest",
    summary: "transparent white-text bar turning white while scrolling; dark past half opacity",
    plugin: plugin
  ) { context in
    let screen = antForestScreen()
    scenario(context, root: screen) { session, mark in
      let top = ExpectedBar(
        background: scenarioBackdrop, tint: .white, titleColor: .white,
        statusBarStyle: .lightContent)
      mark("start")
      context.expectBar(top, "transparent, white text and buttons")
      session.scroll(screen.scrollView, by: changePoint + 16)
      mark("quarter opaque")
      context.expectBar(
        ExpectedBar(background: seen(.white, alpha: 0.25), statusBarStyle: .lightContent),
        "a quarter opaque, light status bar")
      session.scroll(screen.scrollView, by: 32)
      mark("three quarters opaque")
      context.expectBar(
        ExpectedBar(
          background: seen(.white, alpha: 0.75), tint: systemBlue, titleColor: .black,
          statusBarStyle: .default),
        "three quarters opaque, blue buttons, dark title and status bar")
      session.scroll(screen.scrollView, by: 64)
      mark("opaque")
      context.expectBar(ExpectedBar(background: .white, backgroundAlpha: 1), "opaque white")
      session.scroll(screen.scrollView, by: -(changePoint + 112))
      mark("back at the top")
      context.expectBar(top, "transparent again at the top")
    }
  }

  /// Zhihu Daily: scrolling moves the bar up by its height while its buttons fade.
  public static let zhihuDaily = Scenario(
    name: "zhihu-daily", summary: "the bar moves up with translation-Y while its buttons fade",
    plugin: plugin
  ) { context in
    let screen = ScrollingScreen(title: "Zhihu Daily") { screen, offset in
      guard let bar = screen.navigationController?.navigationBar else { return }
      let progress = max(0, min(1, offset / 44))
      bar.barLayerSetTranslationY(-44 * progress)
      bar.barLayerSetBarButtonItemsAlpha(1 - progress, hasSystemBackIndicator: true)
    }
    screen.navBarBarTintColor = UIColor(red: 0, green: 0.56, blue: 0.9, alpha: 1)
    screen.navBarTitleColor = .white
    screen.navBarTintColor = .white
    scenario(context, root: screen) { session, mark in
      mark("start")
      context.expectBar(ExpectedBar(translationY: 0), "in place")
      session.scroll(screen.scrollView, by: 22)
      mark("half up")
      context.expectBar(ExpectedBar(translationY: -22), "half up")
      session.scroll(screen.scrollView, by: 40)
      mark("hidden")
      context.expectBar(ExpectedBar(translationY: -44), "up by its height")
    }
  }

  /// Weibo's profile: an orange bar fading in with the scroll.
  public static let weiboProfile = Scenario(
    name: "weibo-profile", summary: "an orange bar that fades in as the header scrolls away",
    plugin: plugin
  ) { context in
    fadeIn(context, title: "Weibo", color: UIColor(red: 0.98, green: 0.55, blue: 0.2, alpha: 1))
  }

  /// QQ Zone: a blue bar fading in, the title turning dark with it.
  public static let qqZone = Scenario(
    name: "qq-zone", summary: "a bar fading in, the title following its opacity", plugin: plugin
  ) { context in
    fadeIn(context, title: "QQ Zone", color: UIColor(red: 0.2, green: 0.55, blue: 0.95, alpha: 1))
  }

  /// Lagou's home: a green bar over a banner, opaque once the banner has gone.
  public static let lagouHome = Scenario(
    name: "lagou-home", summary: "a green bar over a banner, opaque once the banner has gone",
    plugin: plugin
  ) { context in
    fadeIn(context, title: "Lagou", color: UIColor(red: 0, green: 0.72, blue: 0.55, alpha: 1))
  }

  /// QQ's profile page: a white bar fading in over a photo.
  public static let qqProfile = Scenario(
    name: "qq-profile", summary: "a white bar fading in over the profile photo", plugin: plugin
  ) { context in
    fadeIn(context, title: "QQ Profile", color: .white)
  }

  private static func fadeIn(_ context: ScenarioContext, title: String, color: UIColor) {
    let screen = ScrollingScreen(title: title) { screen, offset in
      screen.navBarBackgroundAlpha = max(0, min(1, offset / 100))
      screen.navBarTitleColor = offset > 50 ? .white : .clear
    }
    screen.navBarBarTintColor = color
    screen.navBarBackgroundAlpha = 0
    screen.navBarTitleColor = .clear
    scenario(context, root: screen) { session, mark in
      mark("start")
      context.expectBar(ExpectedBar(background: scenarioBackdrop), "transparent over the header")
      session.scroll(screen.scrollView, by: 50)
      mark("half")
      session.scroll(screen.scrollView, by: 100)
      mark("opaque")
      context.expectBar(
        ExpectedBar(background: color, backgroundAlpha: 1, titleColor: .white),
        "opaque in its colour, white title")
    }
  }

  /// A bar showing an image (the gradient and image demos): the image's colour, whatever the
  /// bar colour.
  public static let imageBar = Scenario(
    name: "image-bar", summary: "a background image instead of a colour", plugin: plugin
  ) { context in
    let screen = UIViewController()
    screen.title = "Image"
    let purple = UIColor(red: 0.5, green: 0.2, blue: 0.8, alpha: 1)
    screen.navBarBackgroundImage = UIImage(color: purple)
    screen.navBarTitleColor = .white
    scenario(context, root: screen) { _, mark in
      mark("start")
      context.expectBar(ExpectedBar(background: purple), "the image's colour")
    }
  }

  /// A gradient bar. Images in the model have one colour, so the gradient (from a purple to a
  /// blue) is shown as its mean colour, which is what the "what the user sees" query reports for
  /// the bar as a whole.
  public static let gradientBar = Scenario(
    name: "gradient-bar", summary: "a gradient background image (its mean colour in the model)",
    plugin: plugin
  ) { context in
    let screen = UIViewController()
    screen.title = "Gradient"
    let from = UIColor(red: 0.55, green: 0.3, blue: 0.9, alpha: 1)
    let to = UIColor(red: 0.25, green: 0.5, blue: 0.95, alpha: 1)
    let mean = from.interpolated(to: to, fraction: 0.5)
    screen.navBarBackgroundImage = UIImage(color: mean)
    screen.navBarTitleColor = .white
    scenario(context, root: screen) { _, mark in
      mark("start")
      context.expectBar(ExpectedBar(background: mean, backgroundAlpha: 1), "the gradient's mean")
    }
  }

  /// Moving the bar: up by its height, then back, with a button tap's animation.
  public static let moveBar = Scenario(
    name: "move-bar", summary: "the bar moved up by its height and back, animated", plugin: plugin
  ) { context in
    let screen = UIViewController()
    screen.title = "Move"
    scenario(context, root: screen) { session, mark in
      let bar = session.navigationController.navigationBar
      mark("start")
      UIView.animate(withDuration: 0.3) { bar.barLayerSetTranslationY(-44) }
      VirtualRunLoop.main.runUntilIdle()
      mark("moved up")
      context.expectBar(ExpectedBar(translationY: -44), "up by its height")
      UIView.animate(withDuration: 0.3) { bar.barLayerSetTranslationY(0) }
      VirtualRunLoop.main.runUntilIdle()
      mark("back")
      context.expectBar(ExpectedBar(translationY: 0), "back in place")
    }
  }

  /// A controller with a bar view of its own: the one-line API goes to that bar.
  public static let customBar = Scenario(
    name: "custom-bar", summary: "a controller's own bar view, set with the same one-line API",
    plugin: plugin
  ) { context in
    let screen = UIViewController()
    screen.title = "Custom"
    scenario(context, root: screen) { _, mark in
      let bar = UINavigationBar()
      screen.view.addSubview(bar)
      screen.customNavBar = bar
      screen.navBarBarTintColor = .orange
      screen.navBarTitleColor = .white
      context.mark("custom bar", seenBar: bar.asSeen(over: scenarioBackdrop))
      mark("system bar")
      context.expectBar(
        ExpectedBar(background: .white, titleColor: .black), "the system bar keeps its defaults")
    }
  }

  // MARK: Transitions between a transparent and an opaque controller

  static func transparentAndOpaque() -> (UIViewController, UIViewController) {
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

  /// What the user sees of the transparent controller's bar: the backdrop, white text.
  static let transparentBar = ExpectedBar(
    background: scenarioBackdrop, tint: .white, titleColor: .white, statusBarStyle: .lightContent)

  /// What the user sees of the opaque controller's bar: the plugin's defaults.
  static let opaqueBar = ExpectedBar(
    background: .white, backgroundAlpha: 1, tint: systemBlue, titleColor: .black,
    statusBarStyle: .default)

  /// A push from a transparent to an opaque controller.
  public static let push = Scenario(
    name: "push", summary: "transparent to opaque, animated", plugin: plugin
  ) { context in
    let (transparent, opaque) = transparentAndOpaque()
    scenario(context, root: transparent) { session, mark in
      mark("before")
      context.expectBar(transparentBar, "transparent before")
      session.navigationController.pushViewController(opaque, animated: true)
      VirtualRunLoop.main.advance(frames: 4)
      mark("mid push")
      VirtualRunLoop.main.runUntilIdle()
      mark("after")
      context.expectBar(opaqueBar, "white after")
    }
  }

  /// A pop back to the transparent controller.
  public static let pop = Scenario(
    name: "pop", summary: "opaque back to transparent", plugin: plugin
  ) { context in
    let (transparent, opaque) = transparentAndOpaque()
    scenario(context, root: transparent) { session, mark in
      session.push(opaque)
      mark("before")
      context.expectBar(opaqueBar, "white before")
      session.navigationController.popViewController(animated: true)
      VirtualRunLoop.main.advance(frames: 4)
      mark("mid pop")
      VirtualRunLoop.main.runUntilIdle()
      mark("after")
      context.expectBar(transparentBar, "transparent after")
    }
  }

  /// A scenario between the transparent root and the opaque controller: `pushes` controllers
  /// pushed (the opaque one first, then plain ones), the bar marked `before`, then `operation`,
  /// run until idle, and the bar marked `after`, checked to be the root's (transparent) bar or
  /// the opaque one.
  private static func fromStack(
    name: String, summary: String, pushes: Int, endsTransparent: Bool = true,
    _ operation: @escaping @MainActor @Sendable (NavigationSession, UIViewController) -> Void
  ) -> Scenario {
    Scenario(name: name, summary: summary, plugin: plugin) { context in
      let (transparent, opaque) = transparentAndOpaque()
      scenario(context, root: transparent) { session, mark in
        session.push(opaque)
        for _ in 1..<max(1, pushes) { session.push(UIViewController()) }
        mark("before")
        context.expectBar(opaqueBar, "white before")
        operation(session, transparent)
        VirtualRunLoop.main.runUntilIdle()
        mark("after")
        if endsTransparent {
          context.expectBar(transparentBar, "the root's transparent bar after")
        } else {
          context.expectBar(opaqueBar, "still white after")
        }
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

  /// A swipe back from a page filled by a sideways scroll view (a gallery of three screens):
  /// the scroll view's own pan, nearer the finger, takes the swipe from the system's
  /// (FDFullscreenPopGesture issue 61 reports the same of FD's pan). The plugin changes no
  /// gesture, so the page stays, under the plugin's white bar. With the app's usual answer,
  /// `scrollView.panGestureRecognizer.require(toFail: interactivePopGestureRecognizer)`, the
  /// swipe pops, and the plugin's hooks of the interactive transition bring the root's
  /// transparent bar back.
  public static let gallerySwipe = Scenario(
    name: "bar-layer-gallery-swipe",
    summary: "a swipe back over a sideways gallery: kept by it, then popping with require(toFail:)",
    plugin: plugin
  ) { context in
    let (transparent, _) = transparentAndOpaque()
    let gallery = SidewaysGalleryPage()
    scenario(context, root: transparent) { session, mark in
      session.push(gallery)
      mark("the gallery")
      context.expectBar(opaqueBar, "white on the gallery")
      context.swipeBackOverGallery(gallery, in: session) {
        context.expectBar(opaqueBar, "still white")
      }
      context.expectBar(transparentBar, "the root's transparent bar after")
    }
  }

  /// A swipe-back released slowly at 30 %: cancelled, the bar back to the opaque one.
  public static let swipeBackCancelled = fromStack(
    name: "swipe-back-cancelled", summary: "a swipe-back released at 30 %: cancelled", pushes: 1,
    endsTransparent: false
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
