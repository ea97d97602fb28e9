// Key-value coding: value(forKey:) and setValue(_:forKey:) with Foundation's search order.

/// Calls a method whose types are known only at run time, for key-value coding: the encoding's
/// code picks the Swift type to send with.
internal enum DynamicSend {
  /// Sends a getter and boxes its result; nil when the method does not return a value.
  static func get(_ object: ObjCObject, _ selector: Selector, returning code: UInt8)
    throws(ObjCRuntimeError) -> Any??
  {
    switch code {
    case UInt8(ascii: "@"):
      let result: ObjCObject? = try objc_msgSend(object, selector)
      return .some(result.map { $0 })
    case UInt8(ascii: "q"): return .some(try objc_msgSend(object, selector) as Int)
    case UInt8(ascii: "Q"): return .some(try objc_msgSend(object, selector) as UInt)
    case UInt8(ascii: "i"): return .some(try objc_msgSend(object, selector) as Int32)
    case UInt8(ascii: "I"): return .some(try objc_msgSend(object, selector) as UInt32)
    case UInt8(ascii: "s"): return .some(try objc_msgSend(object, selector) as Int16)
    case UInt8(ascii: "S"): return .some(try objc_msgSend(object, selector) as UInt16)
    case UInt8(ascii: "c"): return .some(try objc_msgSend(object, selector) as Int8)
    case UInt8(ascii: "C"): return .some(try objc_msgSend(object, selector) as UInt8)
    case UInt8(ascii: "B"): return .some(try objc_msgSend(object, selector) as Bool)
    case UInt8(ascii: "d"): return .some(try objc_msgSend(object, selector) as Double)
    case UInt8(ascii: "f"): return .some(try objc_msgSend(object, selector) as Float)
    case UInt8(ascii: ":"): return .some(try objc_msgSend(object, selector) as Selector)
    case UInt8(ascii: "^"):
      let result: UnsafeMutableRawPointer? = try objc_msgSend(object, selector)
      return .some(result.map { $0 })
    default: return nil
    }
  }

  /// Sends a one-argument setter, converting `value` to the argument's type. Returns false when
  /// the value cannot be converted.
  static func set(
    _ object: ObjCObject, _ selector: Selector, argument code: UInt8, value: Any?
  ) throws(ObjCRuntimeError) -> Bool {
    switch code {
    case UInt8(ascii: "@"):
      guard value == nil || value is ObjCObject else { return false }
      try objc_msgSend(object, selector, value as? ObjCObject) as Void
    case UInt8(ascii: "B"):
      guard let flag = value as? Bool else { return false }
      try objc_msgSend(object, selector, flag) as Void
    case UInt8(ascii: "d"):
      guard let number = Number(value)?.double else { return false }
      try objc_msgSend(object, selector, number) as Void
    case UInt8(ascii: "f"):
      guard let number = Number(value)?.double else { return false }
      try objc_msgSend(object, selector, Float(number)) as Void
    case UInt8(ascii: "q"): return try send(object, selector, value, as: Int.self)
    case UInt8(ascii: "Q"): return try send(object, selector, value, as: UInt.self)
    case UInt8(ascii: "i"): return try send(object, selector, value, as: Int32.self)
    case UInt8(ascii: "I"): return try send(object, selector, value, as: UInt32.self)
    case UInt8(ascii: "s"): return try send(object, selector, value, as: Int16.self)
    case UInt8(ascii: "S"): return try send(object, selector, value, as: UInt16.self)
    case UInt8(ascii: "c"): return try send(object, selector, value, as: Int8.self)
    case UInt8(ascii: "C"): return try send(object, selector, value, as: UInt8.self)
    default:
      return false
    }
    return true
  }

  /// Sends `value` as an integer of type `T`; false when it is not a number `T` holds exactly.
  private static func send<T: ObjCScalar & FixedWidthInteger>(
    _ object: ObjCObject, _ selector: Selector, _ value: Any?, as type: T.Type
  ) throws(ObjCRuntimeError) -> Bool {
    guard let integer = Number(value)?.integer, let exact = T(exactly: integer) else {
      return false
    }
    try objc_msgSend(object, selector, exact) as Void
    return true
  }
}

