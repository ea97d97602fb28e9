// The article's screens as scenarios: a transparent page whose bar follows its scroll (alpha
// offset / 136), an opaque page pushed over it, and swipes back by each technique.
import Foundation
import Hooks
import ObjCRuntime
public import Scenarios
public import UIKitModel

extension FullscreenPopPlugin: ScenarioPlugin, BreakageGalleryPlugin {
  /// The article's swipe in each of its modes, and the hijack's, alone and beside the
  /// bar-layer plugin, and FDFullscreenPopGesture's per-page bar as written and fixed.
  public var scenarios: [Scenario] { FullscreenPopScenarios.all }

  /// FDFullscreenPopGesture's reported breakages its scenarios reproduce.
  public var breakages: [Breakage] {
    [
      Breakage(
        name: "fd-5", library: "FDFullscreenPopGesture",
        report: "forkingdog/FDFullscreenPopGesture issue 5",
        reported: "since 1.1, a page that hides the bar in its viewWillDisappear: (for the page"
          + " it pushes) no longer hides it",
        mechanism: "FD's swizzled viewWillAppear: sets the bar to the appearing page's"
          + " fd_prefersNavigationBarHidden, NO for a page that never set it, after the app's"
          + " own setNavigationBarHidden:animated: (pull request 207 leaves such pages alone)",
        scenario: "fd-app-hides-bar", profile: .ios10),
      Breakage(
        name: "fd-129", library: "FDFullscreenPopGesture",
        report: "forkingdog/FDFullscreenPopGesture issue 129",
        reported: "the root page's fd_prefersNavigationBarHidden = YES does nothing at launch:"
          + " the bar shows",
        mechanism: "FD gives a page the block that applies its preference only in its swizzled"
          + " push (to the pushed page and the one under it), so the root's first appearance,"
          + " which no push precedes, is left alone",
        scenario: "fd-root-hidden", profile: .ios10),
      Breakage(
        name: "fd-61", library: "FDFullscreenPopGesture",
        report: "forkingdog/FDFullscreenPopGesture issue 61",
        reported: "on a page with a scroll view that scrolls sideways, the back swipe does"
          + " nothing: the gestures conflict (issue 27 reports the same)",
        mechanism: "the scroll view's own pan, on a view nearer the finger, begins first (its"
          + " content can move sideways, and at the left edge it still takes the drag), and no"
          + " two gestures recognize at once unless a delegate says so, so FD's pan fails. FD's"
          + " README and demo answer with the scroll view, its pan's delegate, letting FD's pan"
          + " recognize beside its own while the content is at the left edge; issue 203 asks"
          + " for that as a category on UIScrollView",
        scenario: "fd-scroll-view", profile: .ios10),
    ]
  }
}

/// The fullscreen-pop plugin's scenarios.
public enum FullscreenPopScenarios {
  /// The plugin's short name, `fullscreen-pop`.
  static let plugin = FullscreenPopPlugin().name

