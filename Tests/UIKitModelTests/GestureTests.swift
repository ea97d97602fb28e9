// Gesture recognizers on views: attached and removed, offered the touches of a finger that comes
// down in their view, edge pans only at the edge, and delegates asked through the runtime.
import Foundation
import Hooks
import ObjCRuntime
import Synchronization
import Testing
import UIKitModel

/// A recognizer delegate whose answers are methods of its class's table, so hooks decide.
final class TableGestureDelegate: ObjCObject, UIGestureRecognizerDelegate {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(TableGestureDelegate.self) {
      ObjCMethodDeclaration("gestureRecognizerShouldBegin:", TableGestureDelegate.shouldBegin)
      ObjCMethodDeclaration(
        "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:",
        TableGestureDelegate.simultaneous)
    }
  }
  nonisolated static let shouldBegin: @convention(c) (id, SEL, id?) -> Bool = { _, _, _ in
    MainThread.assumeIsolated { true }
  }
  nonisolated static let simultaneous: @convention(c) (id, SEL, id?, id?) -> Bool = { _, _, _, _ in
    MainThread.assumeIsolated { true }
  }
}

/// Counts the actions a recognizer sends.
/// A delegate in Swift that lets a pan begin only to the right, as FDFullscreenPopGesture's
/// does, and keeps the translations it was asked with.
final class RightwardsOnly: UIGestureRecognizerDelegate {
  var asked: [CGPoint] = []

  func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
    guard let pan = gestureRecognizer as? UIPanGestureRecognizer else { return false }
    let translation = pan.translation(in: pan.view)
    asked.append(translation)
    return translation.x > 0
  }
}

