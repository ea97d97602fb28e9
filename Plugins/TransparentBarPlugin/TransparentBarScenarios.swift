// The seed's demo screens as scripted scenarios: a transparent header that fades in as the page
// scrolls, a pop back to a transparent page, and a swipe-back cancelled and then finished.
import Foundation
import Hooks
public import Scenarios
import UIKitModel

extension TransparentBarPlugin: ScenarioPlugin, BreakageGalleryPlugin {
  /// The seed's demo screens, in the order the lab lists them.
  public var scenarios: [Scenario] { TransparentBarScenarios.all }

  /// ETNavBarTransparent's reported breakages its scenarios reproduce.
  public var breakages: [Breakage] {
    [
      Breakage(
        name: "et-14", library: "ETNavBarTransparent",
        report: "EnderTan/ETNavBarTransparent issue 14",
        reported: "with barTintColor set, navBarBgAlpha = 0 no longer makes the bar transparent",
        mechanism: "ET fades _backgroundEffectView, but a bar tint colour is drawn by a view of"
          + " its own (_colorView), which stays",
        scenario: "transparent-bar-tint", profile: .ios13),
      Breakage(
        name: "et-33", library: "ETNavBarTransparent",
        report: "EnderTan/ETNavBarTransparent issue 33",
        reported: "in a presented navigation controller, navBarBgAlpha = 0 has no effect",
        mechanism: "on iOS 12 a presented navigation controller's bar gets _UIBarBackground only"
          + " once in the window (WRNavigationBar issue 153), after the page's viewDidLoad: ET's"
          + " subviews.first is then the content view, whose title fades instead",
        scenario: "transparent-presented", profile: .ios12),
      Breakage(
        name: "rt-299", library: "RTRootNavigationController",
        report: "rickytan/RTRootNavigationController issue 299",
        reported: "on iOS 15 the navigation bar turns white at the top of a page, and shows its"
          + " colour only once the content scrolls up",
        mechanism: "iOS 15 draws every navigation bar's scrollEdgeAppearance while the content is"
          + " at its top, transparent unless set, for apps built with the iOS 15 SDK"
          + " (infinum/ios-loggie issue 22); a bar styled with the legacy properties alone, as"
          + " ET's opaque page is, turns clear there. The maintainer's fix sets a"
          + " scrollEdgeAppearance with the default background",
        scenario: "transparent-scroll-edge", profile: .ios15),
      Breakage(
        name: "wr-182", library: "WRNavigationBar",
        report: "wangrui460/WRNavigationBar issue 182",
        reported: "on iOS 13 a tap on the back button crashes the app",
        mechanism: "WRNavigationBar's navigationBar:shouldPopItem: pops the stack by hand and"
          + " answers YES; from iOS 13, for an app built with the iOS 13 SDK, UIKit raises for"
          + " that (\"Override of -navigationBar:shouldPopItem: returned YES after manually"
          + " popping a view controller\", quoted in TZImagePickerController issue 1151, whose"
          + " reporter saw it with Xcode 11 and not with an Xcode 10 build; a commenter there"
          + " traced it to WRNavigationBar's method). The EM article's shouldPopItem, the"
          + " transparent plugin's seed, does the same; the issue's fix, as ET's iOS 13 variant,"
          + " answers YES without popping and lets UIKit pop",
        scenario: "transparent-back-button", profile: .ios13),
    ]
  }
}

/// The transparent-bar plugin's scenarios, each meant for the plugin: a run installs it unless
/// its options name other plugins.
public enum TransparentBarScenarios {
  /// The plugin's short name, `transparent`.
  static let plugin = TransparentBarPlugin().name

  /// Every scenario of the plugin.
  public static let all: [Scenario] = [
    header, popToTransparent, swipeBack, besideBarLayer, presented, barTint, scrollEdge,
    gallerySwipe, tabBar, backButton, sheet, largeTitle, search,
  ]

  /// The distance over which the header page's bar fades in: the demo's header, 136 points.
  static let fadeDistance: CGFloat = 136

  /// How opaque a translucent bar at alpha 1 looks: its background is 80 % opaque.
  static let translucentOpacity: CGFloat = 0.8

  /// What the user sees of a transparent page's bar: nothing of the background, white buttons.
  static let clearBar = ExpectedBar(backgroundAlpha: 0, tint: .white)

