// The association store: the global lock, and the operations over each object's table
// (AssociationTable.swift) that the association API and the typed keys use.
import CObjCRuntime
import Synchronization

/// The association store: every table hangs off its object, and one lock guards them all, as in
/// objc4 (`AssociationsManager`). The lock is a C global (`swk_association_lock`).
internal enum Associations {
  /// Runs `body` holding the association lock.
  @inline(__always)
  static func withLock<Result>(_ body: () -> Result) -> Result {
    swk_association_lock_acquire()
    defer { swk_association_lock_release() }
    return body()
  }

  @inline(__always)
  static func table(of object: ObjCObject) -> Unmanaged<AssociationTable>? {
    // A static object has no association word (its record ends before it).
    guard !StaticObjects.isStatic(object) else { return nil }
    let word = object.associationWord.load(ordering: .acquiring)
    guard let address = UnsafeRawPointer(bitPattern: word) else { return nil }
    return Unmanaged.fromOpaque(address)
  }

  /// Points the object at `table` (which it then owns) or at none, and releases the table it had
  /// unless that is `table` itself. Call with the lock held.
  static func setTable(_ table: AssociationTable?, of object: ObjCObject) {
    let old = object.associationWord.load(ordering: .acquiring)
    let new = table.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0
    guard new != old else { return }
    if let table { _ = Unmanaged.passRetained(table) }
    object.associationWord.store(new, ordering: .releasing)
    if let address = UnsafeRawPointer(bitPattern: old) {
      Unmanaged<AssociationTable>.fromOpaque(address).release()
    }
  }

  /// Makes the entry for `value` under `policy`, copying first when the policy says so. Runs
  /// before the lock is taken, as objc4 retains or copies the new value before locking.
  static func entry(
    key: UnsafeRawPointer, value: Any, policy: objc_AssociationPolicy, object: ObjCObject
  ) throws(ObjCRuntimeError) -> AssociationEntry {
    guard type(of: value) is AnyClass else {
      return AssociationEntry(key: key, storage: .value, payload: ValueAssociation(value))
    }
    return try entry(key: key, reference: reference(in: value), policy: policy, object: object)
  }

  /// The object an `Any` holds, whose dynamic type is a class: the existential opened at its
  /// class, whose value is the reference. `value as AnyObject` got the same object through the
  /// runtime's bridging cast, about 5,000 instructions of a push and pop whose plugin keeps
  /// colours in associations (callgrind, 2026-12-03).
  private static func reference(in value: Any) -> AnyObject {
    func open<Class>(_ object: Class) -> AnyObject {
      // `Class` is the type the `Any` holds, whose dynamic type is a class (checked by the
      // caller): a class is a reference as large as `AnyObject`, and the cast retains it. An
      // existential in the `Any` (a class-bound protocol's, or `Any` itself) is larger: the
      // runtime's cast unwraps it.
      guard MemoryLayout<Class>.size == MemoryLayout<AnyObject>.size, Class.self is AnyClass
      else { return object as AnyObject }
      return unsafeBitCast(object, to: AnyObject.self)
    }
    return _openExistential(value, do: open)
  }

  /// The entry that holds the object `reference` under `key` with `policy` (weakly, a copy, or
  /// the object itself), for `object`.
  static func entry(
    key: UnsafeRawPointer, reference: AnyObject, policy: objc_AssociationPolicy,
    object: ObjCObject
  ) throws(ObjCRuntimeError) -> AssociationEntry {
    if policy == .OBJC_ASSOCIATION_ASSIGN {
      return AssociationEntry(key: key, storage: .weak, payload: WeakAssociation(reference))
    }
    if policy.copies {
      guard let copyable = reference as? ObjCCopying else {
        throw .notCopyable(
          valueType: _typeName(type(of: reference), qualified: false),
          objectClass: object.isa.takeUnretainedValue().name)
      }
      return AssociationEntry(key: key, storage: .object, payload: copyable.copy())
    }
    return AssociationEntry(key: key, storage: .object, payload: reference)
  }

