// The responder chain: views, view controllers, the window and the application, each with a
// `next` responder, read through the runtime's table as UIKit reads `nextResponder`.
public import ObjCRuntime

/// An object in the responder chain, as UIKit's `UIResponder`: the base of views, view
/// controllers and the application.
///
/// ``next`` is `nextResponder` in the runtime's table, so it can be hooked or swizzled; the
/// application reads it during ``UIApplication/launch(delegate:device:systemVersion:)`` before
/// the delegate's `didFinishLaunching`, as UIKit does, which is what the seeds' SelfAware
/// trick relies on (seed-systems 3.2: `UIApplication.next` overridden to walk the class list
/// once).
@preconcurrency @MainActor
open class UIResponder: ObjCObject {
  open override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(UIResponder.self) {
      ObjCMethodDeclaration("nextResponder", Base.next, swiftEntry: Entry.next)
    }
  }

  /// A responder.
  public init() {
    super.init()
  }

  /// The next responder in the chain: a view's view controller (for a controller's root view)
  /// or superview, a controller's parent or its view's superview, a window's application, and
  /// nil after the application. Through the table.
  open var next: UIResponder? {
    (try? sendToTable(ResponderSelectors.next) as ObjCObject?) as? UIResponder
  }

  /// Touches began in the responder: the base passes them to the ``next`` responder, as
  /// UIKit's does.
  open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
    next?.touchesBegan(touches, with: event)
  }

  /// Touches ended in the responder (a tap ends here): the base passes them to the ``next``
  /// responder.
  open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
    next?.touchesEnded(touches, with: event)
  }

  /// What the base implementation answers; subclasses of the model override it.
  internal var defaultNextResponder: UIResponder? { nil }
}

extension UIResponder {
  fileprivate enum Base {
    static let next: @convention(c) (id, SEL) -> id? = { me, _ in
      MainThread.enterIMP(with: me) { me in
        me.receiver(as: UIResponder.self).defaultNextResponder?
          .passRetained()
      }
    }
  }

  fileprivate enum Entry {
    static let next: @convention(c) (id, SEL) -> id? = { me, _ in
      MainThread.enterIMP(with: me) { me in
        me.receiver(as: UIResponder.self).next?.passRetained()
      }
    }
  }
}

/// The selector of UIResponder's table method, kept in static storage (`SelectorReference`).
private enum ResponderSelectors {
  static let next = SelectorReference("nextResponder")
}