  /// What the user sees of an opaque page's bar: the translucent background, ET's blue buttons.
  static let opaqueBar = ExpectedBar(
    backgroundAlpha: translucentOpacity, tint: TransparentBarDefaults.tintColor)

  /// Where the seed's opaque bar shows clear: from iOS 15 a bar at its content's scroll edge
  /// takes its `scrollEdgeAppearance`, transparent by default, and ET sets only the legacy
  /// properties (seed-systems, "Cross-cutting themes").
  static let scrollEdgeProfiles = IOSProfile.names(linkedFrom: 15)

  /// A page whose bar is transparent over its header and fades in as it scrolls up: alpha
  /// `offset / 136`, the buttons white until half opaque, then ET's blue.
  public static let header = Scenario(
    name: "transparent-header",
    summary: "a transparent bar over a header, fading in as the page scrolls (alpha offset / 136)",
    plugin: plugin
  ) { context in
    let page = HeaderPage()
    let session = context.start(root: page)
    context.mark("transparent")
    context.expectBar(clearBar, "clear over the header")
    session.scroll(page.scrollView, by: fadeDistance / 4)
    context.mark("a quarter in")
    session.scroll(page.scrollView, by: fadeDistance / 2)
    context.mark("three quarters in")
    context.expectBar(
      ExpectedBar(
        backgroundAlpha: 0.75 * translucentOpacity, tint: TransparentBarDefaults.tintColor),
      "three quarters in, blue buttons past half")
    session.scroll(page.scrollView, by: fadeDistance)
    context.mark("opaque")
    context.expectBar(opaqueBar, "opaque once the header is gone")
  }

  /// An opaque page two deep over a transparent root: popping to the root snaps the bar to
  /// transparent, as ET's exchanged `popToRootViewControllerAnimated:` does.
  public static let popToTransparent = Scenario(
    name: "transparent-pop-to-root",
    summary: "two opaque pages over a transparent root; popToRoot snaps the bar back to clear",
    plugin: plugin
  ) { context in
    let root = transparentPage("Home")
    let session = context.start(root: root)
    session.navigationController.pushViewController(opaquePage("List"), animated: false)
    session.navigationController.pushViewController(opaquePage("Detail"), animated: false)
    VirtualRunLoop.main.runUntilIdle()
    context.mark("two deep")
    session.navigationController.popToRootViewController(animated: true)
    context.mark("popToRoot called")
    context.expectBar(clearBar, "clear as soon as popToRoot is called (ET snaps)")
    VirtualRunLoop.main.runUntilIdle()
    context.mark("at the root")
    context.expectBar(clearBar, "clear at the root")
  }

  /// ET issue 33: a navigation controller presented over the app, whose root page sets
  /// `navBarBgAlpha = 0` in `viewDidLoad`, in ``TransparentMode/seed`` and then in
  /// ``TransparentMode/fixed``. On iOS 12 the presented bar gets its background only once in
  /// the window (WRNavigationBar issue 153), so the seed's `subviews.first` is the content view:
  /// the title fades and the background stays, as the reporter saw; the fixed mode sets the
  /// alpha again when the bar inserts its background.
  public static let presented = Scenario(
    name: "transparent-presented",
    summary: "ET #33: a presented navigation controller's page sets alpha 0; seed, then fixed",
    plugin: plugin
  ) { context in
    TransparentBarPlugin.mode.withEach(TransparentMode.allCases) { mode in
      let session = context.start(root: opaquePage("Home"))
      let presented = UINavigationController(rootViewController: ClearOnLoad())
      session.navigationController.present(presented, animated: true)
      VirtualRunLoop.main.runUntilIdle()
      let seen = presented.navigationBar.asSeen(over: scenarioBackdrop)
      context.mark("\(mode): presented page", seenBar: seen)
      context.expect(
        seen.backgroundOpacity == 0, "\(mode): the presented page's bar is clear",
        seen: "background opacity \(seen.backgroundOpacity)",
        failsOn: mode == .seed ? ["12"] : [])
    }
  }

