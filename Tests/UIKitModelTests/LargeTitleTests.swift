// Large titles (iOS 11): the bar's preference and the items' display modes, the 52-point area
// below the bar's row and its place among the bar's subviews, its collapse as the page scrolls
// and as a page without one is pushed, the scroll-edge appearance it draws before iOS 15, and
// the refusals before iOS 11.
import Foundation
import ObjCRuntime
import Scenarios
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
@MainActor private func largeTitleScene(
  device: DeviceProfile = .iPhone8, version: String = "13.0", sdk: String? = nil
) -> (NavigationSession, ListPage) {
  let root = ListPage("Inbox")
  let session = NavigationSession(root: root, device: device, systemVersion: version)
  UIDevice.current.linkedSDKVersion = sdk
  session.navigationController.navigationBar.prefersLargeTitles = true
  return (session, root)
}

extension UIKitModelTests {
  @MainActor
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
      // The background moves with the bar, not ahead of it.
      let background = bar.backgroundContainer.presentationFrame.height
      #expect(background > 64 && background < 116, "the background too (with the status bar)")
      session.waitUntilIdle()
      #expect(bar.presentationFrame.height == 44)
      navigation.popViewController(animated: true)
      session.waitUntilIdle()
      #expect(bar.presentationFrame.height == 96)
    }

    @Test(
      "after a scroll away and back, a push to a page without a large title shows its title",
      arguments: ["11.0", "12.0", "13.0"])
    func pushAfterScrollShowsTheRowTitle(version: String) {
      let (session, root) = largeTitleScene(version: version)
      let navigation = session.navigationController
      let bar = navigation.navigationBar
      session.scroll(root.scrollView, by: 150)
      session.scroll(root.scrollView, by: -150)
      #expect(bar.showsLargeTitle && bar.titleLabel.alpha == 0)
      navigation.pushViewController(ListPage("Details", mode: .never), animated: true)
      session.waitUntilIdle()
      #expect(!bar.showsLargeTitle && bar.titleLabel.effectiveAlpha == 1)
      #expect(bar.asSeen().titleColor.alpha == 1)
    }

    @Test("ExpectedBar(largeTitleColor:) reads the large title; without one it says none shows")
    func expectedLargeTitle() {
      let (session, root) = largeTitleScene()
      let bar = session.navigationController.navigationBar
      bar.largeTitleTextAttributes = [.foregroundColor: UIColor.red]
      #expect(ExpectedBar(largeTitleColor: .red).differences(from: bar.asSeen()).isEmpty)
      #expect(
        ExpectedBar(largeTitleColor: .blue).differences(from: bar.asSeen())
          == ["large title: expected #0000FFFF, seen #FF0000FF"])
      root.scrollView.contentOffset = CGPoint(x: 0, y: 200)
      #expect(
        ExpectedBar(largeTitleColor: .red).differences(from: bar.asSeen())
          == ["large title: expected #FF0000FF, seen none"])
    }

    @Test(
      "iOS 13 and 14 draw the scroll-edge appearance only with a large title",
      arguments: [("13.0", nil), ("15.0", "14.0")] as [(String, String?)])
    func scrollEdgeWithLargeTitle(version: String, sdk: String?) {
      let (session, root) = largeTitleScene(version: version, sdk: sdk)
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
      let standard = UINavigationBarAppearance()
      standard.largeTitleTextAttributes = [.foregroundColor: UIColor.red]
      let edge = UINavigationBarAppearance()
      edge.largeTitleTextAttributes = [.foregroundColor: UIColor.green]
      bar.standardAppearance = standard
      bar.scrollEdgeAppearance = edge
      #expect(label.textColor == .green, "at the top with a large title: the scroll edge's")
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

    @Test("a lower item's mode change reaches the automatic item on top")
    func lowerItemModeChange() {
      let (session, root) = largeTitleScene()
      let bar = session.navigationController.navigationBar
      session.push(ListPage("Message"))
      #expect(bar.showsLargeTitle)
      root.navigationItem.largeTitleDisplayMode = .never
      #expect(!bar.showsLargeTitle && bar.frame.height == 44)
    }

    @Test("a bar that never preferred large titles is left alone: its title's alpha stays")
    func untouchedWithout() {
      let session = NavigationSession(root: ListPage("Inbox"))
      let bar = session.navigationController.navigationBar
      bar.titleLabel.alpha = 0.5
      session.push(ListPage("Message"))
      #expect(bar.titleLabel.alpha == 0.5 && bar.barHeight == 44)
      #expect(!bar.subviews.contains { $0 is _UINavigationBarLargeTitleView })
    }
  }
}
