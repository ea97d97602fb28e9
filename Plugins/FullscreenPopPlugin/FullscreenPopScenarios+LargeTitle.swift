// The fullscreen-pop plugin under large titles: a page without one pushed on a root that shows
// one, swiped back from mid-screen, cancelled then finished.
import Foundation
import Hooks
public import Scenarios
import UIKitModel

extension FullscreenPopScenarios {
  /// Large titles: a root page under a bar that prefers large titles (from iOS 11; before, the
  /// plain bar), the opaque page pushed with `largeTitleDisplayMode = .never`, then swiped back
  /// from the middle of the screen, released at 30 % (cancelled) and from 70 % (finished), with
  /// the article's custom pop (`article: ...`) and FD's hijack of the system's (`hijack: ...`).
  /// The bar's height follows the transition either way: the row's after the cancelled swipe,
  /// the large title's back after the finished one. The model's large title animates its
  /// height over a pop's duration, not with the finger (the model's reading, in
  /// `Docs/UIKitModel.md`); no report names either technique with large titles.
  public static let largeTitle = Scenario(
    name: "fd-large-title",
    summary: "large titles: a page without one swiped back from mid-screen; article, then hijack",
    plugin: plugin
  ) { context in
    let version = context.options.systemVersion
    let large = UIDevice.majorVersion(of: version) >= 11
    let row = UINavigationBar.height(on: context.options.device, systemVersion: version)
    let top = large ? row + UINavigationBar.largeTitleHeight : row
    let largeTitle: UIColor? = large ? .black : nil
    FullscreenPopPlugin.technique.withEach([PopTechnique.article, .hijack]) { technique in
      let name = technique.rawValue
      let session = context.start(navigationController: {
        let navigation = UINavigationController(rootViewController: homePage())
        if large { navigation.navigationBar.prefersLargeTitles = true }
        return navigation
      })
      context.mark("\(name): home, its large title")
      context.expectBar(ExpectedBar(height: top, largeTitleColor: largeTitle), "\(name): home")
      let detail = opaquePage()
      // Set once the model runs the cell's version: the property is refused before iOS 11.
      if large { detail.navigationItem.largeTitleDisplayMode = .never }
      session.push(detail)
      context.mark("\(name): the detail, no large title")
      context.expectBar(ExpectedBar(height: row), "\(name): the row's height on the detail")
      session.swipeBack(to: 0.3, from: 200)
      context.mark("\(name): cancelled at 30 %")
      expectTop("Detail", "\(name): still on the detail", context)
      context.expectBar(ExpectedBar(height: row), "\(name): the row's height after the cancel")
      session.swipeBack(to: 0.7, from: 200)
      context.mark("\(name): back home")
      expectTop("Home", "\(name): back home", context)
      context.expectBar(
        ExpectedBar(height: top, largeTitleColor: largeTitle), "\(name): the large title back")
    }
  }
}
