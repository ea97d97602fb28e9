// Large titles (iOS 11): the bar's preference, the items' display modes, the large title's view
// below the bar's row, and its area collapsing as the page's content scrolls and as a page
// without a large title is pushed.
import Foundation
import ObjCRuntime

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// The view of a bar's large title, as UIKit's private class of that name: a subview of the bar
/// between its background and its content view (niw's "UINavigationBar on iOS 11" notes list
/// `_UIBarBackground`, `_UINavigationBarLargeTitleView` with its `UILabel`, then
/// `_UINavigationBarContentView`).
public final class _UINavigationBarLargeTitleView: UIView {
  /// The large title.
  public let label = UILabel(frame: .zero)

  override init(frame: CGRect) {
    super.init(frame: frame)
    label.font = UINavigationBar.defaultLargeTitleFont
    addSubview(label)
  }
}

extension UINavigationBar {
  /// The height of the large title's area below the bar's row: 52 points, so that a bar with
  /// its large title showing is 96 tall on a phone (a CSDN note, "iOS11 UINavigationBar新添加的
  /// prefersLargeTitles属性", printed the bar's frame: 44 without, 96 with, changing as the page
  /// scrolls; Geoff Hackworth measured the same 52 on an iPad with iOS 11, 116 with the status
  /// bar). Under the iPad's 50-point row from iOS 12 the 52 is the model's.
  nonisolated public static let largeTitleHeight: CGFloat = 52

  /// Whether any bar has updated a large title or a search bar since the model was reset: until
  /// then, a scroll view does not look for its page's bar as it scrolls (before iOS 15).
  static var someBarMayGrow = false

  /// The large title's font when the attributes give none: the 34-point bold system font, the
  /// model's figure.
  static let defaultLargeTitleFont = UIFont.boldSystemFont(ofSize: 34)

  /// Whether the bar shows a large title for the items that ask for one (iOS 11), as UIKit's
  /// property; false by default. Setting it before iOS 11 is refused with
  /// ``UIKitModelIssue/unavailable(api:introduced:running:)``, nothing changed.
  public var prefersLargeTitles: Bool {
    get { prefersLargeTitlesStorage }
    set {
      guard UIDevice.isAvailable("UINavigationBar.prefersLargeTitles", from: 11) else { return }
      prefersLargeTitlesStorage = newValue
      if newValue { UINavigationBar.someBarMayGrow = true }
      updateLargeTitle(animated: false)
    }
  }

  /// The large title's text attributes (its colour and font), as UIKit's property; from iOS 13
  /// an appearance's `largeTitleTextAttributes` wins when the bar draws one.
  public var largeTitleTextAttributes: TextAttributes? {
    get { largeTitleAttributesStorage }
    set {
      largeTitleAttributesStorage = newValue
      applyLargeTitleAttributes()
    }
  }

  /// Whether `item`, on top, shows a large title: never unless the bar prefers large titles;
  /// then as its `largeTitleDisplayMode` says, an `.automatic` item as the item below it (Apple's
  /// documentation of `.automatic`), the first item large (UIKit's header: "If the first item
  /// pushed is set to Automatic, then it will show the large title if the navigation bar has
  /// prefersLargeTitles=YES").
  public func displaysLargeTitle(for item: UINavigationItem) -> Bool {
    // The iOS 10 hierarchy has no large title, whatever the version reads later.
    guard prefersLargeTitlesStorage, UIDevice.current.majorSystemVersion >= 11, contentView != nil
    else { return false }
    var large = true
    for candidate in itemStack {
      switch candidate.largeTitleDisplayMode {
      case .automatic: break
      case .always: large = true
      case .never: large = false
      }
      if candidate === item { return large }
    }
    return large
  }

  /// How far the top page's content has scrolled from its top: its first scroll view's offset
  /// past its top inset (0 without one).
  private var scrolledFromTop: CGFloat {
    guard let scrollView = topContentScrollView else { return 0 }
    return scrollView.contentOffset.y + scrollView.contentInset.top
  }

