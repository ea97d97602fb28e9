// Tab bars: UITabBarController's selection (by code and by tap) in UIKit's order with its
// delegate's rules and refusals, a navigation controller hiding the bar for pushed pages, and
// UITabBar's heights and iOS 13 / 15 appearances.
import Foundation
import ObjCRuntime
import ScreenRendering
import Testing
import UIKitModel

/// Two tabs, each a navigation controller over a logged page (A, then B), in a session on
/// `device` running `version` (built with `sdk`).
@MainActor private func tabScene(
  device: DeviceProfile = .iPhone8, version: String = "13.0", sdk: String? = nil,
  log: NavigationLog = NavigationLog()
) throws -> (NavigationSession, UITabBarController, [UINavigationController]) {
  UIScreen.main.profile = device
  UIDevice.current.systemVersion = version
  UIDevice.current.linkedSDKVersion = sdk
  let tabs = UITabBarController()
  let navigations = ["A", "B"].map { name in
    let navigation = UINavigationController(rootViewController: LoggedScreen(name, log: log))
    navigation.tabBarItem = UITabBarItem(title: name)
    return navigation
  }
  tabs.viewControllers = navigations
  let session = try #require(
    NavigationSession(tabBarController: tabs, device: device, systemVersion: version))
  return (session, tabs, navigations)
}

/// A page that hides the tab bar when pushed.
@MainActor private func hidingPage(_ name: String, log: NavigationLog = NavigationLog())
  -> LoggedScreen
{
  let page = LoggedScreen(name, log: log)
  page.hidesBottomBarWhenPushed = true
  return page
}

/// Records what a tab bar controller's delegate is asked and told.
private final class TabDelegate: UITabBarControllerDelegate {
  var calls: [String] = []
  var allows = true
  func tabBarController(
    _ tabBarController: UITabBarController, shouldSelect viewController: UIViewController
  ) -> Bool {
    calls.append("should \(viewController.tabBarItem.title ?? "-")")
    return allows
  }
  func tabBarController(
    _ tabBarController: UITabBarController, didSelect viewController: UIViewController
  ) {
    calls.append("did \(viewController.tabBarItem.title ?? "-")")
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("UITabBarController")
  struct TabBarControllerTests {
    @Test("the first tab appears at launch: its navigation controller's top page hears it")
    func launchShowsTheFirstTab() throws {
      let log = NavigationLog()
      let (session, tabs, navigations) = try tabScene(log: log)
      #expect(tabs.selectedIndex == 0 && tabs.selectedViewController === navigations[0])
      #expect(session.navigationController === navigations[0])
      #expect(log.take() == ["A.viewDidLoad", "A.willAppear", "A.didAppear"])
      #expect(navigations[1].isViewLoaded == false, "the other tab loads when selected")
      #expect(tabs.tabBar.items?.map(\.title) == ["A", "B"])
      #expect(session.seenTabBar?.selectedIndex == 0)
      // Docs/UIKitModel.md, section 7, quotes this line's end.
      #expect(
        session.trace.last?.hasSuffix("; tab bar #F9F9F9FF (opacity 0.80) at x 0, tab 0 (A)")
          == true, "\(session.trace.last ?? "")")
    }

    @Test("selecting a tab calls back in UIKit's order: new loads and will appear, old goes")
    func selectionOrder() throws {
      // pgzxc.github.io's logged switch: B.viewDidLoad, B.viewWillAppear, A.viewWillDisappear,
      // A.viewDidDisappear, B.viewDidAppear.
      let log = NavigationLog()
      let (_, tabs, navigations) = try tabScene(log: log)
      _ = log.take()
      tabs.selectedIndex = 1
      #expect(
        log.take() == [
          "B.viewDidLoad", "B.willAppear", "A.willDisappear", "A.didDisappear", "B.didAppear",
        ])
      #expect(tabs.selectedViewController === navigations[1])
      #expect(navigations[1].view.superview === tabs.view && navigations[0].view.superview == nil)
      #expect(tabs.tabBar.selectedItem === tabs.tabBar.items?[1])
      tabs.selectedViewController = navigations[0]
      #expect(log.take() == ["A.willAppear", "B.willDisappear", "B.didDisappear", "A.didAppear"])
    }

