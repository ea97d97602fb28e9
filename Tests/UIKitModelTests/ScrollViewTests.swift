// UIScrollView: setContentOffset: and scrollViewDidScroll: through the runtime's tables, and the
// deceleration after a flick that outlives its controller's place on the stack.
import Foundation
import Hooks
import ObjCRuntime
import Synchronization
import Testing
import UIKitModel

/// A page that is its scroll view's delegate, with `scrollViewDidScroll:` in its class's table
/// (as an Objective-C class implements it), so that the send can be hooked.
final class ScrollingPage: UIViewController, UIScrollViewDelegate {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(ScrollingPage.self) {
      ObjCMethodDeclaration("scrollViewDidScroll:", ScrollingPage.didScroll)
    }
  }
  nonisolated static let didScroll: @convention(c) (id, SEL, id?) -> Void = { me, _, view in
    MainThread.assumeIsolated(with: me, view) { me, view in
      guard let view = view?.takeUnretainedObject() as? UIScrollView else { return }
      me.receiver(as: ScrollingPage.self).scrollViewDidScroll(view)
    }
  }

  let scrollView = UIScrollView(frame: CGRect(x: 0, y: 0, width: 375, height: 667))
  var offsets: [CGFloat] = []
  /// How many offsets the page had heard when it disappeared, if it did.
  var heardWhenGone: Int?
  var willDecelerate: Bool?
  var endedDecelerating = false

  override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.delegate = self
    view.addSubview(scrollView)
  }

  override func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
    heardWhenGone = offsets.count
  }

  func scrollViewDidScroll(_ scrollView: UIScrollView) {
    offsets.append(scrollView.contentOffset.y)
  }

  func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
    willDecelerate = decelerate
  }

  func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {
    endedDecelerating = true
  }
}

extension UIKitModelTests.ScrollViewTests {
  @Test("setContentOffset: is in the table: a hook sees every change, from Swift or a send")
  func setterHookable() throws {
    let page = ScrollingPage()
    _ = page.view
    let seen = Mutex<[CGPoint]>([])
    let token = try UIScrollView.hook(before: "setContentOffset:") {
      (_, point: CGPoint) in seen.withLock { $0.append(point) }
    }
    defer { token.remove() }
    page.scrollView.contentOffset = CGPoint(x: 0, y: 12)
    #expect(seen.withLock { $0 } == [CGPoint(x: 0, y: 12)])
    #expect(page.offsets == [12])
  }

  @Test("scrollViewDidScroll: goes through the delegate's table: a hook on the page runs")
  func delegateHookable() throws {
    let page = ScrollingPage()
    _ = page.view
    let calls = Atomic(0)
    let token = try ScrollingPage.hook(before: "scrollViewDidScroll:") {
      (_, _: UIScrollView?) in calls.add(1, ordering: .relaxed)
    }
    defer { token.remove() }
    page.scrollView.contentOffset = CGPoint(x: 0, y: 5)
    page.scrollView.contentOffset = CGPoint(x: 0, y: 5)
    #expect(calls.load(ordering: .relaxed) == 1, "an unchanged offset tells nobody")
    #expect(page.offsets == [5])
  }

  @Test("a flick decelerates on after the drag, and goes on after the page is gone")
  func decelerationOutlivesThePop() throws {
    let home = UIViewController()
    let page = ScrollingPage()
    let session = NavigationSession(root: home)
    session.push(page)
    page.scrollView.simulateDrag(
      by: CGPoint(x: 0, y: 100), duration: 0.1, releaseVelocity: 1500)
    VirtualRunLoop.main.advance(by: 0.15)
    #expect(page.scrollView.isDecelerating && page.willDecelerate == true)
    session.pop()
    let gone = try #require(page.heardWhenGone)
    #expect(page.offsets.count > gone, "scrollViewDidScroll after viewDidDisappear")
    #expect(!page.scrollView.isDecelerating && page.endedDecelerating)
    // 1500 points a second, keeping 0.998 of it per millisecond: about 750 points more.
    let travelled = try #require(page.offsets.last) - 100
    #expect(abs(travelled - 750) < 30, "\(travelled)")
    #expect(zip(page.offsets, page.offsets.dropFirst()).allSatisfy { $0 < $1 })
  }

  @Test("a flick stops at the end of the content; one without a drag does not decelerate")
  func decelerationEdges() throws {
    let page = ScrollingPage()
    _ = page.view
    page.scrollView.contentSize = CGSize(width: 375, height: 1000)
    page.scrollView.simulateDrag(by: CGPoint(x: 0, y: 100), duration: 0.1, releaseVelocity: 5000)
    VirtualRunLoop.main.runUntilIdle()
    #expect(abs(page.scrollView.contentOffset.y - (1000 - 667)) < 1e-9)
    #expect(page.endedDecelerating)
    let still = ScrollingPage()
    _ = still.view
    still.scrollView.simulateDrag(by: .zero, duration: 0.1, releaseVelocity: 800)
    VirtualRunLoop.main.runUntilIdle()
    #expect(still.willDecelerate == false && !still.scrollView.isDecelerating)
  }

  @Test("a NaN offset or drag is refused, the offset unchanged")
  func badInput() {
    let view = UIScrollView(frame: .zero)
    view.contentOffset = CGPoint(x: 0, y: 3)
    view.contentOffset = CGPoint(x: CGFloat.nan, y: 0)
    view.simulateDrag(by: CGPoint(x: 0, y: CGFloat.infinity), duration: 0.1)
    VirtualRunLoop.main.runUntilIdle()
    #expect(view.contentOffset == CGPoint(x: 0, y: 3))
    #expect(!view.isDragging)
  }
}
