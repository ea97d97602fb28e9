// What makes a navigation bar taller than its row from iOS 11, for the scenarios that run a
// plugin on each: a large title, or a search bar in the navigation item.
public import UIKitModel

/// A part that grows a navigation bar below its row (iOS 11 and later): the scenarios of the
/// large titles and of search in the navigation item run the same script on each.
public enum BarGrowth: String, Sendable, CaseIterable {
  /// The bar prefers large titles: a 52-point area below the row while the top page shows one.
  case largeTitle = "large title"
  /// The root page's navigation item has a search controller: a 56-point search bar below the
  /// row (and the large title).
  case searchBar = "search bar"

  /// Whether the part exists on `systemVersion` (iOS 11 and later); before, the plain bar.
  public func exists(on systemVersion: String) -> Bool {
    UIDevice.majorVersion(of: systemVersion) >= 11
  }

  /// The height it adds below the row.
  public var height: CGFloat {
    switch self {
    case .largeTitle: UINavigationBar.largeTitleHeight
    case .searchBar: UINavigationBar.searchBarHeight
    }
  }

  /// The bar's height without the status bar on `device` running `systemVersion`, at the top of
  /// a page that has the part (`grown`), or without it.
  public func barHeight(on device: DeviceProfile, systemVersion: String, grown: Bool) -> CGFloat {
    let row = UINavigationBar.height(on: device, systemVersion: systemVersion)
    return grown && exists(on: systemVersion) ? row + height : row
  }

  /// The bar's heights on `device` running `systemVersion`: at the top of a page that has the
  /// part, and its row's.
  public func barHeights(on device: DeviceProfile, systemVersion: String)
    -> (grown: CGFloat, row: CGFloat)
  {
    (
      barHeight(on: device, systemVersion: systemVersion, grown: true),
      barHeight(on: device, systemVersion: systemVersion, grown: false)
    )
  }

  /// Gives the part to `navigation` and `page` (its root, or a page it will show): the bar
  /// prefers large titles, or the page's item gets a search controller. Call it once the model
  /// runs the version (inside `start(navigationController:)`): both are refused before iOS 11,
  /// where it does nothing.
  @MainActor
  public func add(to navigation: UINavigationController, page: UIViewController) {
    guard exists(on: UIDevice.current.systemVersion) else { return }
    switch self {
    case .largeTitle: navigation.navigationBar.prefersLargeTitles = true
    case .searchBar:
      page.navigationItem.searchController = UISearchController(searchResultsController: nil)
    }
  }

  /// Makes `page` one that does not have the part when pushed: no large title
  /// (`largeTitleDisplayMode = .never`); a page has no search controller unless given one.
  /// Call it once the model runs the version.
  @MainActor
  public func leaveOut(of page: UIViewController) {
    guard self == .largeTitle, exists(on: UIDevice.current.systemVersion) else { return }
    page.navigationItem.largeTitleDisplayMode = .never
  }

  /// The scenario name's part: `large-title` or `search`.
  public var scenarioSuffix: String {
    switch self {
    case .largeTitle: "large-title"
    case .searchBar: "search"
    }
  }
}
