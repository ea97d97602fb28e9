import Synchronization

// The runtime's global tables and the lock that serializes every change to them.

/// Everything the runtime knows, guarded by one lock, as objc4 guards its tables with
/// `runtimeLock`.
///
/// Writers (realizing classes, adding, replacing and exchanging methods, filling and flushing
/// caches) hold the lock; the send path reads caches without it. Per-class tables are stored in
/// the `Class` objects themselves and follow the same rule: touched only inside
/// `Runtime.state.withLock`.
internal struct RuntimeTables {
  var classesByName: [String: Class] = [:]
  var classesBySwiftType: [ObjectIdentifier: Class] = [:]
  /// Every class (not metaclass) in the order it was made.
  var classes: [Class] = []
  /// The installed tracers, by identity.
  var tracers: [ObjectIdentifier: TracerRegistration] = [:]
  /// Observers of changes (every event but sends), beside the tracers.
  var observers: [ObjectIdentifier: any RuntimeTracer] = [:]
  /// Classes made by objc_allocateClassPair and not yet registered, and their names.
  var constructing: [ObjectIdentifier: Class] = [:]
  var constructingNames: Set<String> = []
}

internal enum Runtime {
  static let state = RuntimeLock(RuntimeTables())
  /// Whether some class's `dealloc` has an implementation other than the root's empty one; until
  /// then deinit sends no `dealloc`.
  static let deallocIsCustomized = Atomic<Bool>(false)

  /// The root class, `ObjCObject`.
  static var rootClass: Class { ClassRealizer.realize(ObjCObject.self) }
}