  /// Sets the large title's area for the top item and the content's scroll: the whole of
  /// ``largeTitleHeight`` at the top of the content, less as the content scrolls up, none once
  /// it scrolled the area's height or for an item without a large title. The bar's frame grows
  /// or shrinks downwards, animated over a push's or pop's duration when `animated` (an
  /// interactive pop's too: the height does not follow the finger, the model's reading).
  func updateLargeTitle(animated: Bool) {
    // The items tell the bar when their mode or search changes (it told them so as they were
    // pushed or came on top). A bar that never preferred large titles nor showed a search bar
    // has nothing to do.
    guard
      prefersLargeTitlesStorage || largeTitleView != nil || largeTitleExtent != 0
        || shownSearchBar != nil || topItem?.searchController != nil
    else { return }
    // Scroll views look for this bar as they scroll from now on, even if the model was reset
    // (a launch) after the bar was made.
    UINavigationBar.someBarMayGrow = true
    let large = topItem.map(displaysLargeTitle(for:)) ?? false
    let full = UINavigationBar.largeTitleHeight
    let scrolled = scrolledFromTop
    let search = searchArea(scrolled: scrolled)
    let searchChanged =
      showSearchBar(search.shown ? topItem?.searchController?.searchBar : nil)
      || search.extent != searchBarExtent
    searchBarExtent = search.extent
    let extent = large ? max(0, min(full, full - (scrolled - search.consumed))) : 0
    if prefersLargeTitlesStorage, largeTitleView == nil, contentView != nil {
      let view = _UINavigationBarLargeTitleView(frame: .zero)
      // Between the background and the content view, as in UIKit (while an iOS 12 presentation
      // has the background out of the bar, below the content view all the same).
      if let searchBar = shownSearchBar, searchBar.superview === self {
        insertSubview(view, belowSubview: searchBar)
      } else if contentContainer.superview === self {
        insertSubview(view, belowSubview: contentContainer)
      } else {
        insertSubview(view, at: min(1, subviews.count))
      }
      largeTitleView = view
      applyLargeTitleAttributes()
    }
    if largeTitleView?.label.text != topItem?.title { largeTitleView?.label.text = topItem?.title }
    let showedLarge = showsLargeTitle
    guard extent != largeTitleExtent || large != showedLarge || searchChanged else { return }
    showsLargeTitle = large
    largeTitleView?.isHidden = !large
    // The row's title shows once the large one has gone.
    titleLabel.alpha = large && extent > 0 ? 0 : 1
    largeTitleExtent = extent
    // Before iOS 15 a bar draws its scroll-edge appearance only with a large title (iOS 13).
    if UIDevice.current.majorSystemVersion >= 13, UIDevice.current.linkedMajorVersion < 15 {
      drawnAtScrollEdge = isAtScrollEdge
      applyAppearance()
    }
    let frame = CGRect(x: frame.minX, y: frame.minY, width: frame.width, height: barHeight)
    guard animated else {
      self.frame = frame
      setNeedsLayout()
      layoutIfNeeded()
      return
    }
    // Laid out inside the block, so that the background, the large title and the content
    // move with the bar; a layout after it to the same frames leaves their animations running.
    UIView.animate(
      withDuration: UINavigationController.transitionDuration, delay: 0,
      options: .curveEaseInOut,
      animations: {
        self.frame = frame
        self.setNeedsLayout()
        self.layoutIfNeeded()
      })
  }

  /// Colours and sizes the large title from the attributes in force.
  func applyLargeTitleAttributes() {
    guard largeTitleView != nil else { return }
    applyLargeTitleAttributes(activeAppearance())
  }

  /// ``applyLargeTitleAttributes()`` with `active`, the appearance in force.
  func applyLargeTitleAttributes(_ active: UINavigationBarAppearance?) {
    guard let label = largeTitleView?.label else { return }
    let attributes = active?.largeTitleTextAttributes ?? largeTitleAttributesStorage
    label.textColor = attributes?.foregroundColor ?? .black
    label.font = attributes?.font ?? UINavigationBar.defaultLargeTitleFont
  }
}
