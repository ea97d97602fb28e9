// The article's screens as scenarios: a transparent page whose bar follows its scroll (alpha
// offset / 136), an opaque page pushed over it, and swipes back by each technique.
import Foundation
import Hooks
import ObjCRuntime
public import Scenarios
public import UIKitModel

extension FullscreenPopPlugin: ScenarioPlugin {
  /// The article's swipe in each of its modes, and the hijack's, alone and beside the
  /// bar-layer plugin.
  public var scenarios: [Scenario] { FullscreenPopScenarios.all }
}

/// The fullscreen-pop plugin's scenarios.
public enum FullscreenPopScenarios {
  /// The plugin's short name, `fullscreen-pop`.
  static let plugin = FullscreenPopPlugin().name

  /// Every scenario of the plugin.
  public static let all: [Scenario] = [articleSwipe, hijackSwipe, hijackBesideBarLayer]

  /// The article's screens: home, then the transparent page scrolled half way in (alpha 0.5),
  /// then the opaque page; a swipe back cancelled at 30 %, then one finished from 70 %. Run
  /// with the article's code as written (`article-seed: ...`: the bar's background ends at
  /// alpha 0 on the transparent page, whose `viewDidAppear` skips restoring it after a gesture
  /// pop), then fixed (`article: ...`).
  public static let articleSwipe = Scenario(
    name: "fd-article-swipe",
    summary: "the article's custom pop: cancelled at 30 %, finished from 70 %; seed, then fixed",
    plugin: plugin
  ) { context in
    for technique in [PopTechnique.articleSeed, .article] {
      withTechnique(technique) {
        let session = context.start(root: homePage())
        let transparent = TransparentPage()
        session.push(transparent)
        transparent.scrollView.contentOffset = CGPoint(x: 0, y: 68)
        context.mark("\(technique.rawValue): transparent page at 0.5")
        session.push(opaquePage())
        context.mark("\(technique.rawValue): opaque page")
        session.swipeBack(to: 0.3, from: 200)
        context.mark("\(technique.rawValue): cancelled at 30 %")
        expectTop("Detail", "\(technique.rawValue): still on the opaque page", context)
        session.swipeBack(to: 0.7, from: 200)
        context.mark("\(technique.rawValue): back on the transparent page")
        expectTop("Title", "\(technique.rawValue): back on the transparent page", context)
        // The page scrolled half way in shows its title half faded again; the seed's
        // viewDidAppear skips that after a gesture pop.
        context.expectBar(
          BarSnapshot(titleColor: UIColor(white: 0, alpha: 0.5)),
          "\(technique.rawValue): the title half faded again",
          failsOn: technique == .articleSeed ? IOSProfile.everyName : [])
      }
    }
  }

  /// FDFullscreenPopGesture's hijack: a swipe from the middle of the screen pops with the
  /// system's own transition.
  public static let hijackSwipe = Scenario(
    name: "fd-hijack-swipe",
    summary: "FDFullscreenPopGesture: a swipe from mid-screen drives the system's own pop",
    plugin: plugin
  ) { context in
    withTechnique(.hijack) {
      let session = context.start(root: homePage())
      session.push(opaquePage())
      context.mark("detail")
      session.swipeBack(to: 0.3, from: 200)
      context.mark("cancelled at 30 % (from mid-screen)")
      expectTop("Detail", "a swipe from mid-screen cancelled at 30 %", context)
      session.swipeBack(to: 0.7, from: 200)
      context.mark("back home")
      expectTop("Home", "a swipe from mid-screen finished from 70 %", context)
    }
  }

  /// The hijack beside the bar-layer plugin: the system's transition still runs, so the
  /// bar-layer plugin's hooks of `_updateInteractiveTransition:` keep the bar right.
  public static let hijackBesideBarLayer = Scenario(
    name: "fd-hijack-bar-layer",
    summary: "the hijack with the bar-layer plugin installed: its hooks still follow the finger",
    plugin: plugin, companions: ["bar-layer"]
  ) { context in
    withTechnique(.hijack) {
      let session = context.start(root: homePage())
      session.push(opaquePage())
      context.mark("detail")
      session.swipeBack(to: 0.7, from: 200)
      context.mark("back home")
      expectTop("Home", "the hijacked swipe pops", context)
      // The bar-layer plugin's default bar, drawn by its hooks of the system's transition.
      context.expectBar(
        BarSnapshot(background: .white, backgroundAlpha: 1), "the bar-layer plugin's bar")
    }
  }