  /// Stores or erases an association. The old value is released after the lock is dropped.
  static func set(_ object: ObjCObject, key: UnsafeRawPointer, entry: AssociationEntry?) {
    guard key != AssociationTable.emptyKey else {
      // The one address a hash table keeps for its empty slots; nothing lives there.
      entry.map { DetachedPayload($0).release() }
      Diagnostics.warn("objc_setAssociatedObject: the key at address 0x1 is no key; nothing set")
      return
    }
    guard !StaticObjects.isStatic(object) else {
      entry.map { DetachedPayload($0).release() }
      Diagnostics.warn(
        "objc_setAssociatedObject: a static object (a constant string) has no room for"
          + " associations; nothing set")
      return
    }
    let released = withLock { () -> DetachedPayload? in
      let table = table(of: object)?.takeUnretainedValue()
      if let table, let index = table.index(of: key) {
        if let entry {
          return table.replace(at: index, with: entry)
        }
        swk_association_count_add(-1)
        let old = table.remove(at: index)
        if table.count == 0 { setTable(nil, of: object) }
        return old
      }
      guard let entry else { return nil }
      swk_association_count_add(1)
      let grown = (table ?? AssociationTable.make(capacity: 1)).appending(entry)
      setTable(grown, of: object)
      return nil
    }
    #if SWIZZLEKIT_INTERNAL_CHECKS
      withLock { checkConsistency(of: object) }
    #endif
    released?.release()
  }

  #if SWIZZLEKIT_INTERNAL_CHECKS
    /// Checks, with the lock held, that the object has a table exactly when it has associations,
    /// that no key appears twice in it, and that the process-wide count is not negative.
    static func checkConsistency(of object: ObjCObject) {
      let table = table(of: object)?.takeUnretainedValue()
      InternalChecks.require(
        table.map { $0.count > 0 } ?? true, "an object keeps an empty association table")
      // The whole table is checked up to 256 entries: every write checks it, under the lock
      // every association shares, and a test's 10,000-entry table checked whole on each write
      // held that lock for seconds (other threads' models stopped meanwhile).
      if let table, table.count <= 256 {
        var keys = Set<UnsafeRawPointer>()
        var found = 0
        table.forEachEntry { entry in
          found += 1
          InternalChecks.require(
            keys.insert(entry.pointee.key).inserted, "an association key appears twice")
          InternalChecks.require(
            table.index(of: entry.pointee.key).map { table.key(at: $0) } == entry.pointee.key,
            "an association cannot be found")
        }
        InternalChecks.require(found == table.count, "an association table miscounts")
      }
      InternalChecks.require(swk_association_count() >= 0, "the association count is negative")
    }
  #endif

  /// The value stored under `key`, retained under the lock so that a concurrent replace cannot
  /// free it before the caller has it.
  @inline(__always)
  static func get(_ object: ObjCObject, key: UnsafeRawPointer) -> Any? {
    get(Unmanaged.passUnretained(object), key: key)
  }

  /// The getter proper, on an unmanaged reference: the caller keeps the object alive, and a
  /// retain here would cost as much as the lookup.
  @inline(__always)
  static func get(_ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer) -> Any? {
    let tagged = retainedTaggedPayload(holder, key: key)
    return isBoxed(tagged) ? boxedValue(tagged) : takeUnboxedObject(tagged)
  }

  /// Whether a tagged payload is a weak or value box rather than an object stored as itself (or
  /// no payload, 0): two instructions, so that the common case is decided first.
  @inline(__always)
  static func isBoxed(_ tagged: UInt) -> Bool {
    tagged & 0xF != AssociationStorage.object.rawValue
  }

  /// The object of an unboxed tagged payload, consuming its reference; nil for 0.
  @inline(__always)
  static func takeUnboxedObject(_ tagged: UInt) -> AnyObject? {
    UnsafeRawPointer(bitPattern: tagged).map {
      Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue()
    }
  }

  /// The value in a weak or value box, consuming the payload's reference.
  @inline(never)
  static func boxedValue(_ tagged: UInt) -> Any? {
    DetachedPayload(tagged: tagged).take()
  }

  /// The payload under `key`, with a reference of its own taken under the lock.
  @inline(__always)
  static func payload(_ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer) -> DetachedPayload? {
    let tagged = retainedTaggedPayload(holder, key: key)
    return tagged == 0 ? nil : DetachedPayload(tagged: tagged)
  }

