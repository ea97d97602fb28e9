// The bar-layer plugin under large titles: a coloured page at the root of a bar that prefers
// them, scrolled until the title collapses, then an opaque page pushed and popped.
import Foundation
public import Scenarios
import UIKitModel

extension BarLayerScenarios {
  /// Large titles: a green page at the root of a navigation controller whose bar prefers large
  /// titles (from iOS 11; before, the plain bar), then its content scrolled until the large
  /// title has collapsed and back, then the opaque page pushed (it shows no large title) and
  /// popped. WRNavigationBar's background view is as tall as the status bar and the bar's row
  /// (its hard-coded 64 or 88), and with `prefersLargeTitles` "all of WR's settings fail"
  /// (WRNavigationBar issue 88): the large title's part of the bar, below the row, shows the
  /// system's background, which the plugin cleared. The plugin's view follows the bar's
  /// background as the large title comes and goes, so the bar is green all over.
  public static let largeTitle = Scenario(
    name: "bar-layer-large-title",
    summary: "large titles: a green bar as the large title collapses, a push and a pop",
    plugin: plugin
  ) { context in
    let version = context.options.systemVersion
    let large = UIDevice.majorVersion(of: version) >= 11
    let row = UINavigationBar.height(on: context.options.device, systemVersion: version)
    let top = large ? row + UINavigationBar.largeTitleHeight : row
    let green = UIColor(red: 0, green: 0.72, blue: 0.55, alpha: 1)
    let screen = ScrollingScreen(title: "Lagou") { _, _ in }
    screen.navBarBarTintColor = green
    screen.navBarTitleColor = .white
    screen.navBarTintColor = .white
    let (_, opaque) = transparentAndOpaque()
    let session = context.start(navigationController: {
      let navigation = UINavigationController(rootViewController: screen)
      if large { navigation.navigationBar.prefersLargeTitles = true }
      return navigation
    })
    let bar = session.navigationController.navigationBar
    // Set once the model runs the cell's version: the property is refused before iOS 11.
    if large { opaque.navigationItem.largeTitleDisplayMode = .never }
    // With the large title showing, the row's title is transparent and the large one white.
    let greenBar = ExpectedBar(
      background: green, backgroundAlpha: 1, largeTitleColor: large ? .white : nil)
    context.mark("the large title")
    context.expectBar(
      ExpectedBar(
        background: green, backgroundAlpha: 1, height: top, largeTitleColor: large ? .white : nil),
      "green all over the bar, its large title white")
    session.scroll(screen.scrollView, by: 150)
    context.mark("scrolled, the large title gone")
    context.expectBar(
      ExpectedBar(background: green, backgroundAlpha: 1, titleColor: .white, height: row),
      "green, the row's height, its title white")
    session.scroll(screen.scrollView, by: -150)
    context.mark("back at the top")
    context.expectBar(greenBar, "green with the large title back")
    session.navigationController.pushViewController(opaque, animated: true)
    session.waitUntilIdle()
    context.mark("pushed")
    context.expectBar(opaqueBar, "the opaque page's white bar")
    context.expect(bar.barHeight == row, "pushed: the row's height", seen: "\(bar.barHeight)")
    session.navigationController.popViewController(animated: true)
    session.waitUntilIdle()
    context.mark("popped")
    context.expectBar(greenBar, "green with the large title again")
    context.expect(
      bar.barHeight == top, "popped: the large title's height", seen: "\(bar.barHeight)")
  }
}