  /// ET issue 14: a transparent page in an app that set the bar's `barTintColor`, in
  /// ``TransparentMode/seed`` and then ``TransparentMode/fixed``. The seed fades the effect view
  /// alone and the tint, drawn by a view of its own, stays: the bar is red at 0.85, as the
  /// reporter saw, up to iOS 14 (from iOS 15, for an app built with its SDK, a bar drawn from
  /// legacy properties is clear at the top of a page anyway: the scroll-edge appearance).
  public static let barTint = Scenario(
    name: "transparent-bar-tint",
    summary: "ET #14: a transparent page under a bar with barTintColor; seed, then fixed",
    plugin: plugin
  ) { context in
    TransparentBarPlugin.mode.withEach(TransparentMode.allCases) { mode in
      let session = context.start(root: opaquePage("Home"))
      session.navigationController.navigationBar.barTintColor = .red
      session.navigationController.pushViewController(
        transparentPage("Profile"), animated: false)
      VirtualRunLoop.main.runUntilIdle()
      context.mark("\(mode): transparent page")
      context.expectBar(
        clearBar, "\(mode): clear under a bar tint",
        failsOn: mode == .seed
          ? IOSProfile.everyName.subtracting(IOSProfile.names(linkedFrom: 15)) : [])
    }
  }

  /// RTRootNavigationController issue 299 (the iOS 15 scroll edge), in ``TransparentMode/seed``
  /// and then ``TransparentMode/fixed``: an opaque page over a transparent one, its content at
  /// the top. The seed's bar is clear there from iOS 15 with the iOS 15 SDK (not with the iOS
  /// 14 SDK: `15/sdk14` holds); the fixed mode gives the bar a scroll-edge appearance with the
  /// default background, and a swipe back to the transparent page still fades it out.
  public static let scrollEdge = Scenario(
    name: "transparent-scroll-edge",
    summary: "RT #299: iOS 15's scroll edge turns ET's opaque page clear; seed, then fixed",
    plugin: plugin
  ) { context in
    TransparentBarPlugin.mode.withEach(TransparentMode.allCases) { mode in
      let session = startOnOpaqueDetail(context)
      context.mark("\(mode): opaque page, content at its top")
      context.expectBar(
        opaqueBar, "\(mode): the opaque page's bar at the top of its content",
        failsOn: mode == .seed ? scrollEdgeProfiles : [])
      session.tapBack()
      context.mark("\(mode): back on the transparent page")
      context.expectBar(clearBar, "\(mode): clear on the transparent page")
    }
  }

  /// WRNavigationBar issue 182: a tap on the back button of an opaque page over the transparent
  /// root, in ``TransparentMode/seed`` and then ``TransparentMode/fixed``. The seed (the EM
  /// article's `navigationBar:shouldPopItem:`) pops the stack by hand and answers YES, which
  /// iOS 13 and later (with the iOS 13 SDK) refuse with an exception ("Override of -navigationBar:shouldPopItem:
  /// returned YES after manually popping a view controller"; the model reports it as
  /// `UIKitModelIssue.shouldPopAfterManualPop`): WRNavigationBar's method did the
  /// same, and its users' apps crashed on the tap. ET's iOS 13 variant, the fixed mode, sets the
  /// bar's values and lets UIKit pop. Both end on the root with its clear bar.
  public static let backButton = Scenario(
    name: "transparent-back-button",
    summary: "WR #182: the back button; the seed pops by hand and says YES, UIKit's iOS 13 error",
    plugin: plugin
  ) { context in
    TransparentBarPlugin.mode.withEach(TransparentMode.allCases) { mode in
      let session = startOnOpaqueDetail(context)
      context.mark("\(mode): opaque page")
      let before = UIKitModelIssues.all.count
      session.tapBack()
      context.mark("\(mode): back button tapped")
      let raised = UIKitModelIssues.all.dropFirst(before).contains {
        if case .shouldPopAfterManualPop = $0 { true } else { false }
      }
      context.expect(
        !raised, "\(mode): the tap pops without UIKit's exception",
        seen: "shouldPopItem returned YES after popping by hand: UIKit raises from iOS 13",
        failsOn: mode == .seed ? IOSProfile.names(linkedFrom: 13) : [])
      let depth = session.navigationController.viewControllers.count
      context.expect(depth == 1, "\(mode): back on the root", seen: "\(depth) deep")
      context.expectBar(clearBar, "\(mode): clear on the transparent root")
    }
  }

  /// A page that makes its bar clear in `viewDidLoad`, as ET #33's reporter's did.
  private final class ClearOnLoad: UIViewController {
    override func viewDidLoad() {
      super.viewDidLoad()
      navBarBgAlpha = 0
    }
  }

