// Search in the navigation item (iOS 11): a search controller's search bar integrated into the
// navigation bar below its row (and its large title), and hidden as the content scrolls when the
// item asks for it.
import Foundation
import ObjCRuntime

extension UINavigationBar {
  /// The height of a search bar integrated into a navigation bar, below its row and large title:
  /// 56 points, the model's reading from the height a `UISearchBar` has from iOS 11 elsewhere
  /// (jdisho/Papr pull request 67, in a title view: "iOS 11~ UISearchBar now has the height
  /// equals to 56"; tidev/titanium-sdk pull request 9496, in a table header, sizes it 56 from
  /// iOS 11). No source found measures the bar's area itself, or gives another figure later.
  nonisolated public static let searchBarHeight: CGFloat = 56

  /// The search bar the bar shows for its top item, if that item has a search controller
  /// (iOS 11 and later) and the view is in this bar.
  public var searchBar: UISearchBar? { ownSearchBar }

  /// ``searchBar``: the shown search bar while it is this bar's subview (another bar may have
  /// taken the view since).
  var ownSearchBar: UISearchBar? { shownSearchBar?.superview === self ? shownSearchBar : nil }

  /// The search area's height for the top item, the content having scrolled `scrolled` points
  /// from its top, and how much of the scroll it takes: with `hidesSearchBarWhenScrolling` the
  /// search bar collapses first, as the content scrolls up (Apple: "the search bar is visible
  /// only when the scroll position equals the top of your content view. When the user scrolls
  /// down, the search bar collapses into the navigation bar"; that it goes before the large
  /// title is the model's reading, the search bar being the part nearest the content); without
  /// it the search bar stays and takes none of the scroll.
  ///
  /// `shown`: whether the top item has a search bar in the bar at all (the iOS 10 hierarchy
  /// never has).
  func searchArea(scrolled: CGFloat) -> (shown: Bool, extent: CGFloat, consumed: CGFloat) {
    guard let item = topItem, item.searchController != nil, contentView != nil,
      UIDevice.current.majorSystemVersion >= 11
    else { return (false, 0, 0) }
    let full = UINavigationBar.searchBarHeight
    guard item.hidesSearchBarWhenScrolling else { return (true, full, 0) }
    let consumed = max(0, min(full, scrolled))
    return (true, full - consumed, consumed)
  }

  /// Puts the top item's search bar in the bar (above the large title's view, below the content
  /// view), taking out another item's: `wanted` is the top item's, or nil. Whether it changed.
  ///
  /// A view has one superview: a search controller shared by items on two bars (or an item on
  /// top of two) shows in the bar that updated last, as a view added to a second superview
  /// leaves the first, and the other bar takes it back at its next update. A bar takes out
  /// only a search bar that is still its own.
  @discardableResult
  func showSearchBar(_ wanted: UISearchBar?) -> Bool {
    guard wanted !== shownSearchBar || (wanted != nil && wanted?.superview !== self) else {
      return false
    }
    if let shown = shownSearchBar, shown !== wanted, shown.superview === self {
      shown.removeFromSuperview()
    }
    shownSearchBar = wanted
    guard let wanted else { return true }
    if contentContainer.superview === self {
      insertSubview(wanted, belowSubview: contentContainer)
    } else {
      addSubview(wanted)
    }
    return true
  }
}
