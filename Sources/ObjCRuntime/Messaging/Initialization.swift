// `+initialize`: sent to a class before its first message (or its instances'), superclasses
// first, once per class, through the class's table.
import Glibc

/// Sends `+initialize` the way objc4's `lookUpImpOrForward` does, from the send's slow path: a
/// class's cache starts empty and only that path fills it, so the first message to a class or
/// its instances always comes here, and a later one only when the class is not initialized yet.
internal enum Initialization {
  private enum Claim {
    case done, reentered, wait, mine
    /// Waiting would never end: the thread initializing the class waits, through a chain of
    /// threads, for a class this thread is initializing (the names, in order).
    case deadlock([String])
  }

  private struct State {
    /// The classes being initialized, and the thread each is initialized on.
    var owners: [ObjectIdentifier: (thread: UInt, name: String)] = [:]
    /// The class each waiting thread waits for.
    var waiting: [UInt: ObjectIdentifier] = [:]

    /// The chain from the owner of `key` back to `me`, if waiting for it would close a cycle.
    func cycle(waitingFor key: ObjectIdentifier, me: UInt) -> [String]? {
      var names: [String] = []
      var current = key
      var seen: Set<ObjectIdentifier> = []
      while let owner = owners[current], seen.insert(current).inserted {
        names.append(owner.name)
        if owner.thread == me { return names }
        guard let next = waiting[owner.thread] else { return nil }
        current = next
      }
      return nil
    }
  }

  private static let initializing = RuntimeLock(State())

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
    // An isa layer (an observer's hidden class, a hook's per-object class) is not a class of
    // the program's: its superclass's +initialize ran, and must not run again for it (in Swift
    // `self` in that +initialize is the Swift class, so `guard self == C.self` cannot tell).
    if cls.isIsaLayer {
      cls.initialized.store(true, ordering: .releasing)
      return
    }
    let me = CurrentThread.identifier
    let key = ObjectIdentifier(cls)
    while true {
      let claim = initializing.withLock { state -> Claim in
        if cls.isInitialized {
          state.waiting[me] = nil
          return .done
        }
        if let owner = state.owners[key] {
          if owner.thread == me { return .reentered }
          if let cycle = state.cycle(waitingFor: key, me: me) {
            state.waiting[me] = nil
            return .deadlock(cycle)
          }
          state.waiting[me] = key
          return .wait
        }
        state.waiting[me] = nil
        state.owners[key] = (me, cls.name)
        return .mine
      }
      switch claim {
      case .done, .reentered:
        return
      case .deadlock(let cycle):
        // objc4 deadlocks here for good. The message goes on before the class's +initialize
        // has finished, as a reentrant one would, and the cycle is said once per occurrence.
        Diagnostics.warn(
          "+initialize deadlock: "
            + (cycle + [cls.name]).map { "+[\($0) initialize]" }.joined(separator: " waits for ")
            + " on another thread; objc4 would hang here. The message to \(cls.name) goes on"
            + " before its +initialize returned: break the cycle (one +initialize must not"
            + " message the other class)", kind: .initializeDeadlock)
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
        initializing.withLock { $0.owners[key] = nil }
        return
      }
    }
  }
}