  /// An opaque page over a transparent one: a swipe-back released at 30 % goes back to opaque,
  /// one released from 70 % finishes on the transparent page; alpha and tint follow the finger.
  public static let swipeBack = Scenario(
    name: "transparent-swipe-back",
    summary: "a swipe-back from an opaque page to a transparent one: cancelled, then finished",
    plugin: plugin
  ) { context in
    let session = startOnOpaqueDetail(context)
    context.mark("opaque")
    context.expectBar(opaqueBar, "opaque pushed page")
    session.swipeBack(to: 0.3)
    context.mark("cancelled at 30 %")
    context.expectBar(opaqueBar, "opaque again after a cancelled swipe")
    session.swipeBack(to: 0.7)
    context.mark("finished from 70 %")
    context.expectBar(clearBar, "clear on the transparent page")
  }

  /// In a tab: an opaque page that hides the tab bar, pushed on the transparent root and swiped
  /// back, cancelled then finished, in ``TransparentMode/seed`` and then
  /// ``TransparentMode/fixed``. The bar fades as in `transparent-swipe-back` (the seed's opaque
  /// bar clear at the scroll edge from iOS 15 with its SDK, as in `transparent-scroll-edge`);
  /// the tab bar leaves with the pushed page and stays hidden after the cancelled swipe. The
  /// seed's finished swipe does not pop: the article's `em_updateInteractiveTransition:` guard
  /// never lets a plain navigation controller's interactive pop be updated, so it ends at 0 %
  /// and cancels, and the tab bar stays hidden with the page (fails everywhere); fixed, the
  /// root and the tab bar come back. ET itself never touches the tab bar.
  public static let tabBar = Scenario(
    name: "transparent-tab-bar",
    summary: "in a tab: a page hiding the tab bar pushed and swiped back; seed, then fixed",
    plugin: plugin
  ) { context in
    TransparentBarPlugin.mode.withEach(TransparentMode.allCases) { mode in
      let session = context.start(tabs: [transparentPage("Home"), opaquePage("Other")])
      context.mark("\(mode): the first tab")
      let detail = opaquePage("Detail")
      detail.hidesBottomBarWhenPushed = true
      let seed = mode == .seed
      context.pushAndSwipeBackOverTabBar(
        detail, in: session, prefix: "\(mode): ",
        finishFailsOn: seed ? IOSProfile.everyName : []
      ) { step in
        let finished = step == "finished"
        context.expectBar(
          finished ? clearBar : opaqueBar, "\(mode): \(step): the top page's bar",
          failsOn: !seed ? [] : finished ? IOSProfile.everyName : scrollEdgeProfiles)
      }
    }
  }

  /// In a sheet: a transparent page at the root of a navigation controller presented in the
  /// default style (a card from iOS 13 with its SDK, full screen before), an opaque page pushed
  /// in it and swiped back, the sheet dragged down and let go, then dragged away. The sheet's
  /// bar is a bar of its own, 56 points tall in a card, and ET's alpha follows its pages there
  /// as on the app's stack; the app's own bar, opaque under the sheet, is untouched when the
  /// sheet leaves. Seed, then fixed: the seed's swipe back does not pop, as on the app's stack
  /// (`transparent-tab-bar`), and on iOS 12 its presented bar stays opaque (ET issue 33,
  /// `transparent-presented`).
  public static let sheet = Scenario(
    name: "transparent-sheet",
    summary:
      "in a sheet: a transparent page, a push and swipe back, the sheet dragged; seed, then fixed",
    plugin: plugin
  ) { context in
    TransparentBarPlugin.mode.withEach(TransparentMode.allCases) { mode in
      let session = context.start(root: opaquePage("Home"))
      let sheet = context.presentSheet(transparentPage("Sheet"), in: session, prefix: "\(mode): ")
      let seed = mode == .seed
      context.pushAndDragInSheet(
        sheet, pushing: opaquePage("Detail"), in: session, prefix: "\(mode): ",
        finishFailsOn: seed ? IOSProfile.everyName : []
      ) { step in
        switch step {
        case "pushed":
          context.expectBar(
            opaqueBar, "\(mode): pushed: opaque on the detail",
            failsOn: seed ? scrollEdgeProfiles : [])
        case "dismissed":
          context.expectBar(
            opaqueBar, "\(mode): dismissed: the app's opaque bar",
            failsOn: seed ? scrollEdgeProfiles : [])
        default:
          // iOS 12's presented bar is ET #33's (`transparent-presented`).
          let fails: Set<String> = step == "presented" ? ["12"] : IOSProfile.everyName
          context.expectBar(
            clearBar, "\(mode): \(step): clear on the sheet's root", failsOn: seed ? fails : [])
        }
      }
    }
  }