  /// Every scenario of the plugin.
  public static let all: [Scenario] = [
    articleSwipe, hijackSwipe, hijackBesideBarLayer, appHidesBar, rootPrefersHidden,
    scrollViewPage, articleScrollView, tabBar, sheet, largeTitle, search, searchActive,
  ]

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
    FullscreenPopPlugin.technique.withEach([PopTechnique.articleSeed, .article]) { technique in
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
        ExpectedBar(titleColor: UIColor(white: 0, alpha: 0.5)),
        "\(technique.rawValue): the title half faded again",
        failsOn: technique == .articleSeed ? IOSProfile.everyName : [])
    }
  }

  /// FDFullscreenPopGesture's hijack: a swipe from the middle of the screen pops with the
  /// system's own transition.
  public static let hijackSwipe = Scenario(
    name: "fd-hijack-swipe",
    summary: "FDFullscreenPopGesture: a swipe from mid-screen drives the system's own pop",
    plugin: plugin
  ) { context in
    FullscreenPopPlugin.technique.withValue(.hijack) {
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
    FullscreenPopPlugin.technique.withValue(.hijack) {
      let session = context.start(root: homePage())
      session.push(opaquePage())
      context.mark("detail")
      session.swipeBack(to: 0.7, from: 200)
      context.mark("back home")
      expectTop("Home", "the hijacked swipe pops", context)
      // The bar-layer plugin's default bar, drawn by its hooks of the system's transition.
      context.expectBar(
        ExpectedBar(background: .white, backgroundAlpha: 1), "the bar-layer plugin's bar")
    }
  }

  /// FDFullscreenPopGesture issue 5: a page that shows the bar in its `viewDidLoad` and hides
  /// it in its `viewWillDisappear:` (for the page it pushes), as the reporter's did, with no
  /// page setting `fdPrefersNavigationBarHidden`. FD as written shows the bar on the pushed
  /// page anyway (`hijack-seed: ...`, fails everywhere); fixed, pages that state no preference
  /// leave the bar to the app (`hijack: ...`).
  public static let appHidesBar = Scenario(
    name: "fd-app-hides-bar",
    summary: "FD issue 5: the app hides the bar in viewWillDisappear:; FD shows it again",
    plugin: plugin
  ) { context in
    FullscreenPopPlugin.technique.withEach([PopTechnique.hijackSeed, .hijack]) { technique in
      let session = context.start(root: homePage())
      session.push(BarHidingPage())
      context.mark("\(technique.rawValue): the page that shows the bar")
      session.push(opaquePage())
      context.mark("\(technique.rawValue): the page it pushed")
      let hidden = session.navigationController.isNavigationBarHidden
      context.expect(
        hidden, "\(technique.rawValue): the bar stays hidden, as the app asked",
        seen: "the bar is shown",
        failsOn: technique == .hijackSeed ? IOSProfile.everyName : [])
    }
  }

  /// FDFullscreenPopGesture issue 129: the root page sets `fdPrefersNavigationBarHidden` and
  /// the app launches. FD as written leaves the bar shown (`hijack-seed: ...`, fails
  /// everywhere); fixed, the root is served too (`hijack: ...`). Then a page that wants the bar
  /// is pushed and swiped back from: the bar shows there and hides again on the root, in both.
  public static let rootPrefersHidden = Scenario(
    name: "fd-root-hidden",
    summary: "FD issue 129: the root prefers the bar hidden; FD shows it at launch",
    plugin: plugin
  ) { context in
    FullscreenPopPlugin.technique.withEach([PopTechnique.hijackSeed, .hijack]) { technique in
      let root = homePage()
      root.fdPrefersNavigationBarHidden = true
      let session = context.start(root: root)
      context.mark("\(technique.rawValue): launched")
      expectBarHidden(
        true, "\(technique.rawValue): no bar on the root at launch", context,
        failsOn: technique == .hijackSeed ? IOSProfile.everyName : [])
      let detail = opaquePage()
      detail.fdPrefersNavigationBarHidden = false
      session.push(detail)
      context.mark("\(technique.rawValue): detail")
      expectBarHidden(false, "\(technique.rawValue): the bar on the detail page", context)
      session.swipeBack(to: 0.7, from: 200)
      context.mark("\(technique.rawValue): swiped back")
      expectTop("Home", "\(technique.rawValue): back on the root", context)
      expectBarHidden(true, "\(technique.rawValue): no bar on the root again", context)
    }
  }

  /// In a tab: a page that hides the tab bar, pushed and swiped back from the middle of the
  /// screen (FD's full-screen pan drives the system's interactive pop), cancelled at 30 % then
  /// finished from 70 %, with FD as written (`hijack-seed: ...`) and fixed (`hijack: ...`): the
  /// tab bar follows the finger back in, stays hidden when the swipe is cancelled, and is back in
  /// place when it finishes, in both: FD's pan drives UIKit's own pop, which moves the tab bar.
  public static let tabBar = Scenario(
    name: "fd-tab-bar",
    summary: "in a tab: a page hiding the tab bar, swiped back from mid-screen; seed, then fixed",
    plugin: plugin
  ) { context in
    FullscreenPopPlugin.technique.withEach([PopTechnique.hijackSeed, .hijack]) { technique in
      let session = context.start(tabs: [homePage(), homePage()])
      context.mark("\(technique.rawValue): the first tab")
      let detail = opaquePage()
      detail.hidesBottomBarWhenPushed = true
      context.pushAndSwipeBackOverTabBar(
        detail, in: session, prefix: "\(technique.rawValue): ", from: 200)
    }
  }

  /// In a sheet: a navigation controller presented in the default style (a card from iOS 13
  /// with its SDK, full screen before), a page pushed in it and swiped back from the middle of
  /// the sheet, the sheet dragged down and let go, then dragged away, with FD as written
  /// (`hijack-seed: ...`) and fixed (`hijack: ...`). FD's pan sits on the sheet's navigation
  /// view beside the sheet's own swipe-down pan: it takes the sideways swipe, whose move to the
  /// right it lets begin, and refuses the downward drag (no move to the right), which the
  /// sheet's pan takes. The model has no report of FD in a sheet; QMUI_iOS issue 877's reporter
  /// saw QMUI's pop check skipped in one, with no mechanism given.
  public static let sheet = Scenario(
    name: "fd-sheet",
    summary: "in a sheet: a page swiped back from mid-sheet, the sheet dragged; seed, then fixed",
    plugin: plugin
  ) { context in
    FullscreenPopPlugin.technique.withEach([PopTechnique.hijackSeed, .hijack]) { technique in
      let session = context.start(root: homePage())
      let sheet = context.presentSheet(homePage(), in: session, prefix: "\(technique.rawValue): ")
      context.pushAndDragInSheet(
        sheet, pushing: opaquePage(), in: session, prefix: "\(technique.rawValue): ", from: 200)
    }
  }

  /// FDFullscreenPopGesture issues 61 and 27: a page filled by a scroll view three screens
  /// wide. On its second screen, a swipe to the right from mid-screen scrolls the content back
  /// and stays on the page, in both halves. At the left edge, FD as written lets the scroll
  /// view keep the finger and the page stays (`hijack-seed: ...`, fails everywhere); fixed, the
  /// README's scroll-view category lets both pans recognize and the swipe pops (`hijack: ...`).
  public static let scrollViewPage = Scenario(
    name: "fd-scroll-view",
    summary: "FD issue 61: a sideways scroll view keeps the finger; the README's category yields",
    plugin: plugin
  ) { context in
    FullscreenPopPlugin.technique.withEach([PopTechnique.hijackSeed, .hijack]) { technique in
      let session = context.start(root: homePage())
      swipeOnGallery(
        pushedIn: session, context, technique.rawValue, popsTo: "Home",
        failsOn: technique == .hijackSeed ? IOSProfile.everyName : [])
    }
  }

  /// Pushes a gallery three screens wide and swipes right on it from mid-screen: on its second
  /// screen (the content scrolls back and the page stays), then at its left edge, where the
  /// swipe is expected to pop to the page titled `popsTo` (failing as known on `failsOn`).
  static func swipeOnGallery(
    pushedIn session: NavigationSession, _ context: ScenarioContext, _ name: String,
    popsTo: String, failsOn: Set<String>
  ) {
    let page = SidewaysGalleryPage()
    session.push(page)
    let screen = page.scrollView.bounds.width
    page.scrollView.contentOffset = CGPoint(x: screen, y: 0)
    context.mark("\(name): the gallery's second screen")
    // A finger from mid-screen to the right that rests before it lifts (no flick, so the
    // content does not decelerate for seconds of frames).
    session.drag(
      from: CGPoint(x: 200, y: page.view.bounds.midY), by: CGPoint(x: screen / 2, y: 0))
    context.mark("\(name): swiped right on the second screen")
    expectTop("Gallery", "\(name): the swipe scrolled, no pop", context)
    let scrolled = page.scrollView.contentOffset.x
    context.expect(
      scrolled < screen - 100, "\(name): the content moved back",
      seen: "content offset \(scrolled)")
    page.scrollView.contentOffset = .zero
    context.mark("\(name): the gallery's first screen")
    session.swipeBack(to: 0.7, from: 200)
    context.mark("\(name): swiped right at the left edge")
    expectTop(popsTo, "\(name): the swipe at the left edge pops", context, failsOn: failsOn)
  }

  /// Checks whether the bar is hidden.
  static func expectBarHidden(
    _ hidden: Bool, _ label: String, _ context: ScenarioContext, failsOn: Set<String> = []
  ) {
    let seen = context.session?.navigationController.isNavigationBarHidden ?? false
    context.expect(
      seen == hidden, label, seen: seen ? "the bar is hidden" : "the bar is shown",
      failsOn: failsOn)
  }

  /// Checks that the controller on top is titled `title`.
  static func expectTop(
    _ title: String, _ label: String, _ context: ScenarioContext, failsOn: Set<String> = []
  ) {
    let stack = context.session?.navigationController.viewControllers ?? []
    let top = stack.last?.title ?? "none"
    context.expect(
      top == title, label,
      seen: "on top: \(top), \(stack.count) deep; expected \(title)", failsOn: failsOn)
  }

  /// The page the others are pushed from.
  public static func homePage() -> UIViewController {
    let page = UIViewController()
    page.title = "Home"
    return page
  }

  /// The article's page B: an opaque page, which sets the article's swipe up in its own
  /// `viewDidLoad` in the seed technique (``ArticlePopPage``).
  public static func opaquePage() -> UIViewController {
    let page = ArticlePopPage()
    page.title = "Detail"
    return page
  }
}

