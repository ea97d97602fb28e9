// `+initialize`: sent to a class before its first message (or its instances'), superclasses
// first, once per class, through the class's table.
import CObjCRuntime
import Glibc

/// Sends `+initialize` the way objc4's `lookUpImpOrForward` does, from the send's slow path: a
/// class's cache starts empty and only that path fills it, so the first message to a class or
/// its instances always comes here, and a later one only when the class is not initialized yet.
internal enum Initialization {
  private enum Claim {
    case done, reentered, wait, mine
  }

  /// The classes being initialized, and the thread each is initialized on.
  private static let initializing = RuntimeLock<[ObjectIdentifier: UInt]>([:])

  /// Initializes the class of `receiver` (the receiver itself when it is a class) unless it is.
  @inline(__always)
  static func ensure(for receiver: ObjCObject) {
    let isa = receiver.isa.takeUnretainedValue()
    guard !isa.isInitialized else { return }
    let target = isa.isMetaClass ? (receiver as? Class) : isa
    guard let target, !target.isMetaClass, !target.isInitialized else { return }
    initialize(target)
  }

  /// Initializes `cls`'s superclasses, then `cls`. The thread initializing a class may message
  /// it (objc4 allows the same); another thread waits for the initialization to end, yielding,
  /// since it is rare and short.
  static func initialize(_ cls: Class) {
    if let superclass = cls.superclass, !superclass.isInitialized {
      initialize(superclass)
    }
    let me = swk_thread_id()
    let key = ObjectIdentifier(cls)
    while true {
      let claim = initializing.withLock { table -> Claim in
        if cls.isInitialized { return .done }
        if let owner = table[key] { return owner == me ? .reentered : .wait }
        table[key] = me
        return .mine
      }
      switch claim {
      case .done, .reentered:
        return
      case .wait:
        sched_yield()
      case .mine:
        do {
          try objc_msgSend(cls, RootMethods.initializeSelector) as Void
        } catch {
          // A class whose +initialize cannot be sent (declared with other types, say) is
          // still initialized: the next message must not try again.
          Diagnostics.warn("+[\(cls.name) initialize]", refused: error)
        }
        cls.initialized.store(true, ordering: .releasing)
        initializing.withLock { $0[key] = nil }
        return
      }
    }
  }
}
