// The overlay plugin on a bar that grows below its row (iOS 11): the background-colour demo
// under a large title or with a search bar, scrolled until blue and back.
import Foundation
public import Scenarios
import UIKitModel

extension OverlayBarScenarios {
  /// Large titles: the background-colour demo under a bar that prefers large titles, scrolled until
  /// blue and back; seed, then fixed: the seed's overlay hangs 52 points below the bar once the
  /// title has gone. The script is `growing(_:)`'s, shared with ``search``.
  public static let largeTitle = growing(.largeTitle)

  /// Search in the navigation item: the same demo with a search controller in its navigation item:
  /// the seed's overlay hangs 56 points below the bar once the search bar has gone. The script is
  /// ``largeTitle``'s.
  public static let search = growing(.searchBar)

  /// The background-colour demo at the root of a navigation controller whose bar grows below
  /// its row (the bar prefers large titles, or the demo's item has a search controller; from
  /// iOS 11, the plain bar before), scrolled until its bar is blue, then back to the top. The
  /// overlay is made in the demo's first `viewWillAppear:`, with the part showing: the seed's is
  /// the bar's height then (96 points on a phone with a large title, 100 with a search bar)
  /// plus 20, and keeps that height, so once the content has scrolled the part away and the bar
  /// is its row's height, it hangs 52 or 56 points below the bar over the page on every version
  /// from 11 (the model's prediction from the seed's code and the parts' sourced heights; the
  /// reports say only that large titles, or a search controller in the navigation item, are not
  /// supported: HBDNavigationBar issues 10 and 127, YPNavigationBarTransition issue 31,
  /// EachNavigationBar issue 20). The fixed overlay follows the background. Seed, then fixed.
  static func growing(_ growth: BarGrowth) -> Scenario {
    Scenario(
      name: "lt-\(growth.scenarioSuffix)",
      summary: "\(growth.rawValue): the demo's blue bar as the \(growth.rawValue) scrolls away;"
        + " seed, then fixed",
      plugin: plugin
    ) { context in
      let device = context.options.device
      let version = context.options.systemVersion
      let (grown, row) = growth.barHeights(on: device, systemVersion: version)
      let part = growth.rawValue
      for mode in OverlayMode.allCases {
        let page = BackgroundColorDemo(mode: mode)
        let session = context.start(navigationController: {
          let navigation = UINavigationController(rootViewController: page)
          growth.add(to: navigation, page: page)
          return navigation
        })
        let bar = session.navigationController.navigationBar
        context.mark("\(mode): the \(part)")
        context.expect(
          bar.barHeight == grown, "\(mode): the bar's height at the top",
          seen: "\(bar.barHeight)")
        page.scrollView.contentOffset = CGPoint(x: 0, y: 150)
        context.mark("\(mode): scrolled 150, the \(part) gone")
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
          bar.barHeight == grown, "\(mode): the \(part) back", seen: "\(bar.barHeight)")
      }
    }
  }
}
