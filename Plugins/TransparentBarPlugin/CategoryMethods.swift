// What ET's extension of UINavigationController did without an exchange: methods that override
// UIKit's outright (an Objective-C category replaces the class's own method) or that UIKit's
// class does not have. Here each is a replacement or an addition through the runtime, undone on
// uninstall where nobody changed it since.
import Foundation
import Hooks
import ObjCRuntime
import UIKitModel

// nonisolated: runtime work (methods added and exchanged), done by install() on any thread.
/// ET's category methods on `UINavigationController`.
nonisolated internal enum TransparentCategory {
  /// One category method: the selector, the plugin's implementation, and for a method the
  /// class may lack (which the plugin then adds), what it becomes on uninstall.
  private struct Entry {
    let selector: Selector
    let implementation: IMP
    let types: String
    let afterRemoval: IMP?
  }

  private static let entries: [Entry] = [
    Entry(
      selector: "navigationBar:shouldPushItem:", implementation: shouldPush, types: "B@:@@",
      afterRemoval: nil),
    Entry(
      selector: "navigationBar:shouldPopItem:", implementation: shouldPop, types: "B@:@@",
      afterRemoval: nil),
    Entry(
      selector: "preferredStatusBarStyle", implementation: statusBarStyle, types: "q@:",
      afterRemoval: nil),
  ]

  /// The implementations replaced, by selector; a selector the class did not have maps to nil.
  private static let replaced = RuntimeLock<[Selector: IMP?]>([:])

  /// Replaces or adds every method. Throws, with none of them changed, when one is refused.
  static func install() throws {
    let cls = UINavigationController.runtimeClass
    var done: [Selector: IMP?] = [:]
    do {
      for entry in entries {
        if let method = class_getInstanceMethod(cls, entry.selector), method.owner === cls {
          done[entry.selector] = .some(try method.setImplementation(entry.implementation))
        } else if entry.afterRemoval != nil {
          try cls.addMethod(
            entry.selector, implementation: entry.implementation, types: entry.types)
          done[entry.selector] = .some(nil)
        } else {
          throw ObjCRuntimeError.methodNotFound(
            MethodReference(owner: cls, selector: entry.selector))
        }
      }
    } catch {
      restore(done)
      throw error
    }
    replaced.withLock { $0 = done }
  }

  /// Gives back what each method was, where it still holds the plugin's implementation; a
  /// method added by the plugin becomes a pass-through (objc4 has no `class_removeMethod`).
  static func uninstall() {
    let done = replaced.withLock { replaced in
      defer { replaced.removeAll() }
      return replaced
    }
    restore(done)
  }

  private static func restore(_ done: [Selector: IMP?]) {
    let cls = UINavigationController.runtimeClass
    for entry in entries {
      guard let old = done[entry.selector],
        let method = class_getInstanceMethod(cls, entry.selector)
      else { continue }
      guard method.implementation == entry.implementation else {
        transparentWarnChangedSince(
          MethodReference(owner: cls, selector: entry.selector), by: "replaced it")
        continue
      }
      guard let restored = old ?? entry.afterRemoval else { continue }
      _ = try? method.setImplementation(restored)
    }
  }

  // MARK: The methods

  /// ET's `navigationBar(_:shouldPush:)`: the top controller's alpha and tint, at once (the
  /// bar asks as a push shows its controller's item, and for the root's as the controller first
  /// shows, so a root page's values apply from its first frame).
  private static let shouldPush: IMP = {
    let function: @convention(c) (id, SEL, id?, id?) -> Bool = { me, _, _, _ in
      MainThread.assumeIsolated(with: me) { me in
        let navigation = me.receiver(as: UINavigationController.self)
        if let top = navigation.topViewController { navigation.transparentApply(top) }
        return true
      }
    }
    return try! IMP(function)
  }()

  /// ET's `navigationBar(_:shouldPop:)`: an interactive pop registers the release callback and
  /// lets UIKit pop; a tap on the back button pops by hand to the controller below (iOS 12 and
  /// before) or only sets its alpha and tint (iOS 13, which raises when a delegate pops by hand
  /// and answers YES). In ``TransparentMode/seed`` the EM article's variant: it pops by hand
  /// and answers YES on every version, the error iOS 13 raises.
  private static let shouldPop: IMP = {
    let function: @convention(c) (id, SEL, id?, id?) -> Bool = { me, _, bar, _ in
      MainThread.assumeIsolated(with: me, bar) { me, bar in
        let navigation = me.receiver(as: UINavigationController.self)
        if let coordinator = navigation.topViewController?.transitionCoordinator,
          coordinator.initiallyInteractive
        {
          navigation.transparentRegisterRelease(on: coordinator)
          return true
        }
        let controllers = navigation.viewControllers
        let items = (bar.map { $0.takeUnretainedObject() } as? UINavigationBar)?.items?.count ?? 0
        let n = controllers.count >= items ? 2 : 1
        guard controllers.count >= n else { return true }
        let target = controllers[controllers.count - n]
        if UIDevice.current.majorSystemVersion >= 13, TransparentBarPlugin.mode.value == .fixed {
          navigation.transparentApply(target)
        } else {
          navigation.popToViewController(target, animated: true)
        }
        return true
      }
    }
    // A @convention(c) function of (id, SEL, ...): IMP(_:) cannot refuse it.
    return try! IMP(function)
  }()

  /// ET's `preferredStatusBarStyle`: the top controller's (EM's `statusBarStyle` when it set
  /// one, else its own `preferredStatusBarStyle`).
  private static let statusBarStyle: IMP = {
    let function: @convention(c) (id, SEL) -> Int = { me, _ in
      MainThread.assumeIsolated(with: me) { me in
        let navigation = me.receiver(as: UINavigationController.self)
        guard let top = navigation.topViewController else {
          return UIStatusBarStyle.default.rawValue
        }
        return (top.hasOwnStatusBarStyle ? top.statusBarStyle : top.preferredStatusBarStyle)
          .rawValue
      }
    }
    return try! IMP(function)
  }()
}
