// Instance variables: the `Ivar` type and where an ivar's value lives.

/// An instance variable of a class, the counterpart of objc4's `Ivar`.
///
/// A Swift class declares the stored properties it exposes as ivars with a key path (the UIKit
/// model declares `_isTransitioning`, `_shadowView`...), so reading the ivar reads the property.
/// A class made at run time gets ivars with `class_addIvar` before it is registered; their values
/// live beside the object, since a Swift object cannot grow.
public final class Ivar: @unchecked Sendable, CustomStringConvertible {
  // @unchecked Sendable: every stored property is immutable; the accessors only touch the object
  // they are given.

  /// The ivar's name, such as `_isTransitioning`.
  public let name: String
  /// The ivar's type encoding.
  public let typeEncoding: String
  /// The ivar's offset from the start of the object, for ivars added with `class_addIvar` (objc4's
  /// rule: after the superclass's instance, aligned); nil for ivars declared from key paths,
  /// whose storage Swift lays out.
  public let offset: Int?
  /// The class that declares the ivar (held strongly, as ``Method/owner`` is).
  public let owner: Class
  internal let storage: IvarStorage

  internal init(
    name: String, typeEncoding: String, offset: Int?, owner: Class, storage: IvarStorage
  ) {
    self.name = name
    self.typeEncoding = typeEncoding
    self.offset = offset
    self.owner = owner
    self.storage = storage
  }

  /// `Class._name`.
  public var description: String { "\(owner.name).\(name)" }
}

/// Where an ivar's value lives.
internal enum IvarStorage {
  /// A Swift stored property, reached through a key path.
  case property(IvarAccessors)
  /// Beside the object, in its association table under the ivar's address (class_addIvar).
  case sideTable
}

/// Type-erased access to a declared ivar's property.
internal struct IvarAccessors {
  let get: (ObjCObject) -> Any?
  /// Nil for a read-only ivar. Returns false when the value is not of the property's type.
  let set: ((ObjCObject, Any?) -> Bool)?

  /// Reads a property of a non-optional type. Whether the type is an optional after all (a
  /// generic `Value` can be) is decided once, here, not on every read: asking it of each value
  /// is a protocol-conformance lookup, which dominated `object_getIvar`.
  static func getter<Owner: ObjCObject, Value>(_ read: @escaping (Owner) -> Value)
    -> (ObjCObject) -> Any?
  {
    if isOptional(Value.self) {
      return { object in (object as? Owner).flatMap { flattened(read($0)) } }
    }
    return { object in
      guard let owner = object as? Owner else { return nil }
      return read(owner)
    }
  }

  /// Reads a property of an optional type: nil as nil, a value as itself (flattened once more
  /// only when the wrapped type is itself optional, decided here).
  static func optionalGetter<Owner: ObjCObject, Wrapped>(_ read: @escaping (Owner) -> Wrapped?)
    -> (ObjCObject) -> Any?
  {
    if isOptional(Wrapped.self) {
      return { object in (object as? Owner).flatMap { flattened(read($0)) } }
    }
    return { object in
      guard let owner = object as? Owner, let value = read(owner) else { return nil }
      return value
    }
  }
}