    @Test("the delegate is asked and told only for the user's taps, and can refuse a tab")
    func delegateOnlyForTaps() throws {
      let (session, tabs, navigations) = try tabScene()
      let delegate = TabDelegate()
      tabs.delegate = delegate
      tabs.selectedIndex = 1
      #expect(delegate.calls.isEmpty, "Apple: not called when code changes the selection")
      session.selectTab(0)
      #expect(delegate.calls == ["should A", "did A"])
      #expect(session.navigationController === navigations[0])
      session.selectTab(0)
      #expect(delegate.calls == ["should A", "did A", "should A", "did A"], "told again")
      delegate.allows = false
      session.selectTab(1)
      #expect(delegate.calls.suffix(1) == ["should B"])
      #expect(tabs.selectedIndex == 0, "a refused tab is not selected")
    }

    @Test("out of range, foreign, duplicate and mid-push selections are refused, nothing changed")
    func refusals() throws {
      let (session, tabs, navigations) = try tabScene()
      UIKitModelIssues.removeAll()
      tabs.selectedIndex = 5
      tabs.selectedIndex = -1
      tabs.selectedViewController = UIViewController()
      tabs.viewControllers = [navigations[0], navigations[0]]
      #expect(tabs.selectedIndex == 0 && tabs.viewControllers?.count == 2)
      #expect(UIKitModelIssues.all.count == 4)
      #expect(
        UIKitModelIssues.all.allSatisfy {
          if case .tabBarControllerRefused = $0 { true } else { false }
        })
      #expect("\(UIKitModelIssues.all[0])".contains("it has 2 tabs"))
      // A selection while the selected tab pushes: the model's refusal.
      UIKitModelIssues.removeAll()
      navigations[0].pushViewController(LoggedScreen("P", log: NavigationLog()), animated: true)
      tabs.selectedIndex = 1
      #expect(tabs.selectedIndex == 0)
      #expect("\(UIKitModelIssues.all.first.map { "\($0)" } ?? "")".contains("pushing or popping"))
      session.waitUntilIdle()
      tabs.selectedIndex = 1
      #expect(tabs.selectedIndex == 1, "once the push ended")
    }

    @Test("new tabs keep the selected controller, else its index, else the first (Apple's rule)")
    func replacingTabsKeepsTheSelection() throws {
      let (_, tabs, navigations) = try tabScene()
      let other = UINavigationController(rootViewController: UIViewController())
      tabs.selectedIndex = 1
      tabs.viewControllers = [navigations[1], navigations[0], other]
      #expect(tabs.selectedViewController === navigations[1] && tabs.selectedIndex == 0)
      tabs.selectedIndex = 2
      tabs.viewControllers = [navigations[0], navigations[1], UIViewController()]
      #expect(tabs.selectedIndex == 2, "the same index when the controller left")
      tabs.selectedIndex = 2
      tabs.viewControllers = [navigations[0]]
      #expect(tabs.selectedIndex == 0 && tabs.selectedViewController === navigations[0])
      #expect(other.parent == nil, "a removed tab leaves its parent")
    }

    @Test("the lab's frame of a screen with tabs draws the tab bar, and none once it hides")
    func framesDrawTheTabBar() throws {
      let (session, _, _) = try tabScene()
      func tabBarRect() -> FrameShape? {
        ScreenFrame.current()?.shapes.first { shape in
          if case .rect(_, let y, let width, let height, _, _, _) = shape {
            return y == 667 - 49 && width == 375 && height == 49
          }
          return false
        }
      }
      #expect(tabBarRect() != nil, "the 49-point bar at the bottom of an iPhone 8")
      session.push(hidingPage("D"))
      #expect(tabBarRect() == nil)
    }

    @Test("a switch asked from a switch's own callback is refused; the screen stays whole")
    func reentrantSwitchRefused() throws {
      final class Jumping: UIViewController {
        weak var tabs: UITabBarController?
        override func viewWillAppear(_ animated: Bool) {
          super.viewWillAppear(animated)
          tabs?.selectedIndex = 2
          tabs?.viewControllers = []
        }
      }
      let (_, tabs, navigations) = try tabScene()
      let jumping = Jumping()
      jumping.tabs = tabs
      let third = UIViewController()
      tabs.viewControllers = navigations + [third]
      tabs.viewControllers = [navigations[0], jumping, third]
      UIKitModelIssues.removeAll()
      tabs.selectedIndex = 1
      #expect(tabs.selectedIndex == 1 && tabs.viewControllers?.count == 3)
      let shown = tabs.view.subviews.filter { !($0 is UITabBar) }
      #expect(shown.count == 1 && shown.first === jumping.view, "one tab's view on screen")
      #expect(UIKitModelIssues.all.count == 2)
      #expect("\(UIKitModelIssues.all.first.map { "\($0)" } ?? "")".contains("switch is under way"))
    }

    @Test("a selection from viewDidLoad is refused; from viewDidAppear it runs after the switch")
    func selectionsFromCallbacks() throws {
      final class Selecting: UIViewController {
        weak var tabs: UITabBarController?
        var onLoad: Int?
        var onAppear: Int?
        override func viewDidLoad() {
          super.viewDidLoad()
          if let onLoad { tabs?.selectedIndex = onLoad }
        }
        override func viewDidAppear(_ animated: Bool) {
          super.viewDidAppear(animated)
          if let onAppear { tabs?.selectedIndex = onAppear }
        }
      }
      let (_, tabs, navigations) = try tabScene()
      let loading = Selecting()
      loading.onLoad = 1
      let appearing = Selecting()
      appearing.onAppear = 0
      for page in [loading, appearing] { page.tabs = tabs }
      tabs.viewControllers = navigations + [loading, appearing]
      UIKitModelIssues.removeAll()
      tabs.selectedIndex = 2
      #expect(tabs.selectedIndex == 2, "from viewDidLoad: refused")
      #expect(UIKitModelIssues.all.count == 1)
      tabs.selectedIndex = 3
      #expect(tabs.selectedIndex == 0, "from viewDidAppear: run once the switch returned")
      let shown = tabs.view.subviews.filter { !($0 is UITabBar) }
      #expect(shown.count == 1 && shown.first === navigations[0].view)
    }

    @Test("tabs that select each other from viewDidAppear stop after a few, with an issue")
    func pingPongStops() throws {
      final class Bouncing: UIViewController {
        weak var tabs: UITabBarController?
        var target = 0
        override func viewDidAppear(_ animated: Bool) {
          super.viewDidAppear(animated)
          tabs?.selectedIndex = target
        }
      }
      let (_, tabs, navigations) = try tabScene()
      let pages = [Bouncing(), Bouncing()]
      pages[0].target = 3
      pages[1].target = 2
      for page in pages { page.tabs = tabs }
      tabs.viewControllers = navigations + pages
      UIKitModelIssues.removeAll()
      tabs.selectedIndex = 2
      #expect(UIKitModelIssues.all.count == 1)
      #expect("\(UIKitModelIssues.all.first.map { "\($0)" } ?? "")".contains("in a row"))
      let shown = tabs.view.subviews.filter { !($0 is UITabBar) }
      #expect(shown.count == 1 && shown.first === tabs.selectedViewController?.view)
    }

    @Test("a tab list holding the tab bar controller itself, or its parent, is refused")
    func cyclesRefused() throws {
      let (_, tabs, navigations) = try tabScene()
      UIKitModelIssues.removeAll()
      tabs.viewControllers = [navigations[0], tabs]
      let holder = UINavigationController(rootViewController: UIViewController())
      holder.addChild(tabs)
      tabs.viewControllers = [holder]
      holder.removeFromParent()
      #expect(tabs.viewControllers?.count == 2 && tabs.viewControllers?.first === navigations[0])
      #expect(UIKitModelIssues.all.count == 2)
      #expect(UIKitModelIssues.all.allSatisfy { "\($0)".contains("a cycle") })
    }

    @Test("setViewControllers:animated: sent something that is not a list is refused")
    func wrongArgumentRefused() throws {
      let (_, tabs, _) = try tabScene()
      UIKitModelIssues.removeAll()
      try objc_msgSend(
        tabs, UITabBarController.Selectors.setViewControllers, UIViewController(), false)
        as Void
      #expect(tabs.viewControllers?.count == 2, "the tabs stay")
      #expect("\(UIKitModelIssues.all.last.map { "\($0)" } ?? "")".contains("not a list"))
    }

    @Test("a controller's title is its tab item's title too, once the item exists")
    func titleUpdatesTheTabItem() {
      let page = UIViewController()
      let item = page.tabBarItem
      page.title = "Inbox"
      #expect(item?.title == "Inbox" && page.navigationItem.title == "Inbox")
    }

    @Test("a session needs a tab that is a navigation controller")
    func sessionNeedsANavigationTab() {
      UIKitModelIssues.removeAll()
      let tabs = UITabBarController()
      tabs.viewControllers = [UIViewController()]
      #expect(NavigationSession(tabBarController: tabs) == nil)
      #expect(
        "\(UIKitModelIssues.all.last.map { "\($0)" } ?? "")".contains("navigation controller"))
    }
  }

  @MainActor
  @Suite("UINavigationController and the tab bar")
  struct BottomBarTests {
    @Test("a push hides the tab bar, sliding it its whole width to the left; the pop brings it")
    func pushAndPop() throws {
      let (session, tabs, navigations) = try tabScene()
      let bar = tabs.tabBar
      navigations[0].pushViewController(hidingPage("D"), animated: true)
      session.advance(by: UINavigationController.transitionDuration / 2)
      let middle = bar.presentationFrame.minX
      #expect(middle < 0 && middle > -bar.bounds.width, "mid-push, on its way out")
      #expect(!bar.isHidden)
      session.waitUntilIdle()
      #expect(bar.isHidden && session.seenTabBar?.isHidden == true)
      session.pop()
      #expect(!bar.isHidden && bar.frame.minX == 0)
      #expect(session.seenTabBar?.description.hasPrefix("tab bar #") == true)
    }

    @Test("pages pushed above a hiding page cannot show the bar; the root's own flag counts")
    func anyPageOfTheStackHides() throws {
      // qiita.com/satorun (iOS 10.3.1): once the top page hides the tab, a page pushed above it
      // with false, true or nothing keeps it hidden. A blog's log shows the walk from the top
      // to the root, the root included (e-com-net.com, article 1644261768064720896).
      let (session, tabs, navigations) = try tabScene()
      session.push(hidingPage("D")).push(LoggedScreen("E", log: NavigationLog()))
      #expect(tabs.tabBar.isHidden)
      session.pop().pop()
      #expect(!tabs.tabBar.isHidden)
      let root = try #require(navigations[1].viewControllers.first)
      root.hidesBottomBarWhenPushed = true
      tabs.selectedIndex = 1
      #expect(tabs.tabBar.isHidden, "a tab whose root hides the bar shows none")
    }

    @Test("an interactive pop slides the bar in with the finger; cancelled, it stays hidden")
    func interactivePop() throws {
      let (session, tabs, _) = try tabScene()
      let bar = tabs.tabBar
      session.push(hidingPage("D"))
      session.swipeBack(to: 0.3, release: .flickBack)
      #expect(
        bar.isHidden, "HBDNavigationBar issue 192's reporter saw it vanish; here it was hidden")
      #expect(session.navigationController.topViewController?.title == "D")
      session.swipeBack(to: 0.7)
      #expect(!bar.isHidden && bar.frame.minX == 0)
      #expect(session.navigationController.viewControllers.count == 1)
    }

    @Test("mid-swipe, the bar is as far in as the finger has gone")
    func barFollowsTheFinger() throws {
      let (session, tabs, navigations) = try tabScene()
      session.push(hidingPage("D"))
      let window = try #require(navigations[0].view.window)
      let pans = GestureDriver.touchDown(at: CGPoint(x: 5, y: 300), in: window)
      let width = tabs.tabBar.bounds.width
      for step in 1...10 {
        for pan in pans {
          GestureDriver.move(pan, to: CGPoint(x: width * 0.05 * CGFloat(step), y: 0))
        }
        VirtualRunLoop.main.advance(frames: 1)
      }
      let percent = try #require(navigations[0].transitionCoordinator?.percentComplete)
      #expect(percent > 0.3)
      #expect(close(tabs.tabBar.frame.minX, -width * (1 - percent), tolerance: 1))
      for pan in pans { GestureDriver.end(pan) }
      session.waitUntilIdle()
    }

    @Test("only the navigation controller _selectedViewControllerInTabBar names hides the bar")
    func selectedViewControllerInTabBarDecides() throws {
      // SwiftUIIntrospect's example: a navigation controller nested in the tab's controller
      // hides nothing until UITabBarController's private method answers it.
      final class Container: UIViewController {}
      final class Answering: UITabBarController {
        override func selectedViewControllerInTabBar() -> UIViewController? {
          selectedViewController?.children.first
        }
      }
      for answers in [false, true] {
        freshModel()
        let tabs = answers ? Answering() : UITabBarController()
        let nested = UINavigationController(rootViewController: UIViewController())
        let container = Container()
        container.addChild(nested)
        container.view.addSubview(nested.view)
        tabs.viewControllers = [container]
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        nested.pushViewController(hidingPage("D"), animated: false)
        #expect(tabs.tabBar.isHidden == answers)
      }
    }

    @Test("a swizzle of the hidesBottomBarWhenPushed getter is what the push reads")
    func getterIsInTheTable() throws {
      let (session, tabs, _) = try tabScene()
      // Without the swizzle, the page hides the bar.
      session.push(hidingPage("D"))
      #expect(tabs.tabBar.isHidden)
      session.pop()
      let onlyTop: @convention(c) (id, SEL) -> Bool = { _, _ in false }
      let getter = try #require(
        class_getInstanceMethod(UIViewController.self, "hidesBottomBarWhenPushed"))
      let previous = method_setImplementation(getter, unsafeBitCast(onlyTop, to: IMP.self))
      defer { method_setImplementation(getter, previous) }
      session.push(hidingPage("D"))
      #expect(!tabs.tabBar.isHidden, "the swizzled getter says no")
    }
  }

  @MainActor
  @Suite("UITabBar")
  struct TabBarTests {
    @Test("a tap on a bar of any width finds its item or none, never a trap")
    func itemAtAnyWidth() {
      let tabs = UITabBarController()
      let pages = ["A", "B"].map { title in
        let page = UIViewController()
        page.title = title
        return page
      }
      tabs.viewControllers = pages
      let bar = tabs.tabBar
      for width in [CGFloat.leastNonzeroMagnitude, 1, 375, 1e300] {
        bar.frame.size.width = width
        _ = bar.item(at: CGPoint(x: width / 2, y: 10))
      }
      bar.frame.size.width = 375
      #expect(bar.item(at: CGPoint(x: 300, y: 10))?.title == "B")
      #expect(bar.item(at: CGPoint(x: CGFloat.nan, y: 10)) == nil)
    }

    @Test("the bar is 49 points on an iPhone, 50 on an iPad from iOS 12, plus the home indicator")
    func heights() {
      #expect(UITabBar.height(on: .iPhone8, majorVersion: 13) == 49)
      #expect(UITabBar.height(on: .iPhoneX, majorVersion: 13) == 83)
      #expect(UITabBar.height(on: .iPadAir, majorVersion: 11) == 69)
      #expect(UITabBar.height(on: .iPadAir, majorVersion: 12) == 70)
    }

    @Test("iOS 15 with its SDK: transparent where the content ends, opaque over scrolled content")
    func scrollEdge() throws {
      let (session, tabs, navigations) = try tabScene(version: "15.0")
      let bar = tabs.tabBar
      #expect(bar.isAtScrollEdge, "no scroll view: NativeScript issue 9614's tabs")
      #expect(bar.asSeen().backgroundOpacity == 0)
      let page = try #require(navigations[0].topViewController)
      let scrollView = UIScrollView(frame: page.view.bounds)
      scrollView.contentSize = CGSize(width: 375, height: 3000)
      page.view.addSubview(scrollView)
      session.scroll(scrollView, to: 100)
      #expect(!bar.isAtScrollEdge && bar.asSeen().backgroundOpacity > 0.5)
      session.scroll(scrollView, to: 3000 - scrollView.bounds.height)
      #expect(bar.isAtScrollEdge && bar.asSeen().backgroundOpacity == 0)
      let opaque = UITabBarAppearance()
      opaque.configureWithOpaqueBackground()
      bar.scrollEdgeAppearance = opaque
      #expect(bar.asSeen().backgroundOpacity == 1, "FloatingPanel issue 504's fix")
    }

    @Test("iOS 15 with the iOS 14 SDK, and iOS 13: the bar keeps its look at the edge")
    func olderLooks() throws {
      for (version, sdk) in [("15.0", "14.0"), ("13.0", nil)] {
        freshModel()
        let (_, tabs, _) = try tabScene(version: version, sdk: sdk)
        #expect(tabs.tabBar.isAtScrollEdge)
        #expect(tabs.tabBar.asSeen().backgroundOpacity > 0.5, "iOS \(version) sdk \(sdk ?? "-")")
      }
    }

    @Test("appearances on a profile without them are refused, naming the version")
    func unavailableAppearances() throws {
      let (_, tabs, _) = try tabScene(version: "12.0")
      UIKitModelIssues.removeAll()
      tabs.tabBar.standardAppearance = UITabBarAppearance()
      tabs.tabBar.scrollEdgeAppearance = UITabBarAppearance()
      #expect(tabs.tabBar.scrollEdgeAppearance == nil)
      #expect(
        UIKitModelIssues.all.map { "\($0)" } == [
          "UITabBar.standardAppearance came with iOS 13; this is iOS 12: nothing changed",
          "UITabBar.scrollEdgeAppearance came with iOS 15; this is iOS 12: nothing changed",
        ])
    }

    @Test("a tab bar's legacy tint draws as the navigation bar's, and the appearance wins from 13")
    func legacyAndStandard() throws {
      let (_, tabs, _) = try tabScene(version: "13.0")
      let bar = tabs.tabBar
      bar.barTintColor = .red
      bar.isTranslucent = false
      #expect(bar.asSeen().backgroundColor == UIColorComponents(.red))
      let blue = UITabBarAppearance()
      blue.configureWithOpaqueBackground()
      blue.backgroundColor = .blue
      bar.standardAppearance = blue
      #expect(bar.asSeen().backgroundColor == UIColorComponents(.blue))
    }
  }
}
