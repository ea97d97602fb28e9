// Instance variables: declared from Swift key paths, or added to classes made at run time.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

import CObjCRuntime

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
    if Value.self is any OptionalProtocol.Type {
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
    if Wrapped.self is any OptionalProtocol.Type {
      return { object in (object as? Owner).flatMap { flattened(read($0)) } }
    }
    return { object in
      guard let owner = object as? Owner, let value = read(owner) else { return nil }
      return value
    }
  }
}

/// One instance variable of a class declaration: read and written through a key path, or read
/// only, through a function of the object (which a key path literal becomes).
///
/// ```swift
/// ObjCIvarDeclaration("_isTransitioning", \UINavigationController.isTransitioning)
/// ```
public struct ObjCIvarDeclaration {
  internal let name: String
  internal let typeEncoding: String
  internal let accessors: IvarAccessors

  /// A writable ivar backed by the property at `keyPath`. Its encoding comes from the property's
  /// type (`?` when the type has none).
  public init<Owner: ObjCObject, Value>(
    _ name: String, _ keyPath: ReferenceWritableKeyPath<Owner, Value>
  ) {
    self.name = name
    self.typeEncoding = ObjCIvarDeclaration.encoding(of: Value.self)
    self.accessors = IvarAccessors(
      get: IvarAccessors.getter { (owner: Owner) in owner[keyPath: keyPath] },
      set: { object, value in
        guard let owner = object as? Owner, let typed = value as? Value else { return false }
        owner[keyPath: keyPath] = typed
        return true
      })
  }

  /// A read-only ivar whose value `read` gives: a key path literal
  /// (`readOnly: \UINavigationController.isTransitioning`), which Swift turns into a function
  /// that reads the property directly, or any function of the object. `@Sendable`, since
  /// `object_getIvar` may call it from any thread: it should read the object it is given and
  /// nothing else.
  public init<Owner: ObjCObject, Value>(
    _ name: String, readOnly read: @escaping @Sendable (Owner) -> Value
  ) {
    self.name = name
    self.typeEncoding = ObjCIvarDeclaration.encoding(of: Value.self)
    self.accessors = IvarAccessors(get: IvarAccessors.getter(read), set: nil)
  }

  /// A writable ivar backed by the optional property at `keyPath` (`_delegate`...): nil reads as
  /// nil, not as a present value wrapping nil.
  public init<Owner: ObjCObject, Wrapped>(
    _ name: String, _ keyPath: ReferenceWritableKeyPath<Owner, Wrapped?>
  ) {
    self.name = name
    self.typeEncoding = ObjCIvarDeclaration.encoding(of: Wrapped?.self)
    self.accessors = IvarAccessors(
      get: IvarAccessors.optionalGetter { (owner: Owner) in owner[keyPath: keyPath] },
      set: { object, value in
        guard let owner = object as? Owner else { return false }
        guard let value else {
          owner[keyPath: keyPath] = nil
          return true
        }
        guard let typed = value as? Wrapped else { return false }
        owner[keyPath: keyPath] = typed
        return true
      })
  }

  /// A read-only ivar of an optional type (`_delegate`...): nil reads as nil.
  public init<Owner: ObjCObject, Wrapped>(
    _ name: String, readOnly read: @escaping @Sendable (Owner) -> Wrapped?
  ) {
    self.name = name
    self.typeEncoding = ObjCIvarDeclaration.encoding(of: Wrapped?.self)
    self.accessors = IvarAccessors(get: IvarAccessors.optionalGetter(read), set: nil)
  }

  private static func encoding(of type: Any.Type) -> String {
    (type as? any ObjCTypeEncodable.Type)?.objcTypeEncoding ?? "?"
  }
}

/// `value` as an `Any?` that is nil when `value` is an optional holding nil, so that an ivar of
/// type `UIView?` reads as nil rather than as a present value wrapping nil.
internal func flattened<Value>(_ value: Value) -> Any? {
  // A class instance is never an optional: answered without the protocol cast, which walks the
  // class and its superclasses to learn that none conforms (the model's arguments are mostly
  // views and controllers, deep in their hierarchies).
  if type(of: value) is AnyClass { return value }
  if let optional = value as? any OptionalProtocol {
    return optional.wrappedAny
  }
  return value
}

/// Lets `flattened` look inside an optional of any wrapped type.
internal protocol OptionalProtocol {
  var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
  var wrappedAny: Any? { map { flattened($0) } ?? nil }
}

