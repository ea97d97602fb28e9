// Bad input to the model: each is refused with a typed issue and changes nothing.
import Foundation
import ObjCRuntime
import Testing
import UIKitModel

/// A navigation controller in a key window with a root and one pushed controller.
@MainActor private func stackOfTwo() -> (UINavigationController, UIViewController, UIViewController)
{
  let root = UIViewController()
  let top = UIViewController()
  let navigation = UINavigationController(rootViewController: root)
  let window = UIWindow(frame: UIScreen.main.bounds)
  window.rootViewController = navigation
  window.makeKeyAndVisible()
  navigation.pushViewController(top, animated: false)
  VirtualRunLoop.main.runUntilIdle()
  return (navigation, root, top)
}

extension UIKitModelTests {
  @MainActor
  @Suite("Model bad input")
  struct ModelBadInputTests {
    /// UIKit raises "Application tried to push a nil view controller" for a push, and "Tried to
    /// pop to a view controller that doesn't exist" for a popTo of nil, as for any controller
    /// not in the stack (issue #29).
    @Test("push and popTo with a nil controller through objc_msgSend report an issue")
    func nilControllers() throws {
      let (navigation, root, top) = stackOfTwo()
      UIKitModelIssues.removeAll()
      try objc_msgSend(navigation, "pushViewController:animated:", nil as ObjCObject?, true) as Void
      let popped =
        try objc_msgSend(
          navigation, "popToViewController:animated:", nil as ObjCObject?, true) as ObjCObject?
      #expect(popped == nil)
      VirtualRunLoop.main.runUntilIdle()
      #expect(
        navigation.viewControllers.map(ObjectIdentifier.init)
          == [root, top].map(ObjectIdentifier.init))
      let issues = UIKitModelIssues.all.map(\.description)
      #expect(issues.count == 2)
      #expect(
        issues.first?.contains("-[UINavigationController pushViewController:animated:]") == true)
      #expect(
        UIKitModelIssues.all.last
          == .notInStack(controller: "nil", navigationController: navigation.description))
      // An object that is not a view controller is not in the stack either, and is named.
      let view = UIView()
      _ = try objc_msgSend(navigation, "popToViewController:animated:", view, true) as ObjCObject?
      #expect(
        UIKitModelIssues.all.last
          == .notInStack(controller: view.description, navigationController: navigation.description)
      )
    }

    @Test("setViewControllers with one controller twice is refused, the stack unchanged")
    func duplicateControllers() {
      let (navigation, root, top) = stackOfTwo()
      UIKitModelIssues.removeAll()
      let other = UIViewController()
      navigation.setViewControllers([other, root, other], animated: false)
      VirtualRunLoop.main.runUntilIdle()
      #expect(
        navigation.viewControllers.map(ObjectIdentifier.init)
          == [root, top].map(ObjectIdentifier.init))
      guard case .duplicateViewControllers = UIKitModelIssues.all.last else {
        Issue.record("no issue: \(UIKitModelIssues.all)")
        return
      }
    }

    @Test(
      "a system version that does not parse is refused and the previous one kept",
      arguments: ["", "thirteen", "13.", ".13", "1.0", "100.0", "13.0.0.1", "13.x", "１３.0"])
    func badSystemVersions(version: String) {
      UIDevice.current.systemVersion = "10.3"
      UIKitModelIssues.removeAll()
      UIDevice.current.systemVersion = version
      #expect(UIDevice.current.systemVersion == "10.3")
      #expect(UIDevice.current.majorSystemVersion == 10, "the iOS 10 hierarchy stays")
      guard case .invalidSystemVersion(version, kept: "10.3") = UIKitModelIssues.all.last else {
        Issue.record("no issue for \(String(reflecting: version))")
        return
      }
    }

    @Test("system versions users write are accepted", arguments: ["9", "10.3", "13.0", "17.4.1"])
    func goodSystemVersions(version: String) {
      UIDevice.current.systemVersion = version
      #expect(UIDevice.current.systemVersion == version)
    }

    @Test("a NaN swipe translation is refused: the pop keeps the percent it had")
    func nanSwipe() throws {
      let (navigation, _, _) = stackOfTwo()
      let pan = try #require(navigation.interactivePopGestureRecognizer)
      #expect(GestureDriver.begin(pan))
      let quarter = navigation.view.bounds.width * 0.25
      for step in 1...12 {
        GestureDriver.move(pan, to: CGPoint(x: quarter * CGFloat(step) / 12, y: 0))
        VirtualRunLoop.main.advance(frames: 1)
      }
      UIKitModelIssues.removeAll()
      GestureDriver.move(pan, to: CGPoint(x: CGFloat.nan, y: 0))
      GestureDriver.move(pan, to: CGPoint(x: CGFloat.infinity, y: 0))
      #expect(UIKitModelIssues.all.count == 2)
      #expect(pan.translation(in: nil).x == quarter)
      GestureDriver.move(pan, to: CGPoint(x: quarter + 1, y: 0))  // the finger stops and lifts
      GestureDriver.end(pan)
      VirtualRunLoop.main.runUntilIdle()
      #expect(navigation.viewControllers.count == 2, "released at 25 %: cancelled, not finished")
    }
  }
}
