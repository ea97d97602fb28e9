// Associated objects: values attached to any object under a key, with objc4's five policies.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

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

/// One association: the key, how the value is held, and the value or the box that holds it.
internal struct AssociationEntry {
  var key: UnsafeRawPointer
  var storage: AssociationStorage
  var payload: AnyObject
}

/// How an entry's payload holds its value.
internal enum AssociationStorage: UInt8 {
  /// The payload is the value, retained.
  case object
  /// The payload is a `WeakAssociation` (ASSIGN of an object).
  case weak
  /// The payload is a `ValueAssociation` (a value type, stored as a value).
  case value
}

internal final class WeakAssociation {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

internal final class ValueAssociation {
  let value: Any
  init(_ value: Any) { self.value = value }
}

/// A payload on its way out of the association lock: to be released, or handed to the reader.
///
/// `@unchecked Sendable`: once out of its table, a payload is owned by the one thread that took
/// it out (the setter releasing an old value, or the getter returning a value it retained).
internal struct DetachedPayload: @unchecked Sendable {
  let storage: AssociationStorage
  let payload: AnyObject
}

/// An object's associations: one allocation holding the entries inline. Read and written only
/// while holding `Associations.lock`.
internal final class AssociationTable: ManagedBuffer<Int, AssociationEntry> {
  static func make(capacity: Int) -> AssociationTable {
    let buffer = AssociationTable.create(minimumCapacity: capacity) { _ in 0 }
    return unsafeDowncast(buffer, to: AssociationTable.self)
  }

  deinit {
    _ = withUnsafeMutablePointers { count, entries in
      entries.deinitialize(count: count.pointee)
    }
  }

  var count: Int { header }

  func index(of key: UnsafeRawPointer) -> Int? {
    withUnsafeMutablePointers { count, entries in
      for index in 0..<count.pointee where entries[index].key == key {
        return index
      }
      return nil
    }
  }

  func payload(at index: Int) -> (AssociationStorage, AnyObject) {
    withUnsafeMutablePointers { _, entries in (entries[index].storage, entries[index].payload) }
  }

  /// Replaces the entry at `index` and returns the old payload, to be released outside the lock.
  func replace(at index: Int, with entry: AssociationEntry) -> AnyObject {
    withUnsafeMutablePointers { _, entries in
      let old = entries[index].payload
      entries[index] = entry
      return old
    }
  }

  /// Removes the entry at `index` by moving the last one into its place; returns its payload.
  func remove(at index: Int) -> AnyObject {
    withUnsafeMutablePointers { count, entries in
      let removed = (entries + index).move()
      count.pointee -= 1
      if index != count.pointee {
        (entries + index).moveInitialize(from: entries + count.pointee, count: 1)
      }
      return removed.payload
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
  func removeAll() -> [AnyObject] {
    withUnsafeMutablePointers { count, entries in
      let payloads = (0..<count.pointee).map { (entries + $0).move().payload }
      count.pointee = 0
      return payloads
    }
  }
}

/// The association store: every table hangs off its object, and one lock guards them all, as in
/// objc4 (`AssociationsManager`).
internal enum Associations {
  /// The number of live entries in all tables, for leak checks.
  static let lock = RuntimeLock<Int>(0)

  static func table(of object: ObjCObject) -> AssociationTable? {
    let word = object.associationWord.load(ordering: .acquiring)
    guard let address = UnsafeRawPointer(bitPattern: word) else { return nil }
    return Unmanaged<AssociationTable>.fromOpaque(address).takeUnretainedValue()
  }

  static func setTable(_ table: AssociationTable?, of object: ObjCObject) {
    let old = object.associationWord.load(ordering: .acquiring)
    if let table {
      guard UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()) != old else { return }
      _ = Unmanaged.passRetained(table)
      object.associationWord.store(
        UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()), ordering: .releasing)
    } else {
      object.associationWord.store(0, ordering: .releasing)
    }
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
    let released = lock.withLock { live -> DetachedPayload? in
      let table = table(of: object)
      if let table, let index = table.index(of: key) {
        if let entry {
          return DetachedPayload(storage: .object, payload: table.replace(at: index, with: entry))
        }
        live -= 1
        let old = table.remove(at: index)
        if table.count == 0 { setTable(nil, of: object) }
        return DetachedPayload(storage: .object, payload: old)
      }
      guard let entry else { return nil }
      live += 1
      let grown = (table ?? AssociationTable.make(capacity: 1)).appending(entry)
      setTable(grown, of: object)
      return nil
    }
    withExtendedLifetime(released) {}
  }

  /// The value stored under `key`, retained under the lock so that a concurrent replace cannot
  /// free it before the caller has it.
  static func get(_ object: ObjCObject, key: UnsafeRawPointer) -> Any? {
    let found = lock.withLock { _ -> DetachedPayload? in
      guard let table = table(of: object), let index = table.index(of: key) else { return nil }
      let (storage, payload) = table.payload(at: index)
      return DetachedPayload(storage: storage, payload: payload)
    }
    guard let found else { return nil }
    switch found.storage {
    case .object: return found.payload
    case .weak: return unsafeDowncast(found.payload, to: WeakAssociation.self).object
    case .value: return unsafeDowncast(found.payload, to: ValueAssociation.self).value
    }
  }

  /// Removes every association; the values are released after the lock is dropped.
  static func removeAll(_ object: ObjCObject) {
    let released = lock.withLock { live -> [DetachedPayload] in
      guard let table = table(of: object) else { return [] }
      let payloads = table.removeAll()
      live -= payloads.count
      setTable(nil, of: object)
      return payloads.map { DetachedPayload(storage: .object, payload: $0) }
    }
    withExtendedLifetime(released) {}
  }

  /// The number of live associations in the process.
  static var liveCount: Int { lock.withLock { $0 } }
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
    Diagnostics.warn("objc_setAssociatedObject: \(error)")
  }
}

/// The value associated with `object` under `key`, or nil. The corresponding objc4 function is
/// `objc_getAssociatedObject`.
public func objc_getAssociatedObject(_ object: ObjCObject?, _ key: UnsafeRawPointer) -> Any? {
  guard let object else { return nil }
  return Associations.get(object, key: key)
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

  /// The value attached under a typed key, or the key's default when there is none.
  ///
  /// ```swift
  /// private let alphaKey = AssociatedKey<Double>(default: 1)
  /// extension Screen { var barAlpha: Double { get { self[alphaKey] } set { self[alphaKey] = newValue } } }
  /// ```
  public final subscript<Value>(key: AssociatedKey<Value>) -> Value {
    get {
      (Associations.get(self, key: key.address) as? Value) ?? key.defaultValue
    }
    set {
      let stored = flattened(newValue)
      do {
        try setAssociatedValue(stored, forKey: key.address, policy: key.policy)
      } catch {
        Diagnostics.warn("\(error)")
      }
    }
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
public final class AssociatedKey<Value>: @unchecked Sendable {
  /// What a read returns when the object has no value under this key.
  public let defaultValue: Value
  /// How values are held.
  public let policy: objc_AssociationPolicy

  /// A key whose reads default to `defaultValue`.
  public init(default defaultValue: Value, policy: objc_AssociationPolicy = .retainNonatomic) {
    self.defaultValue = defaultValue
    self.policy = policy
  }

  /// The key's address, as the C-level functions take it.
  public var address: UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
  }
}

extension AssociatedKey where Value: ExpressibleByNilLiteral {
  /// A key whose reads default to nil.
  public convenience init(policy: objc_AssociationPolicy = .retainNonatomic) {
    self.init(default: nil, policy: policy)
  }
}
