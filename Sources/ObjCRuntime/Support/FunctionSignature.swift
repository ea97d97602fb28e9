// Reads the Swift signature of a C function type to derive its Objective-C type encoding.

/// The Objective-C encoding of a `@convention(c)` function type, read from the Swift runtime's
/// metadata for that type.
///
/// A generic parameter cannot appear in a `@convention(c)` type, so a function like
/// `IMP.init(_:)` cannot spell the signature it accepts. It takes any `Function` instead and reads
/// the function type's metadata, whose layout is part of Swift's stable ABI
/// (`TargetFunctionTypeMetadata`): a kind word, a flags word (parameter count in the low 16 bits,
/// calling convention in the next 8), the result type, then one metadata pointer per parameter.
/// Each type is then asked for its ``ObjCTypeEncodable/objcTypeEncoding``.
internal enum FunctionSignature {
  private static let cFunctionPointerConvention: UInt = 3

  /// Encodings already derived, by function type: many IMPs share a type (`(id, SEL) -> Void`),
  /// and realizing every class of an image derives hundreds.
  private static let known = RuntimeLock<[ObjectIdentifier: String]>([:])

  /// The method encoding of `function`, such as `q@:q` for `(id, SEL, Int) -> Int`.
  static func encoding(of function: Any.Type) throws(ObjCRuntimeError) -> String {
    let key = ObjectIdentifier(function)
    if let encoding = known.withLock({ $0[key] }) { return encoding }
    let encoding = try derivedEncoding(of: function)
    known.withLock { $0[key] = encoding }
    return encoding
  }

  private static func derivedEncoding(of function: Any.Type) throws(ObjCRuntimeError) -> String {
    let types = try parameterAndResultTypes(of: function)
    guard types.parameters.count >= 2,
      types.parameters[0] == id.self || types.parameters[0] == Optional<id>.self,
      types.parameters[1] == SEL.self || types.parameters[1] == Optional<SEL>.self
    else {
      throw .invalidImplementation(
        "\(function) does not take (id, SEL, ...): an IMP receives self and _cmd first")
    }
    var encoding = try typeEncoding(of: types.result, in: function)
    for parameter in types.parameters {
      encoding += try typeEncoding(of: parameter, in: function)
    }
    return encoding
  }

  private static func typeEncoding(of type: Any.Type, in function: Any.Type)
    throws(ObjCRuntimeError)
    -> String
  {
    if type == Void.self { return "v" }
    if type == Class.self || type == Optional<Class>.self { return "#" }
    guard let encoding = objcTypeEncoding(of: type) else {
      throw .invalidImplementation("\(function) uses \(type), which has no Objective-C encoding")
    }
    return encoding
  }

  private static func parameterAndResultTypes(of function: Any.Type) throws(ObjCRuntimeError)
    -> (parameters: [Any.Type], result: Any.Type)
  {
    let metadata = unsafeBitCast(function, to: UnsafeRawPointer.self)
    let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
    guard TypeMetadata.kind(of: function) == TypeMetadata.functionKind,
      (flags >> 16) & 0xFF == cFunctionPointerConvention
    else {
      throw .invalidImplementation("\(function) is not a @convention(c) function")
    }
    let count = Int(flags & 0xFFFF)
    let word = MemoryLayout<UnsafeRawPointer>.size
    let result = unsafeBitCast(
      metadata.load(fromByteOffset: 2 * word, as: UnsafeRawPointer.self), to: Any.Type.self)
    var parameters: [Any.Type] = []
    for index in 0..<count {
      let parameter = metadata.load(fromByteOffset: (3 + index) * word, as: UnsafeRawPointer.self)
      parameters.append(unsafeBitCast(parameter, to: Any.Type.self))
    }
    return (parameters, result)
  }
}
