// The fullscreen-pop plugin on a bar that grows below its row (iOS 11): a page without a large
// title or search bar pushed on a root that has one, swiped back from mid-screen, cancelled then
// finished.
import Foundation
import Hooks
public import Scenarios
import UIKitModel

extension FullscreenPopScenarios {
  /// Large titles: a page without a large title pushed on a root that shows one and swiped back
  /// from mid-screen, cancelled then finished, with the article's pop and FD's hijack: the bar's
  /// height follows. The script is `growing(_:)`'s, shared with ``search``.
  public static let largeTitle = growing(.largeTitle)

  /// Search in the navigation item: the same with a search controller in the root's navigation
  /// item. The script is ``largeTitle``'s.
  public static let search = growing(.searchBar)

  /// A root page on a bar that grows below its row (a large title, or a search bar in the
  /// page's item; from iOS 11, the plain bar before), the opaque page pushed without the part,
  /// then swiped back from the middle of the screen, released at 30 % (cancelled) and from 70 %
  /// (finished), with the article's custom pop (`article: ...`) and FD's hijack of the system's
  /// (`hijack: ...`). The bar's height follows the transition either way: the row's after the
  /// cancelled swipe, the part back after the finished one. The model animates the height over
  /// a pop's duration, not with the finger (the model's reading, in `Docs/UIKitModel.md`); no
  /// report names either technique with large titles or search.
  static func growing(_ growth: BarGrowth) -> Scenario {
    Scenario(
      name: "fd-\(growth.scenarioSuffix)",
      summary: "\(growth.rawValue): a page without one swiped back from mid-screen; article,"
        + " then hijack",
      plugin: plugin
    ) { context in
      let device = context.options.device
      let version = context.options.systemVersion
      let (grown, row) = growth.barHeights(on: device, systemVersion: version)
      let largeTitle: UIColor? =
        growth == .largeTitle && growth.exists(on: version) ? .black : nil
      let part = growth.rawValue
      FullscreenPopPlugin.technique.withEach([PopTechnique.article, .hijack]) { technique in
        let name = technique.rawValue
        let session = context.start(navigationController: {
          let home = homePage()
          let navigation = UINavigationController(rootViewController: home)
          growth.add(to: navigation, page: home)
          return navigation
        })
        context.mark("\(name): home, its \(part)")
        context.expectBar(
          ExpectedBar(height: grown, largeTitleColor: largeTitle), "\(name): home")
        let detail = opaquePage()
        growth.leaveOut(of: detail)
        session.push(detail)
        context.mark("\(name): the detail, no \(part)")
        context.expectBar(ExpectedBar(height: row), "\(name): the row's height on the detail")
        session.swipeBack(to: 0.3, from: 200)
        context.mark("\(name): cancelled at 30 %")
        expectTop("Detail", "\(name): still on the detail", context)
        context.expectBar(ExpectedBar(height: row), "\(name): the row's height after the cancel")
        session.swipeBack(to: 0.7, from: 200)
        context.mark("\(name): back home")
        expectTop("Home", "\(name): back home", context)
        context.expectBar(
          ExpectedBar(height: grown, largeTitleColor: largeTitle), "\(name): the \(part) back")
      }
    }
  }
}
