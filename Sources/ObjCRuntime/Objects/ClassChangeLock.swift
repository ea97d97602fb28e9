// One object's class, changed by two isa-swizzlers at once (key-value observing and the hook
// engine, on two threads): each reads the class, makes a subclass of it and sets it, and without
// a lock between them the second would set a subclass of the class the first just replaced.
import Synchronization

/// Serializes the read-make-set of an object's class by the runtime's own isa-swizzlers, per
/// object: key-value observing (adding and removing observers) and the hook engine (hooking an
/// object, and giving it its class back). A striped set of locks, keyed by the object's
/// address, so that two objects rarely wait for each other.
///
/// The lock comes first: under it each takes its own (the observation table's, the engine's),
/// never the other way round. A thread may take it again (two objects can share a stripe, and
/// an object that dies under one's lock takes its hooks off under its own); `object_setClass`
/// does not take it.
package enum ClassChangeLock {
  /// One stripe: a lock, and the thread that holds it.
  private final class Stripe: Sendable {
    let lock = RuntimeLock(0)
    /// The holder's identity, 0 when free: only the holder writes its own identity here, so
    /// a thread that reads its own knows it holds the lock.
    let owner = Atomic<UInt>(0)
  }

  private static let stripes = (0..<64).map { _ in Stripe() }

  /// Runs `body` holding the lock of the object `key` names.
  package static func withLock<Result, Failure: Error>(
    for key: ObjectIdentifier, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let stripe = stripes[Int((UInt(bitPattern: key) >> 4) & 63)]
    let me = CurrentThread.identifier
    if stripe.owner.load(ordering: .relaxed) == me { return try body() }
    return try stripe.lock.withLock { _ throws(Failure) -> Result in
      stripe.owner.store(me, ordering: .relaxed)
      defer { stripe.owner.store(0, ordering: .relaxed) }
      return try body()
    }
  }
}

extension Class {
  /// Whether an isa-swizzler made this class to sit between objects and their own class (key-value
  /// observing's hidden classes, the hook engine's per-object subclasses): `-class` never
  /// answers it, and an object given it by someone else may go on to the class below
  /// (``IsaLayers``).
  package var isIsaLayer: Bool { isaLayer.load(ordering: .acquiring) }

  /// Marks the class as an isa layer, before any object is given it.
  package func markIsaLayer() { isaLayer.store(true, ordering: .releasing) }

  /// What `-class` shows for an object whose layer below `self` answered `answer`: that
  /// answer unless it is a layer (the root's answer is the isa), else the first class below
  /// that is not a layer.
  package func shownClass(answer: Class?) -> Class {
    var shown = answer.flatMap { $0.isIsaLayer ? nil : $0 } ?? self
    while shown.isIsaLayer, let below = shown.superclass { shown = below }
    return shown
  }
}

/// The isa-swizzlers of the runtime and above it, told when an object arrives at one of their
/// layers through someone else's `object_setClass` (another swizzler taking its own layer off):
/// a layer whose owner no longer needs it passes the object on to the class below, so that no
/// layer is left behind and none is stacked on a forgotten one.
package enum IsaLayers {
  private static let handlers = RuntimeLock<[@Sendable (ObjCObject, Class) -> Void]>([])

  /// Adds `handler`, told of every arrival at a layer; it acts only on its own layers.
  package static func register(_ handler: @escaping @Sendable (ObjCObject, Class) -> Void) {
    handlers.withLock { $0.append(handler) }
  }

  /// `object` was just given `cls`, a layer: its owner may pass it on.
  package static func arrived(_ object: ObjCObject, at cls: Class) {
    KeyValueObserving.settle(object, arrivedAt: cls)
    for handler in handlers.withLock({ $0 }) where object_getClass(object) === cls {
      handler(object, cls)
    }
  }
}
