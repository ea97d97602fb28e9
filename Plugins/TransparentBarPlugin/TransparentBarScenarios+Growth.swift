// The transparent-bar plugin on a bar that grows below its row (iOS 11): an opaque list under a
// large title or with a search bar, at the top of its content and scrolled, then the
// transparent page pushed and popped.
import Foundation
import Hooks
public import Scenarios
import UIKitModel

extension TransparentBarScenarios {
  /// Large titles: an opaque list under a bar that prefers large titles, at its top and scrolled,
  /// the transparent page pushed and popped; seed, then fixed: the seed's list is clear at its top
  /// from iOS 13, where the bar draws its transparent scroll edge. The script is `growing(_:)`'s,
  /// shared with ``search``.
  public static let largeTitle = growing(.largeTitle)

  /// Search in the navigation item: the same list with a search controller in its navigation item;
  /// seed, then fixed: the seed's list is clear at its top from iOS 15 only. The script is
  /// ``largeTitle``'s.
  public static let search = growing(.searchBar)

  /// An opaque list at the root of a navigation controller whose bar grows below its row (a
  /// large title, or a search bar in the list's item; from iOS 11, the plain bar before), at the
  /// top of its content, scrolled until the part has gone and back, then the transparent page
  /// pushed and popped; seed, then fixed. From iOS 13, for an app built with its SDK, a bar
  /// draws its `scrollEdgeAppearance` (transparent unless set) while its content is at the top,
  /// before iOS 15 only with a large title (Apple's documentation of `scrollEdgeAppearance`;
  /// iOS 15 draws it on every bar, the mechanism of RTRootNavigationController issue 299 and
  /// `transparent-scroll-edge`). ET styles the bar with the legacy properties alone, so its
  /// opaque list is clear at the top: from iOS 13 under a large title, from iOS 15 with a search
  /// bar (the model's prediction from those sources: no report names ET with either), and
  /// opaque once scrolled. The fixed mode gives the bar a scroll-edge appearance with its legacy
  /// look wherever the bar draws one.
  static func growing(_ growth: BarGrowth) -> Scenario {
    Scenario(
      name: "transparent-\(growth.scenarioSuffix)",
      summary: "\(growth.rawValue): an opaque list at its top and scrolled, a push and pop; seed,"
        + " fixed",
      plugin: plugin
    ) { context in
      // Where the bar draws its scroll edge at the top of the list.
      let scrollEdge =
        growth == .largeTitle ? IOSProfile.names(linkedFrom: 13) : scrollEdgeProfiles
      let (grown, row) = growth.barHeights(
        on: context.options.device, systemVersion: context.options.systemVersion)
      TransparentBarPlugin.mode.withEach(TransparentMode.allCases) { mode in
        let list = ListPage(title: "Inbox")
        let session = context.start(navigationController: {
          let navigation = UINavigationController(rootViewController: list)
          growth.add(to: navigation, page: list)
          return navigation
        })
        let fails = mode == .seed ? scrollEdge : []
        let part = growth.rawValue
        context.mark("\(mode): the list at its top")
        context.expectBar(opaqueBar, "\(mode): opaque at the top, the \(part)", failsOn: fails)
        // Where a scroll ends, set at once: the checks read the end, not the drag's frames.
        list.scrollView.contentOffset = CGPoint(x: 0, y: 150)
        context.mark("\(mode): scrolled, the \(part) gone")
        context.expectBar(opaqueBar, "\(mode): opaque once scrolled")
        context.expectBar(ExpectedBar(height: row), "\(mode): scrolled: the row's height")
        list.scrollView.contentOffset = .zero
        context.mark("\(mode): back at the top")
        context.expectBar(opaqueBar, "\(mode): opaque at the top again", failsOn: fails)
        context.expectBar(
          ExpectedBar(height: grown), "\(mode): at the top: the \(part)'s height")
        session.push(transparentPage("Profile"))
        context.mark("\(mode): the transparent page")
        context.expectBar(clearBar, "\(mode): clear on the transparent page")
        session.tapBack()
        context.mark("\(mode): back on the list")
        context.expectBar(opaqueBar, "\(mode): opaque on the list again", failsOn: fails)
      }
    }
  }
}