  /// A swipe back from a page filled by a sideways scroll view to the transparent page: the
  /// scroll view's own pan, nearer the finger, keeps the system's swipe (FDFullscreenPopGesture
  /// issue 61 reports the same of FD's pan); ET changes no gesture. With the app's usual answer,
  /// `scrollView.panGestureRecognizer.require(toFail: interactivePopGestureRecognizer)`, the
  /// swipe pops and ET's exchanged `_updateInteractiveTransition:` fades the bar to clear.
  public static let gallerySwipe = Scenario(
    name: "transparent-gallery-swipe",
    summary: "a swipe back over a sideways gallery: kept by it, then popping with require(toFail:)",
    plugin: plugin
  ) { context in
    let session = context.start(root: transparentPage("Home"))
    let gallery = SidewaysGalleryPage()
    session.push(gallery)
    context.mark("the gallery")
    context.expectBar(opaqueBar, "opaque on the gallery")
    context.swipeBackOverGallery(gallery, in: session)
    context.expectBar(clearBar, "clear on the transparent page")
  }

  /// ET's transparent page in an app that also installed the bar-layer plugin (two libraries on
  /// one stack, as real apps had them): the bar-layer plugin's hooks run inside the exchanged
  /// methods, after ET's replacements, and write the bar last, with WRNavigationBar's defaults
  /// for pages that set none of its values. So ET's page comes back opaque with blue buttons.
  public static let besideBarLayer = Scenario(
    name: "transparent-two-plugins",
    summary: "ET's transparent page with the bar-layer plugin installed too: the last writer wins",
    plugin: plugin, companions: ["bar-layer"]
  ) { context in
    let root = transparentPage("Home")
    let session = context.start(root: root)
    // The bar-layer plugin's defaults, written last: an opaque white bar with the system blue.
    let barLayerWins = ExpectedBar(
      background: .white, backgroundAlpha: 1,
      tint: UIColor(red: 0, green: 0.478431, blue: 1, alpha: 1))
    context.mark("transparent root")
    context.expectBar(barLayerWins, "ET's clear root comes out opaque")
    session.navigationController.pushViewController(opaquePage("Detail"), animated: true)
    VirtualRunLoop.main.runUntilIdle()
    context.mark("opaque page pushed")
    session.navigationController.popToRootViewController(animated: true)
    context.mark("popToRoot called")
    VirtualRunLoop.main.runUntilIdle()
    context.mark("back at the transparent root")
    context.expectBar(barLayerWins, "opaque again at the root")
  }

  /// A launch on the transparent page "Home" with the opaque page "Detail" pushed over it,
  /// without animation, run until idle: where the swipe-back, scroll-edge and back-button
  /// scenarios start.
  static func startOnOpaqueDetail(_ context: ScenarioContext) -> NavigationSession {
    let session = context.start(root: transparentPage("Home"))
    session.navigationController.pushViewController(opaquePage("Detail"), animated: false)
    VirtualRunLoop.main.runUntilIdle()
    return session
  }

  /// A page with a transparent bar and white buttons.
  static func transparentPage(_ title: String) -> UIViewController {
    let page = UIViewController()
    page.title = title
    page.navBarBgAlpha = 0
    page.navBarTintColor = .white
    return page
  }

  /// A page with the default opaque bar.
  static func opaquePage(_ title: String) -> UIViewController {
    let page = UIViewController()
    page.title = title
    return page
  }
}

/// The header page: a scroll view whose offset drives the bar's alpha and tint.
final class HeaderPage: UIViewController, UIScrollViewDelegate {
  let scrollView = UIScrollView(frame: .zero)

  override init() {
    super.init()
    title = "Profile"
    navBarBgAlpha = 0
    navBarTintColor = .white
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.frame = view.bounds
    scrollView.contentSize = CGSize(width: view.bounds.width, height: 2000)
    scrollView.delegate = self
    view.addSubview(scrollView)
  }

  func scrollViewDidScroll(_ scrollView: UIScrollView) {
    let alpha = scrollView.contentOffset.y / TransparentBarScenarios.fadeDistance
    navBarBgAlpha = alpha
    navBarTintColor = alpha > 0.5 ? TransparentBarDefaults.tintColor : .white
  }
}
