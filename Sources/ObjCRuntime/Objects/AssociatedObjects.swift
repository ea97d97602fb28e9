// Associated objects: values attached to any object under a key, with objc4's five policies.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

import CObjCRuntime
import Synchronization

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// How an associated value is held, objc4's `objc_AssociationPolicy`.
///
/// The raw values are objc4's. "Atomic" in objc4 only changes the getter (it retains the value
/// under the lock, so the result survives a concurrent replace); here every getter does that, so
/// the atomic and non-atomic policies behave alike.
public enum objc_AssociationPolicy: UInt, Sendable {
  /// Not retained. objc4 leaves a dangling pointer when the value dies; here an object value is
  /// held weakly, so a read after it died returns nil instead of crashing.
  case OBJC_ASSOCIATION_ASSIGN = 0
  /// Retained.
  case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
  /// Copied (``ObjCCopying``); value types are stored as values, which is a copy already.
  case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
  /// Retained; the getter retains under the lock.
  case OBJC_ASSOCIATION_RETAIN = 0o1401
  /// Copied; the getter retains under the lock.
  case OBJC_ASSOCIATION_COPY = 0o1403

  /// Swift names for the policies.
  public static let assign = OBJC_ASSOCIATION_ASSIGN
  /// Retained, non-atomic.
  public static let retainNonatomic = OBJC_ASSOCIATION_RETAIN_NONATOMIC
  /// Copied, non-atomic.
  public static let copyNonatomic = OBJC_ASSOCIATION_COPY_NONATOMIC
  /// Retained.
  public static let retain = OBJC_ASSOCIATION_RETAIN
  /// Copied.
  public static let copy = OBJC_ASSOCIATION_COPY

  var copies: Bool { self == .OBJC_ASSOCIATION_COPY || self == .OBJC_ASSOCIATION_COPY_NONATOMIC }
}

/// A class whose instances can be copied, the analogue of `NSCopying`: associations with a COPY
/// policy store `copy()` of the value.
public protocol ObjCCopying: AnyObject {
  /// An independent copy of the receiver.
  func copy() -> AnyObject
}

/// How an entry's payload holds its value; kept in the low bits of the payload's address, which
/// are zero in every Swift object's address (objects are 16-byte aligned).
internal enum AssociationStorage: UInt {
  /// The payload is the value, retained.
  case object = 0
  /// The payload is a `WeakAssociation` (ASSIGN of an object).
  case weak = 1
  /// The payload is a `ValueAssociation` (a value type, stored as a value).
  case value = 2
}

internal final class WeakAssociation {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

/// A value-type payload: the value as `Any`, which untyped readers get.
@usableFromInline
internal class ValueAssociation {
  @usableFromInline let value: Any
  init(_ value: Any) { self.value = value }
}

/// A value stored through a typed key, readable again without a dynamic cast from `Any`.
@usableFromInline
internal final class TypedValueAssociation<Value>: ValueAssociation {
  @usableFromInline let typedValue: Value
  init(typed value: Value) {
    typedValue = value
    super.init(value)
  }
}

/// One association in 16 bytes: the key, and the retained payload's address with its
/// `AssociationStorage` in the low bits. The entry owns one reference to the payload.
internal struct AssociationEntry {
  var key: UnsafeRawPointer
  var tagged: UInt

  /// Makes an entry that owns a new reference to `payload`.
  init(key: UnsafeRawPointer, storage: AssociationStorage, payload: AnyObject) {
    self.key = key
    self.tagged = UInt(bitPattern: Unmanaged.passRetained(payload).toOpaque()) | storage.rawValue
  }

  var storage: AssociationStorage {
    AssociationStorage(rawValue: tagged & 0xF) ?? .object
  }

  var payload: Unmanaged<AnyObject> {
    Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: tagged & ~0xF).unsafelyUnwrapped)
  }
}

/// A payload on its way out of the association lock, still owning its reference: to be released,
/// or handed to the reader.
///
/// `@unchecked Sendable`: once out of its table, a payload is owned by the one thread that took
/// it out.
internal struct DetachedPayload: @unchecked Sendable {
  let storage: AssociationStorage
  let payload: Unmanaged<AnyObject>