extension Class {
  /// The ivar named `name` in this class or its superclasses. The corresponding objc4 function
  /// is `class_getInstanceVariable`.
  public func instanceVariable(named name: String) -> Ivar? {
    Runtime.state.withLock { _ in
      for cls in lineage {
        if let ivar = cls.ivarList.first(where: { $0.name == name }) { return ivar }
      }
      return nil
    }
  }

  /// The class's own ivars, in declaration order. The corresponding objc4 function is
  /// `class_copyIvarList`.
  public var ivars: [Ivar] {
    Runtime.state.withLock { _ in ivarList }
  }

  /// The size of an instance in bytes: the Swift instance size of ``storageType``, plus the ivars
  /// added at run time. The corresponding objc4 function is `class_getInstanceSize`.
  public var instanceSize: Int {
    Runtime.state.withLock { _ in
      addedInstanceSize ?? SwiftClassLayout.instanceSize(of: storageType)
    }
  }

  /// Adds an ivar to a class under construction. objc4's rule: only between
  /// `objc_allocateClassPair` and `objc_registerClassPair`; its offset is the end of the instance
  /// so far, aligned to `alignment` (a power of two, given as its log2, as objc4 takes it).
  ///
  /// - Throws: ``ObjCRuntimeError/invalidIvar(className:name:reason:)`` when the class is
  ///   registered or was not made at run time, the name is taken, or the encoding is malformed.
  public func addIvar(
    _ name: String, size: Int, alignment log2Alignment: UInt8, types: String
  ) throws(ObjCRuntimeError) {
    func refuse(_ reason: String) -> ObjCRuntimeError {
      .invalidIvar(className: self.name, name: name, reason: reason)
    }
    guard !name.isEmpty else { throw refuse("an ivar needs a name") }
    // objc4 keeps instance sizes in 32 bits; checking here, before the lock, also keeps every
    // sum below from overflowing.
    guard size >= 0, size <= Int(UInt32.max), log2Alignment < 16 else {
      throw refuse(
        "size \(size) or alignment 2^\(log2Alignment) out of range (at most \(UInt32.max) bytes,"
          + " aligned to at most 2^15)")
    }
    var parser = TypeEncodingParser(types)
    guard (try? parser.parseType()) != nil, parser.atEnd else {
      throw refuse("\(String(reflecting: types)) is not one type encoding")
    }
    let failure = Runtime.state.withLock { tables -> ObjCRuntimeError? in
      guard tables.constructing[ObjectIdentifier(self)] != nil else {
        return refuse(
          "ivars can only be added between objc_allocateClassPair and "
            + "objc_registerClassPair, as in objc4")
      }
      guard !lineage.contains(where: { cls in cls.ivarList.contains { $0.name == name } }) else {
        return refuse("the class or a superclass already has an ivar with that name")
      }
      let start =
        addedInstanceSize
        ?? superclass.map {
          $0.addedInstanceSize ?? SwiftClassLayout.instanceSize(of: $0.storageType)
        }
        ?? SwiftClassLayout.instanceSize(of: storageType)
      let alignment = 1 << Int(log2Alignment)
      let offset = (start + alignment - 1) & ~(alignment - 1)
      // start, size and alignment are below 2^32, so these sums cannot overflow an Int.
      guard offset + size <= Int(UInt32.max) else {
        return refuse(
          "the instance would be \(offset + size) bytes; objc4 allows at most \(UInt32.max)")
      }
      ivarList.append(
        Ivar(name: name, typeEncoding: types, offset: offset, owner: self, storage: .sideTable))
      addedInstanceSize = offset + size
      return nil
    }
    if let failure { throw failure }
  }
}

/// What the Swift runtime's class metadata says about a class's layout.
internal enum SwiftClassLayout {
  /// The instance size stored in the class metadata (`TargetClassMetadata::InstanceSize`, a
  /// 32-bit field after the kind, superclass, flags and instance address point words on
  /// platforms without Objective-C interop).
  static func instanceSize(of type: AnyClass) -> Int {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
  }
}

extension ObjCObject {
  /// The value of `ivar` in this object.
  ///
  /// - Throws: ``ObjCRuntimeError/invalidIvar(className:name:reason:)`` when the ivar belongs to
  ///   a class that is not the object's class or a superclass of it.
  public final func value(of ivar: Ivar) throws(ObjCRuntimeError) -> Any? {
    try checkOwnership(of: ivar)
    switch ivar.storage {
    case .property(let accessors): return accessors.get(self)
    case .sideTable: return Associations.get(self, key: ivar.address)
    }
  }