  /// Checks that the controller on top is titled `title`.
  private static func expectTop(_ title: String, _ label: String, _ context: ScenarioContext) {
    let stack = context.session?.navigationController.viewControllers ?? []
    let top = stack.last?.title ?? "none"
    context.expect(
      top == title, label,
      seen: "on top: \(top), \(stack.count) deep; expected \(title)")
  }

  /// Runs `body` with ``FullscreenPopPlugin/technique`` set to `technique`, sets it back, and
  /// returns what `body` returned.
  @discardableResult
  public static func withTechnique<Result>(
    _ technique: PopTechnique, _ body: () throws -> Result
  ) rethrows -> Result {
    let before = FullscreenPopPlugin.technique
    FullscreenPopPlugin.technique = technique
    defer { FullscreenPopPlugin.technique = before }
    return try body()
  }

  /// The page the others are pushed from.
  public static func homePage() -> UIViewController {
    let page = UIViewController()
    page.title = "Home"
    return page
  }

  /// The article's page B: a plain opaque page.
  public static func opaquePage() -> UIViewController {
    let page = UIViewController()
    page.title = "Detail"
    return page
  }
}

/// The article's page A: its bar's first subview (the background) and title fade in as the
/// table scrolls (`alpha = offset / 136`), the alpha is stored in the user defaults (`_alpha`),
/// restored in `viewDidAppear` unless a gesture popped back (`isGesturePop`), and the bar is
/// made opaque again in `viewWillDisappear`.
public final class TransparentPage: UIViewController, UIScrollViewDelegate {
  public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(TransparentPage.self) {
      ObjCMethodDeclaration("scrollViewDidScroll:", TransparentPage.didScroll)
    }
  }

  private static let didScroll: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
    guard let view = view?.takeUnretainedObject() as? UIScrollView else { return }
    me.receiver(as: TransparentPage.self).scrollViewDidScroll(view)
  }

  /// The distance over which the bar fades in: 136 points.
  public static let fadeDistance: CGFloat = 136

  /// The table.
  public let scrollView = UITableView(frame: .zero)
  /// The bar's background, as the article keeps it (`barImageView`).
  private weak var barImageView: UIView?
  /// The alpha this page last set (the article's `_alpha` ivar).
  public private(set) var alpha: CGFloat = 0

  /// A transparent page titled `Title`, as the article's.
  public override init() {
    super.init()
    title = "Title"
  }

  public override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.frame = view.bounds
    scrollView.contentSize = CGSize(width: view.bounds.width, height: 2000)
    view.addSubview(scrollView)
    guard let bar = navigationController?.navigationBar else { return }
    bar.setBackgroundImage(UIImage(), for: .default)
    bar.shadowImage = UIImage()
    barImageView = bar.subviews.first
    barImageView?.alpha = 0
    articleBarAlpha = 0
    bar.titleTextAttributes = [.foregroundColor: UIColor.clear]
  }

  public override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    scrollView.delegate = self
  }

  public override func viewDidAppear(_ animated: Bool) {
    if !ArticleDefaults.isGesturePop {
      barImageView?.alpha = alpha
      navigationController?.navigationBar.titleTextAttributes = [
        .foregroundColor: UIColor(white: 0, alpha: alpha)
      ]
    }
    super.viewDidAppear(animated)
  }

  public override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    scrollView.delegate = nil
    navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.black]
    barImageView?.alpha = 1
    ArticleDefaults.isGesturePop = false
  }

  /// The article's `scrollViewDidScroll:`.
  public func scrollViewDidScroll(_ scrollView: UIScrollView) {
    let alpha = scrollView.contentOffset.y / TransparentPage.fadeDistance
    barImageView?.alpha = alpha
    self.alpha = alpha
    ArticleDefaults.alpha = Float(alpha)
    articleBarAlpha = alpha
    navigationController?.navigationBar.titleTextAttributes = [
      .foregroundColor: UIColor(white: 0, alpha: max(0, min(1, alpha)))
    ]
  }
}
