// The navigation controller's delegate through the runtime: setDelegate: in the table, and the
// delegate's methods sent to an object whose class has them, Swift protocol or not.
import Foundation
import Hooks
import ObjCRuntime
import Synchronization
import Testing
import UIKitModel

/// A delegate known to the runtime only: its class's table answers `didShow`, and it does not
/// conform to the Swift protocol (as an Objective-C object would not).
final class RuntimeOnlyDelegate: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(RuntimeOnlyDelegate.self) {
      ObjCMethodDeclaration(
        "navigationController:didShowViewController:animated:", RuntimeOnlyDelegate.didShow)
    }
  }
  var shown: [String] = []
  nonisolated static let didShow: @convention(c) (id, SEL, id?, id?, Bool) -> Void = {
    me, _, _, shown, _ in
    MainThread.assumeIsolated(with: me, shown) { me, shown in
      let title = (shown?.takeUnretainedObject() as? UIViewController)?.title ?? "?"
      me.receiver(as: RuntimeOnlyDelegate.self).shown.append(title)
    }
  }
}

/// A Swift delegate that is also an object of the runtime, with `didShow` in its table.
final class TableDelegate: ObjCObject, UINavigationControllerDelegate {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(TableDelegate.self) {
      ObjCMethodDeclaration(
        "navigationController:didShowViewController:animated:", TableDelegate.didShow)
    }
  }
  nonisolated static let didShow: @convention(c) (id, SEL, id?, id?, Bool) -> Void = {
    _, _, _, _, _ in MainThread.assumeIsolated {}
  }
}

extension UIKitModelTests.CustomTransitionTests {
  private func titled(_ title: String) -> UIViewController {
    let controller = UIViewController()
    controller.title = title
    return controller
  }

  @Test("an object that answers didShow through the runtime only is told, set by setDelegate:")
  func runtimeOnlyDelegate() throws {
    let session = NavigationSession(root: titled("A"))
    let navigation = session.navigationController
    let delegate = RuntimeOnlyDelegate()
    try objc_msgSend(navigation, "setDelegate:", delegate as ObjCObject) as Void
    #expect(navigation.delegateObject === delegate)
    #expect(navigation.delegate == nil, "not a Swift delegate")
    session.push(titled("B"))
    #expect(delegate.shown == ["B"])
  }

  @Test("setDelegate: sent with a box around a plain Swift object stores the object, not nil")
  func boxedNonDelegate() throws {
    let session = NavigationSession(root: titled("A"))
    let navigation = session.navigationController
    final class NotADelegate {}
    let object = NotADelegate()
    try objc_msgSend(navigation, "setDelegate:", SwiftObjectBox.wrap(object)) as Void
    #expect(navigation.delegateObject === object)
    #expect(navigation.delegate == nil)
  }

  @Test("setDelegate: and the delegate's didShow are in tables: hooks see both")
  func delegateHookable() throws {
    let session = NavigationSession(root: titled("A"))
    let navigation = session.navigationController
    let sets = Atomic(0)
    let shows = Atomic(0)
    let setToken = try UINavigationController.hook(before: "setDelegate:") {
      (_, _: ObjCObject?) in sets.add(1, ordering: .relaxed)
    }
    defer { setToken.remove() }
    let showToken = try TableDelegate.hook(
      before: "navigationController:didShowViewController:animated:"
    ) { (_, _: UINavigationController?, _: UIViewController?, _: Bool) in
      shows.add(1, ordering: .relaxed)
    }
    defer { showToken.remove() }
    let delegate = TableDelegate()
    navigation.delegate = delegate
    #expect(sets.load(ordering: .relaxed) == 1)
    session.push(titled("B")).pop()
    #expect(shows.load(ordering: .relaxed) == 2)
    navigation.delegate = nil
    #expect(sets.load(ordering: .relaxed) == 2 && navigation.delegateObject == nil)
  }
}
