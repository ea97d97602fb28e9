// A scroll view's own pan: the finger drags the content, a sideways swipe on a table view is left
// to the pans above it, and a horizontal scroll view under the swipe-back takes the finger from
// it unless one of the two yields (require(toFail:), or a delegate that lets both recognize).
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// A page filled by a scroll view three screens wide (a paging-style gallery), which hears the
/// dragging callbacks.
final class GalleryPage: UIViewController, UIScrollViewDelegate {
  let scrollView = UIScrollView()
  var heard: [String] = []

  override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.frame = view.bounds
    scrollView.contentSize = CGSize(width: view.bounds.width * 3, height: view.bounds.height)
    scrollView.delegate = self
    view.addSubview(scrollView)
  }

  func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { heard.append("willBegin") }
  func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
    heard.append("didEnd(\(decelerate))")
  }
  @MainActor func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {
    heard.append("didEndDecelerating")
  }
}

/// A scroll view whose class answers
/// `gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:` yes while its content
/// is at its left edge, as FDFullscreenPopGesture's README and demo scroll view do.
final class YieldingScrollView: UIScrollView {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(YieldingScrollView.self) {
      ObjCMethodDeclaration(
        "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:",
        YieldingScrollView.simultaneous)
    }
  }
  nonisolated static let simultaneous: @convention(c) (id, SEL, id?, id?) -> Bool = { me, _, _, _ in
    MainThread.assumeIsolated(with: me) { me in
      me.receiver(as: YieldingScrollView.self).contentOffset.x <= 0
    }
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("UIScrollView's pan")
  struct ScrollViewPanTests {
    /// A session whose top page is a `GalleryPage` over a home page.
    private func gallery() -> (NavigationSession, GalleryPage) {
      let session = NavigationSession(root: UIViewController())
      let page = GalleryPage()
      session.push(page)
      return (session, page)
    }

    /// A launched page, alone in its navigation controller, and its window.
    private func launchedPage() throws -> (UIViewController, UIWindow) {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      return (page, try #require(page.view.window))
    }

    /// A finger down at `x`, half way down the window, moved by `dx` in `steps` frames (every
    /// pan that follows it, nearest first), then lifted; returns the pans.
    @discardableResult
    private func drag(
      at x: CGFloat, by dx: CGFloat, steps: Int = 10, in window: UIWindow
    ) -> [UIPanGestureRecognizer] {
      let pans = GestureDriver.touchDown(at: CGPoint(x: x, y: window.bounds.midY), in: window)
      for step in 1...steps {
        for pan in pans where pan.isFollowingTouch {
          GestureDriver.move(pan, to: CGPoint(x: dx * CGFloat(step) / CGFloat(steps), y: 0))
        }
        VirtualRunLoop.main.advance(frames: 1)
      }
      for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan) }
      return pans
    }

    @Test("a scroll view has its pan: first of its recognizers, with a delegate that asks the view")
    func builtIn() throws {
      let scrollView = UIScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
      let other = UIPanGestureRecognizer()
      scrollView.addGestureRecognizer(other)
      let pan = scrollView.panGestureRecognizer
      #expect(
        scrollView.gestureRecognizers?.map(ObjectIdentifier.init)
          == [pan, other].map(ObjectIdentifier.init))
      #expect(pan.view === scrollView && pan.delegate != nil)
      #expect(scrollView.panGestureRecognizer === pan, "one pan per scroll view")
      #expect(scrollView.responds(to: UIScrollView.Selectors.handlePan))
    }

    @Test("a finger drags the content from where the gesture began, and a flick moves it on")
    func drags() throws {
      let (_, page) = gallery()
      let window = try #require(page.view.window)
      drag(at: 300, by: -200, in: window)
      // The pan began at the first move past 10 points (20 of 200): the content followed the
      // remaining 180, then the release's speed (20 points a frame) carried it on.
      #expect(page.heard.first == "willBegin")
      #expect(page.heard.contains("didEnd(true)"))
      VirtualRunLoop.main.runUntilIdle()
      #expect(page.scrollView.contentOffset.x > 180)
      #expect(page.scrollView.contentOffset.y == 0, "the content does not move along y")
      #expect(page.heard.last == "didEndDecelerating")
      #expect(!page.scrollView.isDragging)
    }

    @Test("the content stops at its edges: a drag to the right from the left edge leaves it at 0")
    func staysWithinContent() throws {
      let (_, page) = gallery()
      let window = try #require(page.view.window)
      drag(at: 200, by: 150, in: window)
      VirtualRunLoop.main.runUntilIdle()
      #expect(page.scrollView.contentOffset == .zero)
      #expect(page.heard.first == "willBegin", "the pan began: the content can scroll sideways")
    }

    @Test("a sideways swipe on content that only scrolls up and down is left to the pans above")
    func sidewaysOnTallContent() throws {
      let (page, window) = try launchedPage()
      let table = UITableView(frame: page.view.bounds)
      table.contentSize = CGSize(width: page.view.bounds.width, height: 3_000)
      page.view.addSubview(table)
      let outer = UIPanGestureRecognizer()
      page.view.addGestureRecognizer(outer)
      let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(pans.first === table.panGestureRecognizer, "the table's pan is nearest")
      for pan in pans { GestureDriver.move(pan, to: CGPoint(x: 30, y: 2)) }
      #expect(table.panGestureRecognizer.state == .possible && outer.state == .began)
      for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
      // Up and down, the table takes the finger and the outer pan fails.
      let again = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      for pan in again { GestureDriver.move(pan, to: CGPoint(x: 2, y: -30)) }
      #expect(table.panGestureRecognizer.state == .began && outer.state == .possible)
      for pan in again where pan.isFollowingTouch { GestureDriver.end(pan) }
      VirtualRunLoop.main.runUntilIdle()
      #expect(table.contentOffset.y > 0, "the flick scrolled the table")
    }

    @Test("alwaysBounceHorizontal lets narrow content take a sideways swipe; scrolling off, none")
    func bounceAndEnabled() throws {
      let (page, window) = try launchedPage()
      let scrollView = UIScrollView(frame: page.view.bounds)
      page.view.addSubview(scrollView)
      let sideways = CGPoint(x: -30, y: 0)
      func begins() -> Bool {
        let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
        for pan in pans { GestureDriver.move(pan, to: sideways) }
        let began = scrollView.panGestureRecognizer.state == .began
        for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
        return began
      }
      #expect(!begins(), "content no wider than the view")
      scrollView.alwaysBounceHorizontal = true
      #expect(begins())
      scrollView.bounces = false
      #expect(!begins(), "alwaysBounceHorizontal needs bounces")
      scrollView.bounces = true
      scrollView.isScrollEnabled = false
      #expect(!scrollView.panGestureRecognizer.isEnabled && !begins())
      scrollView.isScrollEnabled = true
      #expect(begins())
      // Dragged because it always bounces, content no larger than the view stays in place, and
      // a flick does not carry it away.
      let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      for step in 1...5 {
        for pan in pans { GestureDriver.move(pan, to: CGPoint(x: -30 * CGFloat(step), y: 0)) }
      }
      for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan) }
      VirtualRunLoop.main.runUntilIdle()
      #expect(scrollView.contentOffset == .zero)
    }

    @Test("content inset counts: content as tall as the view under a 64-point inset scrolls")
    func insetsCount() throws {
      let (page, window) = try launchedPage()
      let scrollView = UIScrollView(frame: page.view.bounds)
      scrollView.contentSize = page.view.bounds.size
      page.view.addSubview(scrollView)
      let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      for pan in pans { GestureDriver.move(pan, to: CGPoint(x: 0, y: 30)) }
      #expect(scrollView.panGestureRecognizer.state == .possible, "nothing to scroll")
      for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
      scrollView.contentInset = UIEdgeInsets(top: 64, left: 0, bottom: 0, right: 0)
      let again = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      for step in 1...4 {
        for pan in again { GestureDriver.move(pan, to: CGPoint(x: 0, y: 30 * CGFloat(step))) }
      }
      #expect(scrollView.panGestureRecognizer.state == .changed)
      #expect(scrollView.contentOffset.y == -64, "pulled down to the inset's edge, no further")
      for pan in again where pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
      // Content shorter than the view, dragged because it always bounces, stays where its inset
      // puts it (UIKit's bound: max(-top, content + bottom - visible)).
      scrollView.contentSize = CGSize(width: page.view.bounds.width, height: 100)
      scrollView.alwaysBounceVertical = true
      scrollView.contentOffset = CGPoint(x: 0, y: -64)
      let up = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      for step in 1...4 {
        for pan in up { GestureDriver.move(pan, to: CGPoint(x: 0, y: -30 * CGFloat(step))) }
      }
      for pan in up where pan.isFollowingTouch { GestureDriver.end(pan) }
      VirtualRunLoop.main.runUntilIdle()
      #expect(scrollView.contentOffset.y == -64)
    }

    @Test("session.drag: a finger that rests before lifting moves nothing on; a flick carries on")
    func sessionDrag() throws {
      let (session, page) = gallery()
      session.drag(from: CGPoint(x: 300, y: 300), by: CGPoint(x: -200, y: 0))
      // 12 steps of 200 / 12: the pan began at the first (16.7 points, past 10).
      #expect(close(page.scrollView.contentOffset.x, 200 - 200.0 / 12, tolerance: 1e-6))
      #expect(page.heard.last == "didEnd(false)")
      session.drag(from: CGPoint(x: 300, y: 300), by: CGPoint(x: -200, y: 0), flick: true)
      #expect(page.scrollView.contentOffset.x > 2 * (200 - 200.0 / 12))
      #expect(page.heard.last == "didEndDecelerating")
      #expect(session.trace.last?.contains("drag (300.0, 300.0) by (-200.0, 0.0)") == true)
      session.drag(from: CGPoint(x: CGFloat.nan, y: 0), by: .zero)
      #expect(UIKitModelIssues.all.contains { "\($0)".contains("drag (nan") })
      #expect(session.trace.last?.contains("drag (refused)") == true)
    }

    @Test("two drags at once: the run loop tracks until the last one ends")
    func overlappingDrags() throws {
      let (_, page) = gallery()
      let window = try #require(page.view.window)
      let other = UIScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
      other.contentSize = CGSize(width: 100, height: 1_000)
      page.view.addSubview(other)
      other.simulateDrag(by: CGPoint(x: 0, y: 200), duration: 0.5)
      #expect(VirtualRunLoop.main.currentMode == .tracking)
      let pans = GestureDriver.touchDown(at: CGPoint(x: 300, y: 300), in: window)
      for pan in pans { GestureDriver.move(pan, to: CGPoint(x: -40, y: 0)) }
      for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
      #expect(VirtualRunLoop.main.currentMode == .tracking, "the simulated drag still runs")
      VirtualRunLoop.main.runUntilIdle()
      #expect(VirtualRunLoop.main.currentMode == .default)
    }

    @Test("the run loop tracks while the finger drags and goes back after; scrolling off cancels")
    func trackingAndCancel() throws {
      let (_, page) = gallery()
      let window = try #require(page.view.window)
      #expect(VirtualRunLoop.main.currentMode == .default)
      let pans = GestureDriver.touchDown(at: CGPoint(x: 300, y: 300), in: window)
      for pan in pans { GestureDriver.move(pan, to: CGPoint(x: -40, y: 0)) }
      #expect(VirtualRunLoop.main.currentMode == .tracking && page.scrollView.isDragging)
      page.scrollView.isScrollEnabled = false
      #expect(page.heard.last == "didEnd(false)", "the drag was cancelled: no deceleration")
      #expect(VirtualRunLoop.main.currentMode == .default && !page.scrollView.isDragging)
      for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan) }
    }

    @Test("under the swipe-back, a wide scroll view takes the finger: no pop")
    func blocksSwipeBack() throws {
      let (session, page) = gallery()
      session.swipeBack(to: 0.7)
      #expect(session.navigationController.viewControllers.count == 2)
      #expect(page.heard.first == "willBegin")
    }

    @Test("require(toFail:) the swipe-back: the scroll view waits, the swipe-back pops")
    func requireToFailSwipeBack() throws {
      // Apple's require(toFail:): the receiver stays in possible until the other fails, and
      // fails when the other begins.
      let (session, page) = gallery()
      let system = try #require(session.navigationController.interactivePopGestureRecognizer)
      page.scrollView.panGestureRecognizer.require(toFail: system)
      session.swipeBack(to: 0.7)
      #expect(session.navigationController.viewControllers.count == 1)
      #expect(page.heard.isEmpty, "the scroll view never dragged")
      #expect(page.scrollView.contentOffset == .zero)
    }

    @Test("a scroll view that recognizes beside the swipe-back at its left edge lets it pop")
    func simultaneousAtLeftEdge() throws {
      let session = NavigationSession(root: UIViewController())
      let page = UIViewController()
      let scrollView = YieldingScrollView()
      page.loadViewIfNeeded()
      scrollView.frame = page.view.bounds
      scrollView.contentSize = CGSize(width: 3 * page.view.bounds.width, height: 10)
      page.view.addSubview(scrollView)
      session.push(page)
      session.swipeBack(to: 0.7)
      #expect(session.navigationController.viewControllers.count == 1)
      // Away from the edge it keeps the finger.
      session.push(page)
      scrollView.contentOffset = CGPoint(x: 50, y: 0)
      session.swipeBack(to: 0.7)
      #expect(session.navigationController.viewControllers.count == 2)
    }
  }
}