  /// Sets the value of `ivar` in this object.
  ///
  /// - Throws: ``ObjCRuntimeError/invalidIvar(className:name:reason:)`` when the ivar is not the
  ///   object's, is read-only, or `value` is not of its type.
  public final func setValue(_ value: Any?, of ivar: Ivar) throws(ObjCRuntimeError) {
    try checkOwnership(of: ivar)
    switch ivar.storage {
    case .property(let accessors):
      guard let set = accessors.set else {
        throw .invalidIvar(className: ivar.owner.name, name: ivar.name, reason: "it is read-only")
      }
      guard set(self, value) else {
        throw .invalidIvar(
          className: ivar.owner.name, name: ivar.name,
          reason:
            "\(value.map { "\(type(of: $0))" } ?? "nil") is not its type (\(ivar.typeEncoding))")
      }
    case .sideTable:
      try setAssociatedValue(value, forKey: ivar.address, policy: .retain)
    }
  }

  private func checkOwnership(of ivar: Ivar) throws(ObjCRuntimeError) {
    guard isa.takeUnretainedValue().inherits(from: ivar.owner) else {
      throw .invalidIvar(
        className: ivar.owner.name, name: ivar.name,
        reason: "the object is a \(isa.takeUnretainedValue().name), which does not have it")
    }
  }
}

extension Ivar {
  /// The key under which a side-table ivar's value is stored.
  internal var address: UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
  }
}

/// The ivar named `name` in `cls` or its superclasses, nil for nil. The corresponding objc4
/// function is `class_getInstanceVariable`.
public func class_getInstanceVariable(_ cls: Class?, _ name: String) -> Ivar? {
  cls?.instanceVariable(named: name)
}

/// The class's own ivars; empty for nil. The Swift form of objc4's `class_copyIvarList`.
public func class_copyIvarList(_ cls: Class?) -> [Ivar] {
  cls?.ivars ?? []
}

/// Adds an ivar to a class under construction; false when that is not allowed (see
/// ``Class/addIvar(_:size:alignment:types:)``). The corresponding objc4 function is
/// `class_addIvar`.
@discardableResult
public func class_addIvar(
  _ cls: Class?, _ name: String, _ size: Int, _ alignment: UInt8, _ types: String
) -> Bool {
  guard let cls else { return false }
  return (try? cls.addIvar(name, size: size, alignment: alignment, types: types)) != nil
}

/// The size of an instance; 0 for nil. The corresponding objc4 function is
/// `class_getInstanceSize`.
public func class_getInstanceSize(_ cls: Class?) -> Int {
  cls?.instanceSize ?? 0
}

/// The ivar's name. The corresponding objc4 function is `ivar_getName`.
public func ivar_getName(_ ivar: Ivar?) -> String? {
  ivar?.name
}

/// The ivar's type encoding. The corresponding objc4 function is `ivar_getTypeEncoding`.
public func ivar_getTypeEncoding(_ ivar: Ivar?) -> String? {
  ivar?.typeEncoding
}

/// The ivar's offset; 0 for nil and for ivars Swift lays out. The corresponding objc4 function
/// is `ivar_getOffset`.
public func ivar_getOffset(_ ivar: Ivar?) -> Int {
  ivar?.offset ?? 0
}

/// The value of `ivar` in `object`; nil for nil arguments or an ivar of another class. The
/// corresponding objc4 function is `object_getIvar`.
public func object_getIvar(_ object: ObjCObject?, _ ivar: Ivar?) -> Any? {
  guard let object, let ivar else { return nil }
  return (try? object.value(of: ivar)) ?? nil
}

/// Sets the value of `ivar` in `object`; does nothing for nil arguments, an ivar of another
/// class, or a value of the wrong type (``ObjCObject/setValue(_:of:)`` says why). The
/// corresponding objc4 function is `object_setIvar`.
public func object_setIvar(_ object: ObjCObject?, _ ivar: Ivar?, _ value: Any?) {
  guard let object, let ivar else { return }
  do {
    try object.setValue(value, of: ivar)
  } catch {
    Diagnostics.warn("object_setIvar", refused: error)
  }
}