final class PanTarget: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(PanTarget.self) {
      ObjCMethodDeclaration("pan:", PanTarget.pan)
    }
  }
  var states: [UIGestureRecognizer.State] = []
  static let pan: @convention(c) (id, SEL, id?) -> Void = { me, _, recognizer in
    MainThread.assumeIsolated(with: me, recognizer) { me, recognizer in
      guard let recognizer = recognizer?.takeUnretainedObject() as? UIGestureRecognizer else {
        return
      }
      me.receiver(as: PanTarget.self).states.append(recognizer.state)
    }
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("UIGestureRecognizer")
  struct GestureTests {
    /// A launched page with a pan on its view (inner) and one on the window (outer).
    private func pansOnPageAndWindow() throws -> (
      UIWindow, inner: UIPanGestureRecognizer, outer: UIPanGestureRecognizer
    ) {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      let window = try #require(page.view.window)
      let inner = UIPanGestureRecognizer()
      let outer = UIPanGestureRecognizer()
      page.view.addGestureRecognizer(inner)
      window.addGestureRecognizer(outer)
      return (window, inner, outer)
    }

    @Test("recognizers live on views: added, moved to another view, removed")
    func attach() {
      let first = UIView(frame: .zero)
      let second = UIView(frame: .zero)
      let pan = UIPanGestureRecognizer()
      #expect(first.gestureRecognizers == nil)
      first.addGestureRecognizer(pan)
      first.addGestureRecognizer(pan)
      #expect(first.gestureRecognizers?.count == 1 && pan.view === first)
      second.addGestureRecognizer(pan)
      #expect(first.gestureRecognizers == nil && pan.view === second)
      first.removeGestureRecognizer(pan)
      #expect(pan.view === second, "removing from a view it is not on changes nothing")
      second.removeGestureRecognizer(pan)
      #expect(pan.view == nil && second.gestureRecognizers == nil)
    }

    @Test("the swipe-back gesture is on the navigation controller's view")
    func interactivePopOnView() throws {
      let session = NavigationSession(root: UIViewController())
      let navigation = session.navigationController
      let pan = try #require(navigation.interactivePopGestureRecognizer)
      #expect(pan.view === navigation.view)
    }

    @Test("a finger down on a page's view reaches the pan on it, with locations in any view")
    func touchesReachTheView() throws {
      let page = UIViewController()
      let session = NavigationSession(root: page)
      let target = PanTarget()
      let pan = UIPanGestureRecognizer()
      pan.addTarget(target, action: "pan:")
      page.view.addGestureRecognizer(pan)
      let window = try #require(page.view.window)
      let following = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(following.map { $0 === pan } == [true])
      GestureDriver.move(pan, to: CGPoint(x: 12, y: 0))
      GestureDriver.move(pan, to: CGPoint(x: 30, y: 0))
      #expect(pan.location(in: nil) == CGPoint(x: 230, y: 300))
      #expect(abs(pan.location(in: session.navigationController.navigationBar).y - 280) < 1e-9)
      #expect(pan.translation(in: page.view) == CGPoint(x: 30, y: 0))
      GestureDriver.end(pan)
      #expect(target.states == [.began, .changed, .ended])
    }

    // UIKit's UIPanGestureRecognizer reference: the gesture "begins when the user moves the
    // minimum number of fingers allowed enough distance for recognition as a pan".
    @Test("a pan begins once the finger has moved 10 points, not when it comes down")
    func beginsAfterMovement() throws {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      let target = PanTarget()
      let pan = UIPanGestureRecognizer()
      pan.addTarget(target, action: "pan:")
      page.view.addGestureRecognizer(pan)
      let window = try #require(page.view.window)
      GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(pan.state == .possible && pan.isFollowingTouch)
      GestureDriver.move(pan, to: CGPoint(x: 6, y: 0))
      #expect(target.states.isEmpty, "6 points is not a pan yet")
      GestureDriver.move(pan, to: CGPoint(x: 6, y: 8))
      #expect(target.states == [.began], "10 points, in any direction")
      #expect(pan.translation(in: nil) == CGPoint(x: 6, y: 8))
      GestureDriver.end(pan)
      #expect(target.states == [.began, .ended])
    }

    @Test("a finger lifted before it moved far enough: the pan fails quietly, nothing is sent")
    func liftedTooSoon() throws {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      let target = PanTarget()
      let pan = UIPanGestureRecognizer()
      pan.addTarget(target, action: "pan:")
      page.view.addGestureRecognizer(pan)
      let window = try #require(page.view.window)
      GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      GestureDriver.move(pan, to: CGPoint(x: 3, y: 0))
      GestureDriver.end(pan)
      #expect(!UIKitModelIssues.all.contains { "\($0)".contains(pan.description) })
      #expect(target.states.isEmpty)
      #expect(!pan.isFollowingTouch && pan.state == .possible)
    }

    @Test("the delegate is asked when the finger has moved, with the translation known")
    func delegateSeesTranslation() throws {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      let pan = UIPanGestureRecognizer()
      let delegate = RightwardsOnly()
      pan.delegate = delegate
      page.view.addGestureRecognizer(pan)
      let window = try #require(page.view.window)
      GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(delegate.asked.isEmpty, "not asked at touch-down")
      GestureDriver.move(pan, to: CGPoint(x: -12, y: 0))
      #expect(delegate.asked == [CGPoint(x: -12, y: 0)])
      #expect(pan.state == .possible && !pan.isFollowingTouch, "a first move to the left fails")
      GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      GestureDriver.move(pan, to: CGPoint(x: 12, y: 0))
      #expect(pan.state == .began)
      GestureDriver.end(pan, cancelled: true)
    }

    @Test("an edge pan takes a touch only within 20 points of its edge")
    func edgeOnly() throws {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      let edge = UIScreenEdgePanGestureRecognizer()
      edge.edges = .left
      page.view.addGestureRecognizer(edge)
      let window = try #require(page.view.window)
      #expect(GestureDriver.touchDown(at: CGPoint(x: 100, y: 300), in: window).isEmpty)
      #expect(GestureDriver.touchDown(at: CGPoint(x: 10, y: 300), in: window).first === edge)
      GestureDriver.move(edge, to: CGPoint(x: 20, y: 0))
      #expect(edge.state == .began)
      GestureDriver.end(edge, cancelled: true)
    }

    @Test("two pans on one touch: the nearest begins; the other too only if simultaneous")
    func simultaneous() throws {
      let (window, inner, outer) = try pansOnPageAndWindow()
      let alone = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(alone.count == 2 && alone.first === inner, "both follow the finger, nearest first")
      for pan in alone { GestureDriver.move(pan, to: CGPoint(x: 20, y: 0)) }
      #expect(inner.state == .began && outer.state == .possible && !outer.isFollowingTouch)
      GestureDriver.end(inner, cancelled: true)
      let delegate = TableGestureDelegate()
      outer.delegate = delegate
      let both = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      for pan in both { GestureDriver.move(pan, to: CGPoint(x: 20, y: 0)) }
      #expect(inner.state == .began && outer.state == .began)
      for pan in both { GestureDriver.end(pan, cancelled: true) }
    }

    @Test("require(toFail:): the receiver waits while the other follows, begins when it fails")
    func requireToFailBeginsAfterFailure() throws {
      // Apple's require(toFail:): the receiver's move out of possible is delayed until the
      // other fails.
      let (window, inner, outer) = try pansOnPageAndWindow()
      let rightwards = RightwardsOnly()
      outer.delegate = rightwards
      inner.require(toFail: outer)
      let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      GestureDriver.move(inner, to: CGPoint(x: -20, y: 0))
      #expect(inner.state == .possible && inner.isFollowingTouch, "waits for the outer pan")
      GestureDriver.move(outer, to: CGPoint(x: -20, y: 0))
      #expect(outer.state == .possible && !outer.isFollowingTouch, "the outer pan failed")
      #expect(inner.state == .began, "begins as soon as the other failed")
      for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
    }

    @Test("require(toFail:): a waiting receiver begins when the other's finger lifts too soon")
    func requireToFailOtherLifts() throws {
      let (window, inner, outer) = try pansOnPageAndWindow()
      inner.require(toFail: outer)
      let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      GestureDriver.move(inner, to: CGPoint(x: 20, y: 0))
      GestureDriver.move(outer, to: CGPoint(x: 5, y: 0))
      #expect(inner.state == .possible && inner.isFollowingTouch, "waits")
      GestureDriver.end(outer)
      #expect(inner.state == .began, "the other never began: it failed as its finger lifted")
      for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
      // Disabling the other has the same effect.
      let again = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      GestureDriver.move(inner, to: CGPoint(x: 20, y: 0))
      #expect(inner.state == .possible && inner.isFollowingTouch)
      outer.isEnabled = false
      #expect(inner.state == .began, "a disabled recognizer has failed")
      outer.isEnabled = true
      for pan in again where pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
    }

    @Test("require(toFail:): a cancelled touch fails the waiting receiver, which never begins")
    func requireToFailCancelledTouch() throws {
      let (window, inner, outer) = try pansOnPageAndWindow()
      inner.require(toFail: outer)
      let target = PanTarget()
      inner.addTarget(target, action: "pan:")
      _ = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      GestureDriver.move(inner, to: CGPoint(x: 20, y: 0))
      GestureDriver.move(outer, to: CGPoint(x: 5, y: 0))
      GestureDriver.end(outer, cancelled: true)
      #expect(inner.state == .possible && !inner.isFollowingTouch)
      #expect(target.states.isEmpty, "its targets heard nothing")
    }

    @Test("require(toFail:) of a recognizer under way with another finger: the receiver fails")
    func requireToFailOtherUnderWay() throws {
      let (window, inner, outer) = try pansOnPageAndWindow()
      inner.require(toFail: outer)
      #expect(GestureDriver.begin(outer))
      let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(pans.map(ObjectIdentifier.init) == [ObjectIdentifier(inner)])
      GestureDriver.move(inner, to: CGPoint(x: 20, y: 0))
      #expect(inner.state == .possible && !inner.isFollowingTouch, "the other recognized")
      GestureDriver.end(outer, cancelled: true)
    }

    @Test("require(toFail:): the receiver fails when the other begins")
    func requireToFailFailsWhenOtherBegins() throws {
      // Apple's require(toFail:): if the other recognizes (or begins), the receiver fails.
      let (window, inner, outer) = try pansOnPageAndWindow()
      inner.require(toFail: outer)
      inner.require(toFail: outer)
      let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      GestureDriver.move(inner, to: CGPoint(x: 20, y: 0))
      #expect(inner.state == .possible && inner.isFollowingTouch, "waits")
      GestureDriver.move(outer, to: CGPoint(x: 20, y: 0))
      #expect(outer.state == .began)
      #expect(inner.state == .possible && !inner.isFollowingTouch, "failed as the other began")
      for pan in pans where pan.isFollowingTouch { GestureDriver.end(pan, cancelled: true) }
    }

    @Test("require(toFail:) of itself, or of a pan the finger is not on, holds nothing back")
    func requireToFailNothingToWaitFor() throws {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      let window = try #require(page.view.window)
      let pan = UIPanGestureRecognizer()
      page.view.addGestureRecognizer(pan)
      pan.require(toFail: pan)
      let elsewhere = UIPanGestureRecognizer()
      let otherView = UIView()
      otherView.addGestureRecognizer(elsewhere)
      pan.require(toFail: elsewhere)
      let pans = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(pans.count == 1)
      GestureDriver.move(pan, to: CGPoint(x: 20, y: 0))
      #expect(pan.state == .began)
      GestureDriver.end(pan, cancelled: true)
      withExtendedLifetime(otherView) {}
    }

    @Test("gestureRecognizerShouldBegin: is asked through the runtime: a hook can refuse")
    func shouldBeginHookable() throws {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      let window = try #require(page.view.window)
      let pan = UIPanGestureRecognizer()
      let delegate = TableGestureDelegate()
      pan.delegate = delegate
      page.view.addGestureRecognizer(pan)
      let asked = Atomic(0)
      let token = try TableGestureDelegate.hook(
        instead: "gestureRecognizerShouldBegin:"
      ) { (_: HookOriginal<Bool, UIGestureRecognizer?>, _, _: UIGestureRecognizer?) -> Bool in
        asked.add(1, ordering: .relaxed)
        return false
      }
      defer { token.remove() }
      #expect(GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window).first === pan)
      GestureDriver.move(pan, to: CGPoint(x: 20, y: 0))
      #expect(asked.load(ordering: .relaxed) == 1)
      #expect(pan.state == .possible && !pan.isFollowingTouch)
    }

    @Test("a touch at NaN is refused with an issue, nothing begins")
    func badTouch() throws {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      let window = try #require(page.view.window)
      page.view.addGestureRecognizer(UIPanGestureRecognizer())
      #expect(GestureDriver.touchDown(at: CGPoint(x: CGFloat.nan, y: 1), in: window).isEmpty)
      #expect(UIKitModelIssues.all.contains { "\($0)".contains("touch (nan") })
    }
  }
}
