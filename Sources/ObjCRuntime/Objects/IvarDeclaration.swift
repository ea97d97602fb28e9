// Declaring ivars from Swift: a stored property exposed under an ivar name, by key path.

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
    self.typeEncoding = ObjCIvarDeclaration.encoding(of: Wrapped.self)
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
    self.typeEncoding = ObjCIvarDeclaration.encoding(of: Wrapped.self)
    self.accessors = IvarAccessors(get: IvarAccessors.optionalGetter(read), set: nil)
  }

  private static func encoding(of type: Any.Type) -> String {
    objcTypeEncoding(of: type) ?? "?"
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
