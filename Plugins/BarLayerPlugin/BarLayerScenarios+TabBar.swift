// The bar-layer plugin in a tab bar controller (a page that hides the tab bar, pushed and swiped
// back, then the other tab and back) and in a sheet.
import Foundation
public import Scenarios
import UIKitModel

extension BarLayerScenarios {
  /// The transparent page at the root of a tab, and an opaque one that hides the tab bar pushed
  /// on it and swiped back, cancelled then finished: the bars follow the pages as they do
  /// without tabs, and the tab bar leaves with the pushed page, stays hidden after the
  /// cancelled swipe and comes back with the finished one. (HBDNavigationBar issue 192 reports
  /// the tab bar vanishing after a cancelled swipe on an iPad with iOS 18; the report gives no
  /// mechanism, so the model does not reproduce it.) Then a tap on the second tab, whose own
  /// bar is the plugin's default, and back: each tab's navigation controller keeps its look.
  public static let tabBar = Scenario(
    name: "bar-layer-tab-bar",
    summary: "a page hiding the tab bar pushed and swiped back, then the other tab and back",
    plugin: plugin
  ) { context in
    let (transparent, opaque) = transparentAndOpaque()
    opaque.hidesBottomBarWhenPushed = true
    let other = UIViewController()
    other.title = "Other"
    let session = context.start(tabs: [transparent, other])
    context.mark("the first tab")
    context.expectBar(transparentBar, "transparent at the root")
    context.expectTabBar(hidden: false, "the tab bar at the root")
    context.pushAndSwipeBackOverTabBar(opaque, in: session) { step in
      context.expectBar(
        step == "finished" ? transparentBar : opaqueBar, "\(step): the top page's bar")
    }
    session.selectTab(1)
    context.mark("the second tab")
    context.expectBar(opaqueBar, "the plugin's default bar on the second tab")
    session.selectTab(0)
    context.mark("back on the first tab")
    context.expectBar(transparentBar, "the first tab's transparent bar again")
  }

  /// In a sheet: the transparent page at the root of a navigation controller presented in the
  /// default style (a card from iOS 13 with its SDK, full screen before), the opaque page pushed
  /// in it and swiped back, the sheet dragged down and let go, then dragged away. The sheet's
  /// bar follows its pages as the app's does; the app's own bar, under the sheet, keeps its
  /// look when the sheet leaves (a card's presenter hears no `viewWillAppear:`, which the plugin
  /// styles the bar in, and needs none: its bar never changed). In a card the status bar stays
  /// the app's: Apple documents that a presentation that does not cover the screen hands it
  /// over only when the presented controller sets `modalPresentationCapturesStatusBarAppearance`,
  /// so the transparent page's light status bar applies full screen only.
  public static let sheet = Scenario(
    name: "bar-layer-sheet",
    summary: "in a sheet: a transparent page, a push and swipe back, the sheet dragged",
    plugin: plugin
  ) { context in
    let home = UIViewController()
    home.title = "Home"
    let session = context.start(root: home)
    let (transparent, opaque) = transparentAndOpaque()
    let sheet = context.presentSheet(transparent, in: session)
    var inCard = transparentBar
    if context.isCard(sheet) { inCard.statusBarStyle = .default }
    context.pushAndDragInSheet(sheet, pushing: opaque, in: session) { step in
      switch step {
      case "pushed": context.expectBar(opaqueBar, "pushed: the opaque page's bar")
      case "dismissed": context.expectBar(opaqueBar, "dismissed: the app's own bar, the default")
      default: context.expectBar(inCard, "\(step): transparent on the sheet's root")
      }
    }
  }
}
