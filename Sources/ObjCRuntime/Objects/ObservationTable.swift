// The observations of one object: its registrations and the changes under way, read and
// written under one lock (KeyValueObserving.swift makes them, KeyValueObserving+Changes.swift tells them).

/// The observations of one object, kept in an association of it.
internal final class ObservationTable: Sendable {
  /// A class, not a struct: the tables hold references, so reading one in place or passing it
  /// on costs a retain, not a copy of its weak reference and its strings.
  final class Registration: @unchecked Sendable {
    // @unchecked Sendable: every field is a constant set at registration; the observer (an
    // ObjCObject, not Sendable) is only loaded, weakly, to be told of a change, as it was when
    // registrations were structs inside the table's lock.
    weak let observer: ObjCObject?
    /// Who the observer is, known even while it is being deinitialized (when its weak
    /// reference already reads nil), so that it may remove itself in its `deinit`.
    let identity: ObjectIdentifier
    /// The key's reader, interned: registrations of one key share it, and are found by it.
    let reader: KeyReader
    let options: KeyValueObservingOptions
    let context: UInt
    /// The registration's number in its table (one observer may register a key twice).
    let number: Int

    init(
      observer: ObjCObject, identity: ObjectIdentifier, reader: KeyReader,
      options: KeyValueObservingOptions, context: UInt, number: Int
    ) {
      self.observer = observer
      self.identity = identity
      self.reader = reader
      self.options = options
      self.context = context
      self.number = number
    }

    /// Whether this is `observer`'s registration: the same object, or one whose weak reference
    /// is gone (it is being deinitialized) at the same identity.
    func belongs(to observer: ObjCObject) -> Bool {
      identity == ObjectIdentifier(observer) && (self.observer == nil || self.observer === observer)
    }
  }

  /// A change under way on one thread, whose value before it waits for its `didChange`: its
  /// key (by its interned reader), the value before it, and the registrations that observed it
  /// when it began (those numbered below `registeredBefore` that are still there).
  /// A class: an old value (`Any?`) is copied through value witnesses, a reference by a retain.
  final class PendingChange: @unchecked Sendable {
    // @unchecked Sendable: every field is a constant. `old` is an `Any?` read by the change's
    // thread and meant for its didChange, matched by thread number; a thread that ended
    // mid-change (its number reused) or a change spanning an `await` can hand it to another
    // thread, as Foundation's per-thread pending changes can: the value is only read.
    let reader: ObjectIdentifier
    let thread: UInt
    let old: Any?
    let registeredBefore: Int

    init(reader: ObjectIdentifier, thread: UInt, old: Any?, registeredBefore: Int) {
      self.reader = reader
      self.thread = thread
      self.old = old
      self.registeredBefore = registeredBefore
    }
  }

  struct State {
    var registrations: [Registration] = []
    /// The changes under way, oldest first: a `didChange` takes the newest of its key and
    /// thread (nested changes stack), as Foundation keeps the pending changes per thread: two
    /// threads changing one key at once each get their own old value.
    var pending: [PendingChange] = []
    /// The number the next registration gets.
    var nextNumber = 0
    /// The class the object had before it was observed, and the hidden class it was given.
    /// Kept after the last observer went while someone else's class was on top of the hidden
    /// one: when the object comes back to the hidden class, it goes on to the original
    /// (``KeyValueObserving/settle(_:arrivedAt:)``).
    var original: Class?
    var hidden: Class?
  }

  // `@unchecked`-free: RuntimeLock is Sendable, and the state is only touched under it.
  let state = RuntimeLock(State())
}