  init(_ entry: AssociationEntry) {
    storage = entry.storage
    payload = entry.payload
  }

  /// A payload from its tagged address (see ``AssociationEntry``), which must not be 0.
  init(tagged: UInt) {
    storage = AssociationStorage(rawValue: tagged & 0xF) ?? .object
    payload = Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: tagged & ~0xF).unsafelyUnwrapped)
  }

  /// The object the payload holds (nil for a value type or a dead weak object), consuming the
  /// reference; no existential is made on the way.
  @inline(__always)
  func takeObject() -> AnyObject? {
    let object = payload.takeRetainedValue()
    switch storage {
    case .object: return object
    case .weak: return unsafeDowncast(object, to: WeakAssociation.self).object
    case .value: return nil
    }
  }

  /// The value the payload holds, consuming the reference.
  @inline(__always)
  func take() -> Any? {
    let object = payload.takeRetainedValue()
    switch storage {
    case .object: return object
    case .weak: return unsafeDowncast(object, to: WeakAssociation.self).object
    case .value: return unsafeDowncast(object, to: ValueAssociation.self).value
    }
  }

  /// Drops the reference; call outside the lock, since the payload's deinit may run.
  func release() {
    payload.release()
  }
}

/// An object's associations: one allocation holding the 16-byte entries inline, so that a first
/// association costs one 48-byte block. Read and written only while holding the association lock.
internal final class AssociationTable: ManagedBuffer<Int, AssociationEntry> {
  static func make(capacity: Int) -> AssociationTable {
    let buffer = AssociationTable.create(minimumCapacity: capacity) { _ in 0 }
    return unsafeDowncast(buffer, to: AssociationTable.self)
  }

  deinit {
    // Tables are emptied before they are dropped; an entry left here would leak its payload.
    withUnsafeMutablePointers { count, entries in
      for index in 0..<count.pointee { entries[index].payload.release() }
    }
  }

  var count: Int { header }

  /// The key of the entry at `index`.
  func key(at index: Int) -> UnsafeRawPointer {
    withUnsafeMutablePointerToElements { $0[index].key }
  }

  /// The index of `key`'s entry; a plain loop, as the getter's cost is mostly this.
  @inline(__always)
  func index(of key: UnsafeRawPointer) -> Int? {
    withUnsafeMutablePointers { count, entries in
      var index = 0
      let end = count.pointee
      while index < end {
        if entries[index].key == key { return index }
        index &+= 1
      }
      return nil
    }
  }

  /// The tagged payload at `index`, with a new reference to it when `retaining`.
  @inline(__always)
  func taggedPayload(at index: Int, retaining: Bool) -> UInt {
    withUnsafeMutablePointerToElements { entries in
      if retaining { _ = entries[index].payload.retain() }
      return entries[index].tagged
    }
  }

  /// Replaces the entry at `index`; returns the old one's payload, to release outside the lock.
  func replace(at index: Int, with entry: AssociationEntry) -> DetachedPayload {
    withUnsafeMutablePointerToElements { entries in
      let old = DetachedPayload(entries[index])
      entries[index] = entry
      return old
    }
  }

  /// Removes the entry at `index` by moving the last one into its place; returns its payload.
  func remove(at index: Int) -> DetachedPayload {
    withUnsafeMutablePointers { count, entries in
      let removed = DetachedPayload(entries[index])
      count.pointee -= 1
      entries[index] = entries[count.pointee]
      return removed
    }
  }

  /// Appends `entry`, returning a larger table (holding the same entries) when this one is full.
  func appending(_ entry: AssociationEntry) -> AssociationTable {
    let table = count < capacity ? self : grown()
    table.withUnsafeMutablePointers { count, entries in
      (entries + count.pointee).initialize(to: entry)
      count.pointee += 1
    }
    return table
  }

  private func grown() -> AssociationTable {
    let larger = AssociationTable.make(capacity: Swift.max(4, capacity * 2))
    withUnsafeMutablePointers { count, entries in
      larger.withUnsafeMutablePointers { newCount, newEntries in
        newEntries.moveInitialize(from: entries, count: count.pointee)
        newCount.pointee = count.pointee
      }
      count.pointee = 0
    }
    return larger
  }

