// The overlay plugin under large titles: the background-colour demo under a bar that prefers
// them, scrolled until blue and back.
import Foundation
public import Scenarios
import UIKitModel

extension OverlayBarScenarios {
  /// Large titles: the background-colour demo at the root of a navigation controller whose bar
  /// prefers large titles (from iOS 11; before, the plain bar), scrolled until its bar is blue,
  /// then back to the top. The overlay is made in the demo's first `viewWillAppear:`, with the
  /// large title showing: the seed's is the bar's height then (96 points on a phone) plus 20, and
  /// keeps that height, so once the content has scrolled the large title away and the bar is its
  /// row's height, it hangs 52 points below the bar over the page (the model's prediction from the
  /// seed's code and the large title's sourced heights; HBDNavigationBar issues 10 and 127 and
  /// YPNavigationBarTransition issue 31 say only that large titles are not supported). The fixed
  /// overlay follows the background. Seed, then fixed.
  public static let largeTitle = Scenario(
    name: "lt-large-title",
    summary: "large titles: the demo's blue bar as the large title scrolls away; seed, then fixed",
    plugin: plugin
  ) { context in
    let version = context.options.systemVersion
    let large = UIDevice.majorVersion(of: version) >= 11
    let row = UINavigationBar.height(on: context.options.device, systemVersion: version)
    let top = large ? row + UINavigationBar.largeTitleHeight : row
    for mode in OverlayMode.allCases {
      let page = BackgroundColorDemo(mode: mode)
      let session = context.start(navigationController: {
        let navigation = UINavigationController(rootViewController: page)
        if large { navigation.navigationBar.prefersLargeTitles = true }
        return navigation
      })
      let bar = session.navigationController.navigationBar
      context.mark("\(mode): the large title")
      context.expect(
        bar.barHeight == top, "\(mode): the bar's height at the top",
        seen: "\(bar.barHeight)")
      page.scrollView.contentOffset = CGPoint(x: 0, y: 150)
      context.mark("\(mode): scrolled 150, the large title gone")
      let seed = mode == .seed
      context.expectBar(
        ExpectedBar(background: demoBlue, backgroundAlpha: 1, height: row),
        "\(mode): the bar blue, its row's height",
        failsOn: seed ? IOSProfile.everyName.subtracting(IOSProfile.names(from: 11)) : [],
        onDevices: seed ? notchDevices : [])
      let below = context.colorBelowFrontBar()
      context.expect(
        below != UIColorComponents(demoBlue), "\(mode): nothing blue below the bar",
        seen: "blue 10 points below the bar",
        failsOn: seed ? IOSProfile.names(from: 11) : [])
      page.scrollView.contentOffset = .zero
      context.mark("\(mode): back at the top")
      context.expect(
        bar.barHeight == top, "\(mode): the large title back",
        seen: "\(bar.barHeight)")
    }
  }
}
