// Hooks on the model, typed with the model's own classes, through the public selectors.
import Hooks
import Synchronization
import Testing
import UIKitModel

extension UIKitModelTests {
  @MainActor
  @Suite("Typed hooks on the model")
  struct ModelHookTests {
    @Test("an after hook can take the popped object as the UIViewController it is")
    func typedControllerResult() throws {
      let root = UIViewController()
      let top = UIViewController()
      let navigation = UINavigationController(rootViewController: root)
      navigation.pushViewController(top, animated: false)
      let seen = Mutex<ObjectIdentifier?>(nil)
      let token = try UINavigationController.hook(
        after: UINavigationController.Selectors.pop, returning: UIViewController?.self
      ) { (_, popped, _: Bool) in
        seen.withLock { $0 = popped.map(ObjectIdentifier.init) }
        return popped
      }
      defer { token.remove() }
      let popped = navigation.popViewController(animated: false)
      #expect(popped === top)
      #expect(seen.withLock { $0 } == ObjectIdentifier(top))
    }

    @Test("hookClassMethod(after:) runs after a class method, with its arguments")
    func classMethodAfter() throws {
      let calls = Mutex(0)
      let token = try UIView.hookClassMethod(after: "class") { (_: Class) in
        calls.withLock { $0 += 1 }
      }
      defer { token.remove() }
      _ = try objc_msgSend(UIView.runtimeClass, "class") as Class
      #expect(calls.withLock { $0 } == 1)
    }
  }
}

extension UIKitModelTests.ModelHookTests {
  @Test("a hook on a selector the class lacks names the nearest ones (the seed's PR #4)")
  func nearestSelector() throws {
    do {
      try UINavigationController.hook(before: "popToRootViewController") { (_, _: Bool) in }
      Issue.record("a hook was installed on a selector nobody implements")
    } catch {
      #expect(error.description.contains("-[UINavigationController popToRootViewController]"))
      #expect(
        error.description.contains(
          "Did you mean -[UINavigationController popToRootViewControllerAnimated:]"))
    }
    #expect(
      UINavigationController.runtimeClass.nearestSelectors(to: "viewWillApear:").first
        == UIViewController.Selectors.viewWillAppear)
  }

  @Test("a typed hook whose types do not match shows both signatures in Swift terms")
  func swiftTerms() throws {
    do {
      try UIView.hook(before: UIView.Selectors.setAlpha) { (_, alpha: Int) in }
      Issue.record("a hook with the wrong types was installed")
    } catch {
      #expect(error.description.contains("v@:d"))
      #expect(error.description.contains("(Double) -> Void"), "the method, in Swift")
      #expect(error.description.contains("(Int) -> Void"), "the closure, in Swift")
    }
  }
}