/// A number of any Swift numeric type, as `NSNumber` unboxes for key-value coding.
private struct Number {
  let integer: Int?
  let double: Double

  init?(_ value: Any?) {
    switch value {
    case let value as Int: (integer, double) = (value, Double(value))
    case let value as Double: (integer, double) = (Int(exactly: value), value)
    case let value as Float: (integer, double) = (Int(exactly: value), Double(value))
    case let value as any BinaryInteger:
      (integer, double) = (Int(exactly: value), Double(value))
    default: return nil
    }
  }
}

extension ObjCObject {
  /// The value for `key`, found as Foundation's `valueForKey:` finds it: an accessor method named
  /// `get<Key>`, `<key>`, `is<Key>` or `_<key>`, in that order; then, if the class allows it
  /// (``accessInstanceVariablesDirectly``), an ivar named `_<key>`, `_is<Key>`, `<key>` or
  /// `is<Key>`; then ``value(forUndefinedKey:)``.
  ///
  /// Numbers and booleans come back as Swift values (`Int`, `Double`, `Bool`...), objects as
  /// objects.
  ///
  /// - Throws: ``ObjCRuntimeError/undefinedKey(className:key:)`` when nothing answers the key,
  ///   never a crash (LTNavigationBar crashed on iOS 11 on exactly this).
  public final func value(forKey key: String) throws(ObjCRuntimeError) -> Any? {
    try KeyReader.read(key, of: self)
  }

  /// Sets the value for `key`, found as Foundation's `setValue:forKey:` finds it: a method named
  /// `set<Key>:` or `_set<Key>:`; then, if the class allows it, an ivar named `_<key>`,
  /// `_is<Key>`, `<key>` or `is<Key>`; then ``setValue(_:forUndefinedKey:)``.
  ///
  /// - Throws: ``ObjCRuntimeError/undefinedKey(className:key:)`` when nothing answers the key,
  ///   ``ObjCRuntimeError/keyValueTypeMismatch(className:key:expected:actual:)`` when the value
  ///   does not fit the setter's or ivar's type. Nothing changes on error.
  public final func setValue(_ value: Any?, forKey key: String) throws(ObjCRuntimeError) {
    let cls = isa.takeUnretainedValue()
    let capitalized = key.prefix(1).uppercased() + key.dropFirst()
    for name in ["set\(capitalized):", "_set\(capitalized):"] {
      let selector = Selector(name)
      guard let method = cls.instanceMethod(for: selector), method.implementation != nil,
        let argument = method.signature.encoding.explicitArgumentTypes.first,
        method.signature.encoding.argumentTypes.count == 3,
        let code = SignatureCode.code(of: argument)
      else { continue }
      guard try DynamicSend.set(self, selector, argument: code, value: value) else {
        throw .keyValueTypeMismatch(
          className: cls.name, key: key, expected: argument,
          actual: value.map { "\(type(of: $0))" } ?? "nil")
      }
      return
    }
    if type(of: self).accessInstanceVariablesDirectly,
      let ivar = ivarForKey(key, capitalized, in: cls)
    {
      do {
        try setValue(value, of: ivar)
      } catch {
        throw .keyValueTypeMismatch(
          className: cls.name, key: key, expected: ivar.typeEncoding,
          actual: value.map { "\(type(of: $0))" } ?? "nil")
      }
      return
    }
    try setValue(value, forUndefinedKey: key)
  }

  /// The ivar key-value coding reads and writes for `key`: `_<key>`, `_is<Key>`, `<key>` or
  /// `is<Key>`, the first the class has.
  func ivarForKey(_ key: String, _ capitalized: String, in cls: Class) -> Ivar? {
    for name in ["_\(key)", "_is\(capitalized)", key, "is\(capitalized)"] {
      if let ivar = cls.instanceVariable(named: name) { return ivar }
    }
    return nil
  }
}

extension DynamicSend {
  /// Whether ``get(_:_:returning:)`` answers a value for a return type of `code`.
  static func reads(_ code: UInt8) -> Bool {
    "@qQiIsScCBdf:^".utf8.contains(code)
  }
}
