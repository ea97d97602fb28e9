// Search in the navigation item (iOS 11): the search bar below the bar's row and large title,
// 56 points tall, hidden as the content scrolls unless the item says otherwise, carried by its
// item through pushes and pops, and refused before iOS 11.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// A page whose view holds a tall scroll view, with a search controller in its item.
private final class SearchPage: UIViewController {
  let scrollView = UIScrollView(frame: UIScreen.main.bounds)
  let search = UISearchController(searchResultsController: nil)

  init(_ title: String, searching: Bool = true) {
    super.init()
    self.title = title
    if searching { navigationItem.searchController = search }
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.contentSize = CGSize(width: view.bounds.width, height: 3000)
    view.addSubview(scrollView)
  }
}

/// A session on an iPhone 8 running `version` whose root page has a search controller.
@MainActor private func searchScene(version: String = "13.0", largeTitles: Bool = false)
  -> (NavigationSession, SearchPage)
{
  UIApplication.resetModel(device: .iPhone8, systemVersion: version)
  let root = SearchPage("Inbox")
  let session = NavigationSession(root: root, device: .iPhone8, systemVersion: version)
  session.navigationController.navigationBar.prefersLargeTitles = largeTitles
  return (session, root)
}

extension UIKitModelTests {
  @MainActor
  @Suite("Search in the navigation item")
  struct SearchTests {
    @Test("the search bar adds 56 points below the row: 100 on a phone, 152 with a large title")
    func heights() throws {
      let (session, root) = searchScene()
      let bar = session.navigationController.navigationBar
      #expect(bar.searchBarExtent == 56 && bar.barHeight == 100 && bar.frame.height == 100)
      let searchBar = try #require(bar.searchBar)
      #expect(searchBar === root.search.searchBar && searchBar.superview === bar)
      #expect(searchBar.frame == CGRect(x: 0, y: 44, width: 375, height: 56))
      bar.prefersLargeTitles = true
      #expect(bar.barHeight == 152 && bar.largeTitleExtent == 52)
      #expect(searchBar.frame == CGRect(x: 0, y: 96, width: 375, height: 56))
    }

    @Test("it sits above the large title's view and below the content view")
    func hierarchy() throws {
      let (session, _) = searchScene(largeTitles: true)
      let bar = session.navigationController.navigationBar
      let searchBar = try #require(bar.searchBar)
      let index = try #require(bar.subviews.firstIndex { $0 === searchBar })
      let large = try #require(bar.subviews.firstIndex { $0 is _UINavigationBarLargeTitleView })
      let content = try #require(bar.subviews.firstIndex { $0 === bar.contentContainer })
      #expect(bar.subviews.first === bar.backgroundContainer)
      #expect(large < index && index < content)
    }

    @Test("scrolling hides the search bar first, then the large title; the top brings both back")
    func collapse() {
      let (session, root) = searchScene(largeTitles: true)
      let bar = session.navigationController.navigationBar
      root.scrollView.contentOffset = CGPoint(x: 0, y: 30)
      #expect(bar.searchBarExtent == 26 && bar.largeTitleExtent == 52)
      root.scrollView.contentOffset = CGPoint(x: 0, y: 80)
      #expect(bar.searchBarExtent == 0 && bar.largeTitleExtent == 28)
      #expect(bar.searchBar?.isHidden == true)
      root.scrollView.contentOffset = CGPoint(x: 0, y: 300)
      #expect(bar.barHeight == 44)
      root.scrollView.contentOffset = .zero
      #expect(bar.barHeight == 152 && bar.searchBar?.isHidden == false)
      #expect(bar.asSeen().showsSearchBar)
      root.scrollView.contentOffset = CGPoint(x: 0, y: 56)
      #expect(!bar.asSeen().showsSearchBar && bar.asSeen().largeTitleColor != nil)
    }

    @Test("with hidesSearchBarWhenScrolling off the search bar stays as the content scrolls")
    func staysWhenAsked() {
      let (session, root) = searchScene(largeTitles: true)
      let bar = session.navigationController.navigationBar
      root.navigationItem.hidesSearchBarWhenScrolling = false
      root.scrollView.contentOffset = CGPoint(x: 0, y: 30)
      #expect(bar.searchBarExtent == 56 && bar.largeTitleExtent == 22)
      root.scrollView.contentOffset = CGPoint(x: 0, y: 300)
      #expect(bar.barHeight == 100)
    }

    @Test("the search bar belongs to its item: a push to a page without one takes it out")
    func pushAndPop() {
      let (session, root) = searchScene()
      let navigation = session.navigationController
      let bar = navigation.navigationBar
      navigation.pushViewController(SearchPage("Detail", searching: false), animated: true)
      session.waitUntilIdle()
      #expect(
        bar.searchBar == nil && bar.searchBarExtent == 0 && bar.presentationFrame.height == 44)
      #expect(root.search.searchBar.superview == nil)
      navigation.popViewController(animated: true)
      session.waitUntilIdle()
      #expect(bar.searchBar === root.search.searchBar && bar.presentationFrame.height == 100)
    }

