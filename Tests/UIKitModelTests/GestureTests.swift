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
  static let shouldBegin: @convention(c) (id, SEL, id?) -> Bool = { _, _, _ in true }
  static let simultaneous: @convention(c) (id, SEL, id?, id?) -> Bool = { _, _, _, _ in true }
}

/// Counts the actions a recognizer sends.
final class PanTarget: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(PanTarget.self) {
      ObjCMethodDeclaration("pan:", PanTarget.pan)
    }
  }
  var states: [UIGestureRecognizer.State] = []
  static let pan: @convention(c) (id, SEL, id?) -> Void = { me, _, recognizer in
    guard let recognizer = recognizer?.takeUnretainedObject() as? UIGestureRecognizer else {
      return
    }
    me.receiver(as: PanTarget.self).states.append(recognizer.state)
  }
}

extension UIKitModelTests {
  @Suite("UIGestureRecognizer")
  struct GestureTests {
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
      let began = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(began.map { $0 === pan } == [true])
      GestureDriver.move(pan, to: CGPoint(x: 30, y: 0))
      #expect(pan.location(in: nil) == CGPoint(x: 230, y: 300))
      #expect(abs(pan.location(in: session.navigationController.navigationBar).y - 280) < 1e-9)
      #expect(pan.translation(in: page.view) == CGPoint(x: 30, y: 0))
      GestureDriver.end(pan)
      #expect(target.states == [.began, .changed, .ended])
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
      GestureDriver.end(edge, cancelled: true)
    }

    @Test("two pans on one touch: the nearest begins; the other too only if simultaneous")
    func simultaneous() throws {
      let page = UIViewController()
      _ = NavigationSession(root: page)
      let window = try #require(page.view.window)
      let inner = UIPanGestureRecognizer()
      let outer = UIPanGestureRecognizer()
      page.view.addGestureRecognizer(inner)
      window.addGestureRecognizer(outer)
      let alone = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(alone.count == 1 && alone.first === inner)
      GestureDriver.end(inner, cancelled: true)
      let delegate = TableGestureDelegate()
      outer.delegate = delegate
      let both = GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window)
      #expect(both.count == 2)
      for pan in both { GestureDriver.end(pan, cancelled: true) }
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
      #expect(GestureDriver.touchDown(at: CGPoint(x: 200, y: 300), in: window).isEmpty)
      #expect(asked.load(ordering: .relaxed) == 1)
      #expect(pan.state == .possible)
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
