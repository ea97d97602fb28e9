// The fullscreen-pop plugin beside an active search: a page that prefers no bar, pushed from the
// results of a search whose bar sits at the top of the page (a table header's), as QMUI_iOS
// issue 479 reports it for QMUI's own per-page bar.
import Foundation
import Hooks
public import Scenarios
import UIKitModel

extension FullscreenPopScenarios {
  /// QMUI_iOS issue 479 (iOS 12; issue 166 on iOS 10.3, NavigationBackport issue 35 on iOS 16):
  /// the search activated from its field hides the bar, a page that prefers no bar is pushed
  /// from the results and swiped back from, then the search is dismissed, with FD as written
  /// (`hijack-seed: ...`) and fixed (`hijack: ...`).
  ///
  /// While it is active, the search sets the bar's visibility from its navigation controller's
  /// will-show, after the arriving page's `viewWillAppear:`, where FD applies the page's
  /// preference: FD as written sees the bar shown on its page (fails everywhere), and, back on
  /// the search, its `viewWillDisappear:` shows the bar for the search's page, which never
  /// said (FD issue 5's mechanism; fails everywhere). Fixed, the preference is applied again
  /// alongside the transition, which runs after the search's will-show, and pages that state
  /// no preference are left alone.
  public static let searchActive = Scenario(
    name: "fd-search-active",
    summary: "QMUI issue 479: a page preferring no bar pushed from an active search; seed, then"
      + " fixed",
    plugin: plugin
  ) { context in
    FullscreenPopPlugin.technique.withEach([PopTechnique.hijackSeed, .hijack]) { technique in
      let name = technique.rawValue
      let seedFails = technique == .hijackSeed ? IOSProfile.everyName : []
      let home = SearchResultsPage()
      let session = context.start(root: home)
      home.search.searchBar.becomeFirstResponder()
      session.waitUntilIdle()
      context.mark("\(name): searching")
      expectBarHidden(true, "\(name): the search hides the bar", context)
      let detail = opaquePage()
      detail.fdPrefersNavigationBarHidden = true
      session.push(detail)
      context.mark("\(name): a page that prefers no bar, pushed from the results")
      expectBarHidden(true, "\(name): no bar on the pushed page", context, failsOn: seedFails)
      session.swipeBack(to: 0.7, from: 200)
      context.mark("\(name): swiped back to the search")
      expectTop("Search", "\(name): back on the search", context)
      expectBarHidden(true, "\(name): still searching, no bar", context, failsOn: seedFails)
      home.search.isActive = false
      session.waitUntilIdle()
      context.mark("\(name): the search dismissed")
      expectBarHidden(false, "\(name): the bar is back", context)
    }
  }
}

/// A page whose search bar sits at the top of its content, as a table header's, with its
/// search controller.
public final class SearchResultsPage: UIViewController {
  /// The page's search controller; its search bar is at the top of the page's view.
  public let search = UISearchController(searchResultsController: nil)

  /// A page titled `Search`.
  public override init() {
    super.init()
    title = "Search"
  }

  public override func viewDidLoad() {
    super.viewDidLoad()
    view.backgroundColor = .white
    search.searchBar.frame = CGRect(x: 0, y: 64, width: view.bounds.width, height: 56)
    view.addSubview(search.searchBar)
  }
}