    @Test("another page's search controller replaces the first's in the bar")
    func twoSearches() {
      let (session, root) = searchScene()
      let navigation = session.navigationController
      let bar = navigation.navigationBar
      let other = SearchPage("Other")
      navigation.pushViewController(other, animated: false)
      session.waitUntilIdle()
      #expect(bar.searchBar === other.search.searchBar && root.search.searchBar.superview == nil)
      #expect(other.search.searchBar.frame == CGRect(x: 0, y: 44, width: 375, height: 56))
    }

    @Test("an item given a search controller after it is in the bar shows it, in a fresh model")
    func givenLater() throws {
      UIApplication.resetModel(device: .iPhone8, systemVersion: "13.0")
      let root = SearchPage("Inbox", searching: false)
      let navigation = UINavigationController(rootViewController: root)
      root.navigationItem.searchController = root.search
      let bar = navigation.navigationBar
      #expect(bar.searchBar === root.search.searchBar && bar.barHeight == 100)
      #expect(root.search.searchBar.superview === bar)
    }

    @Test("a search controller shared by two bars shows in one at a time; neither loses track")
    func sharedBetweenTwoBars() throws {
      UIApplication.resetModel(device: .iPhone8, systemVersion: "13.0")
      let shared = UISearchController(searchResultsController: nil)
      let first = SearchPage("First", searching: false)
      let second = SearchPage("Second", searching: false)
      let one = UINavigationController(rootViewController: first)
      let two = UINavigationController(rootViewController: second)
      first.navigationItem.searchController = shared
      second.navigationItem.searchController = shared
      #expect(shared.searchBar.superview === two.navigationBar, "the bar that updated last")
      #expect(
        one.navigationBar.searchBar == nil && two.navigationBar.searchBar === shared.searchBar)
      #expect(
        !one.navigationBar.asSeen().showsSearchBar && two.navigationBar.asSeen().showsSearchBar)
      // The first bar takes it back at its next update, and the second no longer claims it.
      first.navigationItem.hidesSearchBarWhenScrolling = false
      #expect(shared.searchBar.superview === one.navigationBar)
      #expect(two.navigationBar.searchBar == nil)
      // Taking it out of the second bar leaves it in the first.
      second.navigationItem.searchController = nil
      #expect(shared.searchBar.superview === one.navigationBar)
    }

    @Test("hidesSearchBarWhenScrolling turned off while scrolled brings the search bar back")
    func toggledWhileScrolled() {
      let (session, root) = searchScene()
      let bar = session.navigationController.navigationBar
      root.scrollView.contentOffset = CGPoint(x: 0, y: 100)
      #expect(bar.searchBarExtent == 0 && bar.barHeight == 44)
      root.navigationItem.hidesSearchBarWhenScrolling = false
      #expect(bar.searchBarExtent == 56 && bar.barHeight == 100 && bar.searchBar?.isHidden == false)
    }

    @Test("what the user sees follows the bar's drawn height: mid-push, the parts have gone")
    func seenMidPush() {
      let (session, _) = searchScene(largeTitles: true)
      let navigation = session.navigationController
      let bar = navigation.navigationBar
      #expect(bar.asSeen().grownHeight == 108 && bar.asSeen().searchBarHeight == 56)
      let detail = SearchPage("Detail", searching: false)
      detail.navigationItem.largeTitleDisplayMode = .never
      navigation.pushViewController(detail, animated: true)
      VirtualRunLoop.main.advance(by: UINavigationController.transitionDuration / 2)
      let seen = bar.asSeen()
      #expect(seen.grownHeight > 0 && seen.grownHeight < 108, "the height animates")
      #expect(seen.searchBarHeight == 0 && seen.largeTitleHeight == 0)
    }

    @Test("removing the search controller from the item on top takes the search bar out")
    func removed() {
      let (session, root) = searchScene()
      let bar = session.navigationController.navigationBar
      root.navigationItem.searchController = nil
      #expect(bar.searchBar == nil && bar.barHeight == 44)
      #expect(root.search.searchBar.superview == nil, "the view is out of the bar")
    }

    @Test("refused before iOS 11, nothing changed: searchController, hidesSearchBarWhenScrolling")
    func refusedBeforeEleven() {
      UIApplication.resetModel(device: .iPhone8, systemVersion: "10.0")
      let before = UIKitModelIssues.all.count
      let item = UINavigationItem()
      item.searchController = UISearchController(searchResultsController: nil)
      item.hidesSearchBarWhenScrolling = false
      #expect(item.searchController == nil && item.hidesSearchBarWhenScrolling)
      let refusals = UIKitModelIssues.all.dropFirst(before).filter {
        if case .unavailable = $0 { true } else { false }
      }
      #expect(refusals.count == 2)
    }

    @Test("a search controller's defaults are UIKit's")
    func defaults() {
      let search = UISearchController(searchResultsController: nil)
      #expect(search.hidesNavigationBarDuringPresentation)
      #expect(search.obscuresBackgroundDuringPresentation, "up to iOS 14 (the model runs 13)")
      UIDevice.current.systemVersion = "15.0"
      #expect(!search.obscuresBackgroundDuringPresentation, "false from iOS 15")
      search.obscuresBackgroundDuringPresentation = true
      #expect(search.obscuresBackgroundDuringPresentation, "a value set is kept")
      UIApplication.resetModel()
      #expect(search.searchResultsController == nil)
      #expect(UINavigationItem().hidesSearchBarWhenScrolling)
    }
  }
}
