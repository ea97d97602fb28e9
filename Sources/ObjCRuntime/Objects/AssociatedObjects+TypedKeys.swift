// Typed association keys: `AssociatedKey<Value>`, read and written through a subscript on
// `ObjCObject` without the untyped getter's dynamic casts.

extension ObjCObject {
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
  /// every read (about 800 instructions for an `AssociatedKey<Double?>`, 140 to 155 now).
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
        // The key's type is a class or an optional of one, as the getter's casts rely on too:
        // the value is the object itself, or nil, with no bridging through `Any`.
        let reference =
          if case .object = key.representation {
            unsafeBitCast(newValue, to: AnyObject.self) as AnyObject?
          } else {
            unsafeBitCast(newValue, to: AnyObject?.self)
          }
        let entry = try reference.map { reference throws(ObjCRuntimeError) in
          try Associations.entry(
            key: key.address, reference: reference, policy: key.policy, object: self)
        }
        Associations.set(self, key: key.address, entry: entry)
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
