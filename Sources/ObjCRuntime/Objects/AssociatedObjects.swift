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

  /// An empty slot of a hash table: `emptyKey` and no payload.
  init(emptyAt emptyKey: UnsafeRawPointer) {
    self.key = emptyKey
    self.tagged = 0
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
}
