// MethodSignature: the NSMethodSignature analogue, the types of a message.

/// The types of a message: its return type and arguments, as `NSMethodSignature` describes them.
///
/// Forwarding asks `methodSignature(for:)` for one before it builds an ``Invocation``. It is an
/// object, so it can be returned through the runtime like any other.
public final class MethodSignature: ObjCObject, @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable, and the isa is atomic.

  /// The encoding, verbatim.
  public let typeEncoding: String
  /// The parsed encoding.
  public let encoding: MethodEncoding
  internal let signatureCode: UInt64

  /// The signature an encoding describes, such as `"v@:q"`. The corresponding Foundation method
  /// is `+[NSMethodSignature signatureWithObjCTypes:]`.
  ///
  /// - Throws: ``ObjCRuntimeError/malformedTypeEncoding(_:position:expected:)``.
  public init(types: String) throws(ObjCRuntimeError) {
    let parsed = try ParsedSignature.of(types)
    guard parsed.encoding.argumentTypes.count >= 2 else {
      throw .malformedTypeEncoding(
        types, position: types.utf8.count, expected: "the self and _cmd arguments (\"@:\")")
    }
    typeEncoding = types
    encoding = parsed.encoding
    signatureCode = parsed.code
    super.init()
  }

  /// The signature of `method`.
  public init(_ method: Method) {
    typeEncoding = method.typeEncoding
    encoding = method.signature.encoding
    signatureCode = method.signatureCode
    super.init()
  }

  /// The number of arguments, `self` and `_cmd` included.
  public var numberOfArguments: Int { encoding.argumentTypes.count }

  /// The return type's encoding.
  public var methodReturnType: String { encoding.returnType }

  /// Whether the method returns an object (`@`, `#`, a block), which its IMP hands over with a
  /// reference the caller owns.
  public var returnsObject: Bool { MethodSignature.encodesObject(methodReturnType) }

  /// Whether a type encoded `type` is an object (`@`, `#`, a block), after any qualifiers.
  @usableFromInline
  package static func encodesObject(_ type: String) -> Bool {
    SignatureCode.code(of: type) == UInt8(ascii: "@")
  }

  /// The encoding of argument `index` (0 is `self`, 1 is `_cmd`), nil when out of range.
  public func argumentType(at index: Int) -> String? {
    encoding.argumentTypes.indices.contains(index) ? encoding.argumentTypes[index] : nil
  }

  /// What argument `index` is, with its size and alignment by the C ABI of this machine; nil
  /// when out of range.
  public func argumentDescriptor(at index: Int) -> ObjCTypeDescriptor? {
    encoding.argumentDescriptors.indices.contains(index) ? encoding.argumentDescriptors[index] : nil
  }

  /// What the return type is, with its size and alignment by the C ABI of this machine.
  public var returnDescriptor: ObjCTypeDescriptor { encoding.returnDescriptor }

  /// Whether a `T` is laid out as argument `index` is (same size, alignment and fields, whatever
  /// the struct names and integer signedness), so that it can be read and written there. A
  /// Swift type larger than its encoding says (`Int?`, encoded `q` but nine bytes) is refused:
  /// reading it would read past the argument.
  public func argument<T: ObjCTypeEncodable>(at index: Int, accepts type: T.Type) -> Bool {
    guard let expected = argumentDescriptor(at: index),
      let given = TypeDescriptors.descriptor(of: T.self)
    else { return false }
    return given.isLayoutCompatible(with: expected) && MemoryLayout<T>.size <= expected.size
  }

  /// Whether a `T` is laid out as the return type is; `Void` matches `v`. A Swift type larger
  /// than its encoding says is refused, as for arguments.
  public func returnType<T: ObjCTypeEncodable>(accepts type: T.Type) -> Bool {
    guard let given = TypeDescriptors.descriptor(of: T.self) else { return false }
    return given.isLayoutCompatible(with: returnDescriptor)
      && MemoryLayout<T>.size <= returnDescriptor.size
  }

  /// The encoding.
  public override var description: String { typeEncoding }
}
