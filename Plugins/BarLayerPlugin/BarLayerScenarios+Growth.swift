// The bar-layer plugin on a bar that grows below its row (iOS 11): a coloured page under a large
// title or with a search bar, scrolled until the part collapses, then an opaque page pushed and
// popped.
import Foundation
public import Scenarios
import UIKitModel

extension BarLayerScenarios {
  /// Large titles: a green page under a bar that prefers large titles, the title collapsed by a
  /// scroll and back, an opaque page pushed and popped: the plugin's view and title colour reach
  /// the large title, where WRNavigationBar's do not (its issue 88). The script is `growing(_:)`'s,
  /// shared with ``search``.
  public static let largeTitle = growing(.largeTitle)

  /// Search in the navigation item: the same green page with a search controller in its navigation
  /// item: the plugin's view covers the search bar too. The script is ``largeTitle``'s.
  public static let search = growing(.searchBar)

  /// A green page at the root of a navigation controller whose bar grows below its row (a large
  /// title, or a search bar in the page's item; from iOS 11, the plain bar before), its content
  /// scrolled until the part has collapsed and back, then the opaque page pushed (without the
  /// part) and popped. WRNavigationBar's background view is as tall as the status bar and the
  /// bar's row (its hard-coded 64 or 88), and with `prefersLargeTitles` "all of WR's settings
  /// fail" (WRNavigationBar issue 88): the part of the bar below the row shows the system's
  /// background, which the plugin cleared; its title colour never reaches a large title either,
  /// which has attributes of its own. The plugin's view follows the bar's background as the part
  /// comes and goes, and its title colour goes to the large title too, so the bar is green all
  /// over with a white title.
  static func growing(_ growth: BarGrowth) -> Scenario {
    Scenario(
      name: "bar-layer-\(growth.scenarioSuffix)",
      summary: "\(growth.rawValue): a green bar as the \(growth.rawValue) collapses, a push, a pop",
      plugin: plugin
    ) { context in
      let device = context.options.device
      let version = context.options.systemVersion
      let (grown, row) = growth.barHeights(on: device, systemVersion: version)
      let large = growth == .largeTitle && growth.exists(on: version)
      let green = UIColor(red: 0, green: 0.72, blue: 0.55, alpha: 1)
      let screen = ScrollingScreen(title: "Lagou") { _, _ in }
      screen.navBarBarTintColor = green
      screen.navBarTitleColor = .white
      screen.navBarTintColor = .white
      let (_, opaque) = transparentAndOpaque()
      let session = context.start(navigationController: {
        let navigation = UINavigationController(rootViewController: screen)
        growth.add(to: navigation, page: screen)
        return navigation
      })
      let bar = session.navigationController.navigationBar
      growth.leaveOut(of: opaque)
      // With a large title showing, the row's title is transparent and the large one white.
      let greenBar = ExpectedBar(
        background: green, backgroundAlpha: 1, titleColor: large ? nil : .white,
        largeTitleColor: large ? .white : nil)
      context.mark("the \(growth.rawValue)")
      var top = greenBar
      top.height = grown
      context.expectBar(top, "green all over the bar with its \(growth.rawValue)")
      // Where a scroll ends, set at once: the checks read the end, not the drag's frames.
      screen.scrollView.contentOffset = CGPoint(x: 0, y: 150)
      context.mark("scrolled, the \(growth.rawValue) gone")
      context.expectBar(
        ExpectedBar(background: green, backgroundAlpha: 1, titleColor: .white, height: row),
        "green, the row's height, its title white")
      screen.scrollView.contentOffset = .zero
      context.mark("back at the top")
      context.expectBar(greenBar, "green with the \(growth.rawValue) back")
      session.navigationController.pushViewController(opaque, animated: true)
      session.waitUntilIdle()
      context.mark("pushed")
      context.expectBar(opaqueBar, "the opaque page's white bar")
      context.expect(bar.barHeight == row, "pushed: the row's height", seen: "\(bar.barHeight)")
      session.navigationController.popViewController(animated: true)
      session.waitUntilIdle()
      context.mark("popped")
      context.expectBar(greenBar, "green with the \(growth.rawValue) again")
      context.expect(
        bar.barHeight == grown, "popped: the \(growth.rawValue)'s height",
        seen: "\(bar.barHeight)")
    }
  }
}