  /// Takes every payload out, leaving the table empty.
  func removeAll() -> [DetachedPayload] {
    withUnsafeMutablePointers { count, entries in
      let payloads = (0..<count.pointee).map { DetachedPayload(entries[$0]) }
      count.pointee = 0
      return payloads
    }
  }
}

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
    let reference = value as AnyObject
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
      if let table {
        var keys = Set<UnsafeRawPointer>()
        for index in 0..<table.count {
          InternalChecks.require(
            keys.insert(table.key(at: index)).inserted, "an association key appears twice")
        }
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
    var tagged: UInt = 0
    swk_association_lock_acquire()
    let word = holder._withUnsafeGuaranteedRef { $0.associationWord.load(ordering: .relaxed) }
    if let address = UnsafeRawPointer(bitPattern: word) {
      Unmanaged<AssociationTable>.fromOpaque(address)._withUnsafeGuaranteedRef { table in
        if let index = table.index(of: key) {
          tagged = table.taggedPayload(at: index, retaining: retaining)
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

/// Attaches `value` to `object` under `key`, held as `policy` says; a nil value erases the key.
///
/// Keys are compared by address: the address of a `static var`, of an ``AssociatedKey``, or any
/// `UnsafeRawPointer` that stays put. A nil object is tolerated. A COPY policy with a value that
/// is not ``ObjCCopying`` changes nothing and prints a warning (objc4 would raise);
/// ``ObjCObject/setAssociatedValue(_:forKey:policy:)`` throws instead. The corresponding objc4
/// function is `objc_setAssociatedObject`.
public func objc_setAssociatedObject(
  _ object: ObjCObject?, _ key: UnsafeRawPointer, _ value: Any?,
  _ policy: objc_AssociationPolicy
) {
  guard let object else { return }
  do {
    try object.setAssociatedValue(value, forKey: key, policy: policy)
  } catch {
    Diagnostics.warn("objc_setAssociatedObject", refused: error)
  }
}

/// The value associated with `object` under `key`, or nil. The corresponding objc4 function is
/// `objc_getAssociatedObject`.
public func objc_getAssociatedObject(_ object: ObjCObject?, _ key: UnsafeRawPointer) -> Any? {
  guard let holder = object.map(Unmanaged.passUnretained) else { return nil }
  return Associations.get(holder, key: key)
}

/// Attaches `value` under a selector used as key, the `@selector(property)` idiom of Objective-C:
/// the key is the selector's interned address. See the pointer-keyed form.
public func objc_setAssociatedObject(
  _ object: ObjCObject?, _ key: Selector, _ value: Any?, _ policy: objc_AssociationPolicy
) {
  objc_setAssociatedObject(object, key.interned.raw, value, policy)
}

/// The value associated under a selector used as key. See the pointer-keyed form.
public func objc_getAssociatedObject(_ object: ObjCObject?, _ key: Selector) -> Any? {
  objc_getAssociatedObject(object, key.interned.raw)
}

/// Removes every association of `object`, releasing the values. As objc4's header advises, prefer
/// setting single keys to nil: this also removes associations other code made. The corresponding
/// objc4 function is `objc_removeAssociatedObjects`.
public func objc_removeAssociatedObjects(_ object: ObjCObject?) {
  guard let object else { return }
  Associations.removeAll(object)
}

extension ObjCObject {
  /// Attaches `value` under `key` as `policy` says; nil erases the key.
  ///
  /// - Throws: ``ObjCRuntimeError/notCopyable(valueType:objectClass:)`` when a COPY policy meets
  ///   an object that is not ``ObjCCopying``; nothing changes.
  public final func setAssociatedValue(
    _ value: Any?, forKey key: UnsafeRawPointer, policy: objc_AssociationPolicy
  ) throws(ObjCRuntimeError) {
    let entry = try value.map { value throws(ObjCRuntimeError) in
      try Associations.entry(key: key, value: value, policy: policy, object: self)
    }
    Associations.set(self, key: key, entry: entry)
  }

  /// The value attached under `key`, or nil.
  public final func associatedValue(forKey key: UnsafeRawPointer) -> Any? {
    Associations.get(self, key: key)
  }

  /// The object attached under `key`, or nil when there is none or the value is not an object.
  ///
  /// The fast getter for object values (colours, views, controllers): it returns the object as
  /// `AnyObject`, without wrapping it in an `Any`, so `as? UIColor` afterwards is a plain class
  /// cast.
  public final func associatedObject(forKey key: UnsafeRawPointer) -> AnyObject? {
    Associations.object(Unmanaged.passUnretained(self), key: key)
  }

  /// The object attached under `key` without a reference of its own, objc4's non-atomic read:
  /// about half the cost of ``associatedObject(forKey:)``, and unsafe in the way objc4's
  /// `OBJC_ASSOCIATION_RETAIN_NONATOMIC` getter is.
  ///
  /// The safe getters retain the value while they hold the association lock, so that a writer on
  /// another thread cannot free it before the caller has it; that retain, and the caller's
  /// release, are 40 of their instructions. This one skips both. The reference it returns stays
  /// valid only while the association is neither replaced nor removed and the holder lives (for
  /// an `OBJC_ASSOCIATION_ASSIGN` object, while someone else keeps the object alive). Use it on
  /// single-threaded hot paths, such as a plugin reading its state in every frame of the UIKit
  /// model, and use the value within the same expression:
  ///
  /// ```swift
  /// let alpha = view.unretainedAssociatedObject(forKey: key)?
  ///   ._withUnsafeGuaranteedRef { ($0 as? Box)?.alpha } ?? 1
  /// ```
  ///
  /// Call `takeUnretainedValue()` on the result to keep the object beyond that: it retains then.
  /// Nil when there is no association, or its value is not an object (or a dead ASSIGN object).
  public final func unretainedAssociatedObject(
    forKey key: UnsafeRawPointer
  ) -> Unmanaged<AnyObject>? {
    Associations.unretainedObject(Unmanaged.passUnretained(self), key: key)
  }

  /// The value attached under a typed key, or the key's default when there is none.
  ///
  /// ```swift
  /// private let alphaKey = AssociatedKey<Double>(default: 1)
  /// extension Screen { var barAlpha: Double { get { self[alphaKey] } set { self[alphaKey] = newValue } } }
  /// ```
  ///
  /// Reading through a typed key avoids the dynamic casts of the untyped getter: objects are
  /// checked against the key's class, values are stored in a box of the key's type.
  ///
  /// The getter is inlinable, so that it specializes for the key's type where it is used: an
  /// object key reads like ``associatedObject(forKey:)`` plus a class check.
  @inlinable
  public final subscript<Value>(key: AssociatedKey<Value>) -> Value {
    get {
      switch key.representation {
      case .object(let cls):
        guard let object = associatedObject(forKey: key.address),
          isSwiftClass(type(of: object), inheritingFrom: cls)
        else { return key.defaultValue }
        return unsafeBitCast(object, to: Value.self)
      case .optionalObject(let cls):
        guard let object = associatedObject(forKey: key.address),
          isSwiftClass(type(of: object), inheritingFrom: cls)
        else { return key.defaultValue }
        return unsafeBitCast(object as AnyObject?, to: Value.self)
      case .value:
        return typedValue(forKey: key)
      }
    }
    set {
      setTypedValue(newValue, forKey: key)
    }
  }

  /// The value of a value-typed key, or the key's default. Inlinable, so that it specializes
  /// where a key is read: the check of the box's class is then a compare with a cached
  /// metadata pointer, where the unspecialized form looked the box's generic metadata up on
  /// every read (about 800 instructions for an `AssociatedKey<Double?>`, 141 now).
  @inlinable
  internal final func typedValue<Value>(forKey key: AssociatedKey<Value>) -> Value {
    guard let box = valueAssociation(forKey: key.address) else { return key.defaultValue }
    if let typed = box as? TypedValueAssociation<Value> { return typed.typedValue }
    return box.value as? Value ?? key.defaultValue
  }

  /// The value-type payload under `key`, retained; nil when there is none or it holds an object.
  @usableFromInline
  internal final func valueAssociation(forKey key: UnsafeRawPointer) -> ValueAssociation? {
    guard let payload = Associations.payload(Unmanaged.passUnretained(self), key: key) else {
      return nil
    }
    let object = payload.payload.takeRetainedValue()
    guard payload.storage == .value else { return nil }
    return unsafeDowncast(object, to: ValueAssociation.self)
  }

  /// Stores `newValue` under a typed key: objects as themselves (nil erasing the key), values in
  /// a box of the key's type, so that reading them needs no dynamic cast.
  @usableFromInline
  internal final func setTypedValue<Value>(_ newValue: Value, forKey key: AssociatedKey<Value>) {
    do {
      switch key.representation {
      case .object, .optionalObject:
        try setAssociatedValue(flattened(newValue), forKey: key.address, policy: key.policy)
      case .value:
        let entry = AssociationEntry(
          key: key.address, storage: .value, payload: TypedValueAssociation(typed: newValue))
        Associations.set(self, key: key.address, entry: entry)
      }
    } catch {
      Diagnostics.warn("the subscript of an associated key", refused: error)
    }
  }
}

/// How a typed key's values are stored, decided once when the key is made.
@usableFromInline
internal enum AssociatedKeyRepresentation {
  /// A class type: stored as the object.
  case object(AnyClass)
  /// An optional of a class type: stored as the object, nil erasing the key.
  case optionalObject(AnyClass)
  /// Anything else: stored in a typed box.
  case value
}

/// Optionals whose wrapped type is a class, so that a key can learn that class.
internal protocol OptionalOfObject {
  static var wrappedClass: AnyClass { get }
}

extension Optional: OptionalOfObject where Wrapped: AnyObject {
  static var wrappedClass: AnyClass { Wrapped.self }
}

/// What every typed association key has, whatever its value type: its policy and how its values
/// are stored. Kept in a non-generic class so that reading them needs no generic metadata, which
/// would cost a metadata-cache lookup on every access.
public class AnyAssociatedKey: @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable.

  /// How values are held.
  public let policy: objc_AssociationPolicy
  @usableFromInline internal let representation: AssociatedKeyRepresentation

  internal init(policy: objc_AssociationPolicy, representation: AssociatedKeyRepresentation) {
    self.policy = policy
    self.representation = representation
  }

  /// The key's address, as the C-level functions take it.
  public final var address: UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
  }
}

/// A typed association key with a default value: the address of the key object is the key.
///
/// Declare one per property, as a global or static `let`:
///
/// ```swift
/// let navBarBackgroundAlpha = AssociatedKey<Double>(default: 1)
/// controller[navBarBackgroundAlpha] = 0.5
/// ```
///
/// `@unchecked Sendable`: a key is immutable. Its default value is handed to every reader of a
/// missing association; for a reference type that instance is shared, as in Objective-C, so prefer
/// immutable defaults (nil, numbers, colours).
public final class AssociatedKey<Value>: AnyAssociatedKey, @unchecked Sendable {
  /// What a read returns when the object has no value under this key.
  public let defaultValue: Value

  /// A key whose reads default to `defaultValue`.
  public init(default defaultValue: Value, policy: objc_AssociationPolicy = .retainNonatomic) {
    self.defaultValue = defaultValue
    let representation: AssociatedKeyRepresentation
    if let cls = Value.self as? AnyClass, MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size {
      representation = .object(cls)
    } else if let optional = Value.self as? any OptionalOfObject.Type,
      MemoryLayout<Value>.size == MemoryLayout<AnyObject?>.size
    {
      representation = .optionalObject(optional.wrappedClass)
    } else {
      representation = .value
    }
    super.init(policy: policy, representation: representation)
  }
}

extension AssociatedKey where Value: ExpressibleByNilLiteral {
  /// A key whose reads default to nil.
  public convenience init(policy: objc_AssociationPolicy = .retainNonatomic) {
    self.init(default: nil, policy: policy)
  }
}
