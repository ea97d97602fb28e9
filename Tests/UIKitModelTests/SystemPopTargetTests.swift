// The swipe-back's private target, read as FDFullscreenPopGesture reads it (key-value coding of
// `targets`, then `target`), and driven by a full-screen pan of one's own; the model's user
// defaults.
import Foundation
import Hooks
import ObjCRuntime
import Synchronization
import Testing
import UIKitModel

extension UIKitModelTests.GestureTests {
  private func twoDeep() -> NavigationSession {
    let home = UIViewController()
    home.title = "Home"
    let session = NavigationSession(root: home)
    let detail = UIViewController()
    detail.title = "Detail"
    session.push(detail)
    return session
  }

  @Test("the swipe-back's targets read by key-value coding: one _UINavigationInteractiveTransition")
  func systemTargets() throws {
    let navigation = twoDeep().navigationController
    let pan = try #require(navigation.interactivePopGestureRecognizer)
    let targets = try #require(try pan.value(forKey: "targets") as? [ObjCObject])
    #expect(targets.count == 1)
    let entry = try #require(targets.first)
    let target = try entry.value(forKey: "target")
    #expect(target is _UINavigationInteractiveTransition)
    #expect(try entry.value(forKey: "action") as? Selector == "handleNavigationTransition:")
    #expect(pan.delegate is _UINavigationInteractiveTransition)
  }

  @Test("a full-screen pan aimed at the private target pops with the system's transition")
  func hijack() throws {
    let session = twoDeep()
    let navigation = session.navigationController
    let system = try #require(navigation.interactivePopGestureRecognizer)
    let entry = try #require((try system.value(forKey: "targets") as? [ObjCObject])?.first)
    let target = try #require(try entry.value(forKey: "target") as? ObjCObject)
    system.isEnabled = false
    let fullScreen = UIPanGestureRecognizer(
      target: target, action: _UINavigationInteractiveTransition.handleSelector)
    navigation.view.addGestureRecognizer(fullScreen)
    let updates = Atomic(0)
    let token = try UINavigationController.hook(before: "_updateInteractiveTransition:") {
      (_, _: Double) in updates.add(1, ordering: .relaxed)
    }
    defer { token.remove() }
    let window = try #require(navigation.view.window)
    // From the middle of the screen, not the edge.
    let began = GestureDriver.touchDown(at: CGPoint(x: 200, y: 400), in: window)
    #expect(began.count == 1 && began.first === fullScreen)
    GestureDriver.move(fullScreen, to: CGPoint(x: 20, y: 0))
    GestureDriver.move(fullScreen, to: CGPoint(x: 150, y: 0))
    #expect(navigation.topViewController?.transitionCoordinator?.isInteractive == true)
    GestureDriver.move(fullScreen, to: CGPoint(x: 300, y: 0))
    GestureDriver.end(fullScreen)
    VirtualRunLoop.main.runUntilIdle()
    #expect(navigation.viewControllers.count == 1)
    #expect(updates.load(ordering: .relaxed) >= 2, "the system's interactive updates ran")
  }

  @Test("the system swipe does not begin on the root: its delegate asks through the runtime")
  func systemRefusesAtRoot() throws {
    let session = NavigationSession(root: UIViewController())
    let navigation = session.navigationController
    let asked = Atomic(0)
    let token = try _UINavigationInteractiveTransition.hook(
      after: "gestureRecognizerShouldBegin:", returning: Bool.self
    ) { (_, answer: Bool, _: UIGestureRecognizer?) -> Bool in
      asked.add(1, ordering: .relaxed)
      return answer
    }
    defer { token.remove() }
    session.swipeBack(to: 0.8)
    #expect(asked.load(ordering: .relaxed) == 1)
    #expect(session.trace.last?.contains("swipe back (refused)") == true)
    #expect(navigation.viewControllers.count == 1)
  }
}

extension UIKitModelTests {
  @MainActor
  @Suite("NSUserDefaults")
  struct UserDefaultsTests {
    @Test("values by key: Booleans, numbers, objects; absent keys answer false and 0")
    func values() {
      let defaults = NSUserDefaults.standard
      defaults.set(true, forKey: "isGesturePop")
      defaults.set(Float(0.25), forKey: "_alpha")
      defaults.set("Home", forKey: "title")
      #expect(defaults.bool(forKey: "isGesturePop"))
      #expect(defaults.float(forKey: "_alpha") == 0.25)
      #expect(defaults.object(forKey: "title") as? String == "Home")
      #expect(!defaults.bool(forKey: "missing") && defaults.double(forKey: "missing") == 0)
      defaults.set(nil, forKey: "title")
      defaults.removeObject(forKey: "_alpha")
      #expect(defaults.object(forKey: "title") == nil && defaults.float(forKey: "_alpha") == 0)
      #expect(defaults.synchronize())
    }

    @Test("fresh at each model reset and each launch: nothing leaks between tests or scenarios")
    func fresh() {
      NSUserDefaults.standard.set(true, forKey: "isGesturePop")
      freshModel()
      #expect(NSUserDefaults.standard.object(forKey: "isGesturePop") == nil)
      NSUserDefaults.standard.set(1, forKey: "count")
      _ = NavigationSession(root: UIViewController())
      #expect(NSUserDefaults.standard.dictionaryRepresentation().isEmpty)
    }
  }
}
