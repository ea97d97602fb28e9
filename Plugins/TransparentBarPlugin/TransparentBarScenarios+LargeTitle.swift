// The transparent-bar plugin under large titles: an opaque list at the root of a bar that
// prefers them, at the top of its content and scrolled, then the transparent page pushed and
// popped.
import Foundation
import Hooks
public import Scenarios
import UIKitModel

extension TransparentBarScenarios {
  /// Large titles: an opaque list at the root of a navigation controller whose bar prefers large
  /// titles (from iOS 11; before, the plain bar), at the top of its content, scrolled until the
  /// large title has gone and back, then the transparent page pushed and popped; seed, then
  /// fixed. From iOS 13, for an app built with its SDK, a bar draws its `scrollEdgeAppearance`
  /// (transparent unless set) while its content is at the top, before iOS 15 only with a large
  /// title (Apple's documentation of `scrollEdgeAppearance`; iOS 15 draws it on every bar, the
  /// mechanism of RTRootNavigationController issue 299 and `transparent-scroll-edge`). ET styles
  /// the bar with the legacy properties alone, so its opaque list is clear at the top from
  /// iOS 13 (the model's prediction from those sources: no report names ET with large titles),
  /// and opaque once scrolled. The fixed mode gives the bar a scroll-edge appearance with its
  /// legacy look wherever the bar draws one.
  public static let largeTitle = Scenario(
    name: "transparent-large-title",
    summary: "large titles: an opaque list at its top and scrolled, a push and pop; seed, fixed",
    plugin: plugin
  ) { context in
    let large = UIDevice.majorVersion(of: context.options.systemVersion) >= 11
    // Where the bar draws its scroll edge at the top of a page with a large title.
    let scrollEdge = IOSProfile.names(linkedFrom: 13)
    TransparentBarPlugin.mode.withEach(TransparentMode.allCases) { mode in
      let list = ListPage("Inbox")
      let session = context.start(navigationController: {
        let navigation = UINavigationController(rootViewController: list)
        if large { navigation.navigationBar.prefersLargeTitles = true }
        return navigation
      })
      let fails = mode == .seed ? scrollEdge : []
      context.mark("\(mode): the list at its top")
      context.expectBar(opaqueBar, "\(mode): opaque at the top, the large title", failsOn: fails)
      session.scroll(list.scrollView, by: 150)
      context.mark("\(mode): scrolled, the large title gone")
      context.expectBar(opaqueBar, "\(mode): opaque once scrolled")
      session.scroll(list.scrollView, by: -150)
      context.mark("\(mode): back at the top")
      context.expectBar(opaqueBar, "\(mode): opaque at the top again", failsOn: fails)
      session.push(transparentPage("Profile"))
      context.mark("\(mode): the transparent page")
      context.expectBar(clearBar, "\(mode): clear on the transparent page")
      session.tapBack()
      context.mark("\(mode): back on the list")
      context.expectBar(opaqueBar, "\(mode): opaque on the list again", failsOn: fails)
    }
  }

  /// A list with the default opaque bar: a scroll view over its whole view, as a table view
  /// controller's.
  private final class ListPage: UIViewController {
    let scrollView = UIScrollView(frame: .zero)

    init(_ title: String) {
      super.init()
      self.title = title
    }

    override func viewDidLoad() {
      super.viewDidLoad()
      scrollView.frame = view.bounds
      scrollView.contentSize = CGSize(width: view.bounds.width, height: 2000)
      view.addSubview(scrollView)
    }
  }
}