  /// The tagged payload under `key` (see ``AssociationEntry``) with a reference of its own, taken
  /// under the lock so that a concurrent replace cannot free it first; 0 when there is none.
  @inline(__always)
  static func retainedTaggedPayload(_ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer) -> UInt
  {
    taggedPayload(holder, key: key, retaining: true)
  }

  /// The tagged payload under `key`, found under the lock and retained there when `retaining`
  /// (a constant at every call site, so the test folds away); 0 when there is none.
  @inline(__always)
  static func taggedPayload(
    _ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer, retaining: Bool
  ) -> UInt {
    if holder._withUnsafeGuaranteedRef({ $0.associationWord.load(ordering: .relaxed) }) == 0 {
      return 0
    }
    // Only now, so that objects without associations pay nothing: a static object's word is
    // past its record, whatever lies there.
    if holder._withUnsafeGuaranteedRef(StaticObjects.isStatic) { return 0 }
    var tagged: UInt = 0
    swk_association_lock_acquire()
    let word = holder._withUnsafeGuaranteedRef { $0.associationWord.load(ordering: .relaxed) }
    if let address = UnsafeRawPointer(bitPattern: word) {
      Unmanaged<AssociationTable>.fromOpaque(address)._withUnsafeGuaranteedRef { table in
        let index = table.listIndex(of: key)
        if index >= 0 {
          tagged = table.taggedPayload(at: index, retaining: retaining)
        } else if index == AssociationTable.hashed {
          // Out of line, and nothing but its result is needed after it: the list's path
          // saves no more registers than it did before there were hash tables.
          tagged = table.hashedTaggedPayload(for: key, retaining: retaining)
        }
      }
    }
    swk_association_lock_release()
    return tagged
  }

  /// The object under `key`, retained: the fast getter's body. An object stored as itself (no
  /// tag bits) is returned at once; boxes are opened out of line.
  @inline(__always)
  static func object(_ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer) -> AnyObject? {
    let tagged = retainedTaggedPayload(holder, key: key)
    return isBoxed(tagged) ? boxedObject(tagged) : takeUnboxedObject(tagged)
  }

  /// The object in a weak box, or nil for a value box, consuming the payload's reference.
  @inline(never)
  static func boxedObject(_ tagged: UInt) -> AnyObject? {
    DetachedPayload(tagged: tagged).takeObject()
  }

  /// The object under `key` without a reference of its own: objc4's non-atomic read. The lock is
  /// still taken, because a concurrent write may replace the whole table.
  @inline(__always)
  static func unretainedObject(
    _ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer
  ) -> Unmanaged<AnyObject>? {
    let tagged = taggedPayload(holder, key: key, retaining: false)
    guard isBoxed(tagged) else {
      return UnsafeRawPointer(bitPattern: tagged).map { Unmanaged.fromOpaque($0) }
    }
    return unretainedBoxedObject(tagged)
  }

  /// The object of a weak box (alive only while someone else keeps it so, as with objc4's
  /// ASSIGN); nil for a value box. Out of line, so that the common path stays short.
  @inline(never)
  static func unretainedBoxedObject(_ tagged: UInt) -> Unmanaged<AnyObject>? {
    guard tagged & 0xF == AssociationStorage.weak.rawValue,
      let address = UnsafeRawPointer(bitPattern: tagged & ~0xF)
    else { return nil }
    let box = Unmanaged<WeakAssociation>.fromOpaque(address).takeUnretainedValue()
    return box.object.map { Unmanaged.passUnretained($0) }
  }

  /// Removes every association; the values are released after the lock is dropped.
  static func removeAll(_ object: ObjCObject) {
    let released = withLock { () -> [DetachedPayload] in
      guard let table = table(of: object)?.takeUnretainedValue() else { return [] }
      let payloads = table.removeAll()
      swk_association_count_add(-payloads.count)
      setTable(nil, of: object)
      return payloads
    }
    for payload in released { payload.release() }
  }

  /// The number of live associations in the process.
  static var liveCount: Int { withLock { swk_association_count() } }
}
