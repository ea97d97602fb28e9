// The animator plugin on a bar that grows below its row (iOS 11): the cyan list pushed under a
// large title or with a search bar, scrolled until the part has gone and back, then popped.
import Foundation
public import Scenarios
import UIKitModel

extension AnimatorTransitionScenarios {
  /// Large titles: the cyan list pushed under a bar that prefers large titles, scrolled and popped;
  /// the seed's subclass, then the plugin: the seed's large title stays black, the plugin's is
  /// white. The script is `growing(_:)`'s, shared with ``search``.
  public static let largeTitle = growing(.largeTitle)

  /// Search in the navigation item: the same with a search controller in the cyan list's navigation
  /// item. The script is ``largeTitle``'s.
  public static let search = growing(.searchBar)

  /// The home page, then the cyan list pushed on a bar that grows below its row for it (the bar
  /// prefers large titles, or the list's item has a search controller; from iOS 11, the plain
  /// bar before), scrolled until the part has gone and back, then popped; the seed's subclass,
  /// then the plugin. KJ sets the title's colour through the title attributes alone, and a large
  /// title has attributes of its own (Apple's `largeTitleTextAttributes`): the seed's large title
  /// stays black on the cyan bar; the plugin colours it too. The seed's background view is the
  /// bar's height plus 20 when it is made (during the first push), with flexible margins and a
  /// fixed size, so it keeps that height as the part comes and goes. Where it then sits depends
  /// on how UIKit splits a height change between two flexible margins that are both zero, which
  /// Apple does not document (its documentation shares a change in proportion to the flexible
  /// parts), so the seed's colour below the bar and in the status bar's strip is not checked:
  /// the model shares it evenly, and the timeline shows what that gives: once the bar's height
  /// has changed, the seed's colours are not checked (one jump or many small steps end in
  /// different places). The plugin's view follows the bar's background.
  static func growing(_ growth: BarGrowth) -> Scenario {
    Scenario(
      name: "kj-\(growth.scenarioSuffix)",
      summary: "\(growth.rawValue): the cyan list pushed, scrolled and popped; seed, then plugin",
      plugin: plugin
    ) { context in
      let device = context.options.device
      let version = context.options.systemVersion
      let (grown, row) = growth.barHeights(on: device, systemVersion: version)
      let large = growth == .largeTitle && growth.exists(on: version)
      let part = growth.rawValue
      for mode in AnimatorMode.allCases {
        runHalf(
          mode, context,
          configure: { navigation in
            if large { navigation.navigationBar.prefersLargeTitles = true }
          }
        ) { session in
          let bar = session.navigationController.navigationBar
          context.mark("\(mode): home")
          let list = CyanList()
          if growth == .searchBar { growth.add(to: session.navigationController, page: list) }
          session.push(list)
          context.mark("\(mode): the cyan list")
          // The seed's view is short on a notch device (its 20 points for the status bar): the
          // bar's middle is past it unless the part made it taller (iOS 10 has none).
          let short =
            mode == .seed ? IOSProfile.everyName.subtracting(IOSProfile.names(from: 11)) : []
          let seedDevices = mode == .seed ? notchDevices : []
          context.expectBar(
            ExpectedBar(background: .cyan, backgroundAlpha: 1, height: grown),
            "\(mode): cyan, the \(part)'s height", failsOn: short, onDevices: seedDevices)
          if large {
            context.expectBar(
              ExpectedBar(largeTitleColor: .white), "\(mode): the large title white",
              failsOn: mode == .seed ? IOSProfile.everyName : [])
          }
          // Where a scroll ends, set at once: the checks read the end, not the drag's frames.
          list.scrollView.contentOffset = CGPoint(x: 0, y: 150)
          context.mark("\(mode): scrolled, the \(part) gone")
          // Once the bar's height has changed, where the seed's view sits is the undocumented
          // split's: its colours are not checked from here on, only the heights and the title.
          let seed = mode == .seed
          context.expectBar(
            ExpectedBar(
              background: seed ? nil : .cyan, backgroundAlpha: seed ? nil : 1,
              titleColor: .white, height: row),
            "\(mode): the row's height, its title white")
          if !seed {
            context.expect(
              context.colorBelowFrontBar() != UIColorComponents(.cyan),
              "\(mode): nothing cyan below the bar", seen: "cyan 10 points below the bar")
          }
          list.scrollView.contentOffset = .zero
          context.mark("\(mode): back at the top")
          context.expect(
            bar.barHeight == grown, "\(mode): the \(part) back", seen: "\(bar.barHeight)")
          session.pop()
          context.mark("\(mode): home again")
          context.expectBar(
            ExpectedBar(
              background: seed ? nil : .white, backgroundAlpha: seed ? nil : 1,
              height: large ? grown : row),
            "\(mode): home's height")
        }
      }
    }
  }

  /// The demo's cyan page as a list.
  private final class CyanList: ListPage {
    init() {
      super.init(title: "Cyan")
      kj_navigationBarTintColor = .cyan
      kj_navigationTitleColor = .white
    }
  }
}
