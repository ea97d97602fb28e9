// Large titles (iOS 11): the bar's preference and the items' display modes, the 52-point area
// below the bar's row and its place among the bar's subviews, its collapse as the page scrolls
// and as a page without one is pushed, the scroll-edge appearance it draws before iOS 15, and
// the refusals before iOS 11.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// A page whose view is a scroll view's, as a table view controller's.
private final class ListPage: UIViewController {
  let scrollView = UIScrollView(frame: UIScreen.main.bounds)

  init(_ title: String, mode: UINavigationItem.LargeTitleDisplayMode = .automatic) {
    super.init()
    self.title = title
    navigationItem.largeTitleDisplayMode = mode
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.contentSize = CGSize(width: view.bounds.width, height: 3000)
    view.addSubview(scrollView)
  }
}

/// A session on `device` running `version` whose root is a list, its bar preferring large
/// titles.
private func largeTitleScene(
  device: DeviceProfile = .iPhone8, version: String = "13.0", sdk: String? = nil
) -> (NavigationSession, ListPage) {
  let root = ListPage("Inbox")
  let session = NavigationSession(root: root, device: device, systemVersion: version)
  UIDevice.current.linkedSDKVersion = sdk
  session.navigationController.navigationBar.prefersLargeTitles = true
  return (session, root)
}

extension UIKitModelTests {
  @Suite("Large titles")
  struct LargeTitleTests {
    @Test("with a large title the bar is 96 points tall on a phone (44 and 52), 44 without")
    func heights() {
      let (session, _) = largeTitleScene()
      let bar = session.navigationController.navigationBar
      #expect(bar.showsLargeTitle && bar.largeTitleExtent == 52)
      #expect(bar.barHeight == 96 && bar.frame.height == 96 && bar.contentHeight == 44)
      bar.prefersLargeTitles = false
      #expect(bar.barHeight == 44 && bar.frame.height == 44 && !bar.showsLargeTitle)
    }

    @Test("the large title's view sits between the background and the content view")
    func hierarchy() throws {
      let (session, _) = largeTitleScene()
      let bar = session.navigationController.navigationBar
      #expect(
        bar.subviews.first === bar.backgroundContainer, "subviews.first is still the background")
      let large = try #require(bar.subviews.dropFirst().first as? _UINavigationBarLargeTitleView)
      #expect(
        large.label.text == "Inbox" && large.frame == CGRect(x: 0, y: 44, width: 375, height: 52))
      #expect(bar.titleLabel.alpha == 0, "the row's title waits until the large one has gone")
    }

    @Test("display modes: automatic follows the item below, never and always decide")
    func modes() {
      let (session, _) = largeTitleScene()
      let bar = session.navigationController.navigationBar
      session.push(ListPage("Message"))
      #expect(bar.showsLargeTitle, "automatic, as the root")
      session.push(ListPage("Details", mode: .never))
      #expect(!bar.showsLargeTitle && bar.barHeight == 44)
      session.push(ListPage("Attachment"))
      #expect(!bar.showsLargeTitle, "automatic, as the never item below it")
      session.push(ListPage("Sender", mode: .always))
      #expect(bar.showsLargeTitle && bar.barHeight == 96)
      session.popToRoot()
      #expect(bar.showsLargeTitle && bar.barHeight == 96)
    }

    @Test("the area collapses as the content scrolls up and comes back at the top")
    func collapse() {
      let (session, root) = largeTitleScene()
      let bar = session.navigationController.navigationBar
      root.scrollView.contentOffset = CGPoint(x: 0, y: 30)
      #expect(bar.largeTitleExtent == 22 && bar.frame.height == 66)
      #expect(bar.titleLabel.alpha == 0)
      root.scrollView.contentOffset = CGPoint(x: 0, y: 200)
      #expect(bar.largeTitleExtent == 0 && bar.frame.height == 44)
      #expect(bar.titleLabel.alpha == 1, "the row's title once the large one scrolled away")
      root.scrollView.contentOffset = .zero
      #expect(bar.largeTitleExtent == 52 && bar.frame.height == 96)
    }

    @Test("a push to a page without a large title shrinks the bar over the push")
    func pushCollapses() {
      let (session, _) = largeTitleScene()
      let navigation = session.navigationController
      let bar = navigation.navigationBar
      navigation.pushViewController(ListPage("Details", mode: .never), animated: true)
      VirtualRunLoop.main.advance(by: UINavigationController.transitionDuration / 2)
      let mid = bar.presentationFrame.height
      #expect(mid > 44 && mid < 96, "between the two heights half way")
      session.waitUntilIdle()
      #expect(bar.presentationFrame.height == 44)
      navigation.popViewController(animated: true)
      session.waitUntilIdle()
      #expect(bar.presentationFrame.height == 96)
    }

    @Test("iOS 13 and 14 draw the scroll-edge appearance only with a large title; 15 always")
    func scrollEdgeWithLargeTitle() {
      let (session, root) = largeTitleScene(version: "13.0")
      let bar = session.navigationController.navigationBar
      let standard = UINavigationBarAppearance()
      standard.backgroundColor = .red
      bar.standardAppearance = standard
      #expect(bar.asSeen().backgroundOpacity == 0, "at the top with a large title: scroll edge")
      root.scrollView.contentOffset = CGPoint(x: 0, y: 100)
      #expect(bar.asSeen().backgroundColor == UIColorComponents(.red), "scrolled: standard")
      root.scrollView.contentOffset = .zero
      bar.prefersLargeTitles = false
      #expect(bar.asSeen().backgroundColor == UIColorComponents(.red), "no large title: standard")
    }

    @Test("large-title attributes colour the large title; an appearance's win from iOS 13")
    func attributes() throws {
      let (session, _) = largeTitleScene()
      let bar = session.navigationController.navigationBar
      let label = try #require(
        (bar.subviews.dropFirst().first as? _UINavigationBarLargeTitleView)?.label)
      bar.largeTitleTextAttributes = [.foregroundColor: UIColor.blue]
      #expect(label.textColor == .blue)
      let appearance = UINavigationBarAppearance()
      appearance.largeTitleTextAttributes = [.foregroundColor: UIColor.green]
      bar.standardAppearance = appearance
      bar.scrollEdgeAppearance = appearance
      #expect(label.textColor == .green)
    }

    @Test("refused before iOS 11, nothing changed: prefersLargeTitles, largeTitleDisplayMode")
    func refusedBefore11() {
      let session = NavigationSession(root: ListPage("Inbox"), systemVersion: "10.3")
      let bar = session.navigationController.navigationBar
      bar.prefersLargeTitles = true
      let item = UINavigationItem(title: "x")
      item.largeTitleDisplayMode = .always
      #expect(!bar.prefersLargeTitles && item.largeTitleDisplayMode == .automatic)
      #expect(bar.barHeight == 44)
      let reasons = UIKitModelIssues.all.map(\.description)
      #expect(reasons.count == 2 && reasons.allSatisfy { $0.contains("iOS 11") })
    }

    @Test("a mode changed on the item on top takes effect at once")
    func modeChangeOnTop() {
      let (session, root) = largeTitleScene()
      let bar = session.navigationController.navigationBar
      root.navigationItem.largeTitleDisplayMode = .never
      #expect(!bar.showsLargeTitle && bar.frame.height == 44)
      root.navigationItem.largeTitleDisplayMode = .always
      #expect(bar.showsLargeTitle && bar.frame.height == 96)
    }
  }
}