/// FDFullscreenPopGesture issue 5's middle page: it shows the bar in its `viewDidLoad` and hides
/// it in its `viewWillDisappear:`, with the system's `setNavigationBarHidden(_:animated:)`.
public final class BarHidingPage: UIViewController {
  /// A page titled `Shows the bar`.
  public override init() {
    super.init()
    title = "Shows the bar"
  }

  public override func viewDidLoad() {
    super.viewDidLoad()
    navigationController?.setNavigationBarHidden(false, animated: false)
  }

  public override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    navigationController?.setNavigationBarHidden(true, animated: animated)
  }
}

/// The article's page A: its bar's first subview (the background) and title fade in as the
/// table scrolls (`alpha = offset / 136`), the alpha is stored in the user defaults (`_alpha`),
/// restored in `viewDidAppear` unless a gesture popped back (`isGesturePop`), and the bar is
/// made opaque again in `viewWillDisappear`.
public final class TransparentPage: UIViewController, UIScrollViewDelegate {
  nonisolated public override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(TransparentPage.self) {
      ObjCMethodDeclaration("scrollViewDidScroll:", TransparentPage.didScroll)
    }
  }

  nonisolated private static let didScroll: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
    MainThread.assumeIsolated(with: me, view) { me, view in
      guard let view = view?.takeUnretainedObject() as? UIScrollView else { return }
      me.receiver(as: TransparentPage.self).scrollViewDidScroll(view)
    }
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
