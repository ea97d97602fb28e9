// The `@encode` analogue: which Swift types the runtime can pass, and how each is encoded.

/// A Swift type with an Objective-C type encoding, the analogue of `@encode(T)`.
///
/// The runtime derives a method's encoding from the Swift signature of its IMP by asking each
/// parameter type for its encoding, so declarations never spell encodings by hand.
public protocol ObjCTypeEncodable: SendableMetatype {
  /// The type's encoding as objc4 writes it: `q` for `Int`, `d` for `Double`, `@` for an object.
  static var objcTypeEncoding: String { get }

  /// The value at `address`, laid out as the C ABI lays out this type (a copy; objects are
  /// retained by it). Implemented once for every type by the protocol: generic code that reads
  /// arguments of many types (a hook's closure over a parameter pack) calls it through the
  /// conformance, which reads with the concrete type instead of through value witnesses.
  static func objcValue(at address: UnsafeRawPointer) -> Self
}

extension ObjCTypeEncodable {
  /// Reads the value with this type's own layout.
  @inlinable @inline(__always)
  public static func objcValue(at address: UnsafeRawPointer) -> Self {
    address.load(as: Self.self)
  }
}

/// The encoding `type`'s ``ObjCTypeEncodable`` conformance gives, nil when it has none; an
/// optional's is its wrapped type's (`Optional`'s conditional conformance).
///
/// An object type, and the types IMPs and ivars use most, are answered without the conformance
/// check: the first check of each type scans every conformance record of the process, once for
/// each class of its chain (a view: `UIView`, `UIResponder`, `ObjCObject`), and realizing the
/// model's classes did 172 of them, about 5 million of the 19.8 million instructions the first
/// `objc_copyClassList` took (callgrind, 2026-12-04; 16.0 million without most of them). A cast
/// to a class's metatype walks the chain without the records. An optional of an object type is
/// not answered here: ivar declarations ask for the wrapped type instead.
internal func objcTypeEncoding(of type: Any.Type) -> String? {
  if let objectType = type as? ObjCObject.Type { return objectType.objcTypeEncoding }
  if let known = commonEncodings[ObjectIdentifier(type)] { return known }
  return (type as? any ObjCTypeEncodable.Type)?.objcTypeEncoding
}

/// The encodings of the types IMPs and ivars use most, from their conformances, known without a
/// dynamic check of each.
private let commonEncodings: [ObjectIdentifier: String] = {
  var encodings: [ObjectIdentifier: String] = [:]
  func add<T: ObjCTypeEncodable>(_ type: T.Type) {
    encodings[ObjectIdentifier(type)] = T.objcTypeEncoding
    encodings[ObjectIdentifier(T?.self)] = T?.objcTypeEncoding
  }
  add(id.self)
  add(SEL.self)
  add(Selector.self)
  add(Bool.self)
  add(Int.self)
  add(UInt.self)
  add(Int32.self)
  add(UInt32.self)
  add(Double.self)
  add(Float.self)
  add(UnsafeRawPointer.self)
  add(UnsafeMutableRawPointer.self)
  return encodings
}()

/// How a value travels in a C call on this machine.
public enum ObjCRegisterKind: Sendable, Equatable {
  /// In a general-purpose register: integers, `Bool`, pointers, objects, selectors.
  case general
  /// In a floating-point register: `Float` and `Double`.
  case floatingPoint
}

/// A type that crosses a C call in one register, so that typed `objc_msgSend` can pass and
/// return it without libffi.
///
/// Integers narrower than 64 bits travel extended to 64 bits, and `Float` travels in the low half
/// of a floating-point register, which is what the C calling conventions of x86-64 and AArch64
/// expect of a caller and leave to a callee.
public protocol ObjCScalar: ObjCTypeEncodable {
  /// The register class the value travels in.
  static var registerKind: ObjCRegisterKind { get }
  /// The encoding's code reduced to one byte for signature checks on the send path (`q`, `d`,
  /// `@`, `^`...). Types that the C ABI passes the same way on this machine share a code.
  static var objcTypeCode: UInt8 { get }
  /// The value's bits as they go into the register.
  var registerBits: UInt64 { get }
  /// The value carried by a returned register, or nil when the bits do not make one (an object
  /// of another class, or nil for a non-optional object).
  ///
  /// Objects come back retained (+1), as IMPs return them; this function takes that reference.
  static func fromReturnedBits(_ bits: UInt64) -> Self?
}

// MARK: - Integers

extension Int: ObjCScalar {
  /// `q`, a 64-bit integer (`long` and `long long` on this machine).
  public static var objcTypeEncoding: String { "q" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `q`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "q") }
  /// The integer's two's-complement bits.
  @inlinable public var registerBits: UInt64 { UInt64(bitPattern: Int64(self)) }
  /// The integer in the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Int? {
    Int(Int64(bitPattern: bits))
  }
}

extension Int64: ObjCScalar {
  /// `q`, a 64-bit integer.
  public static var objcTypeEncoding: String { "q" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `q`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "q") }
  /// The integer's two's-complement bits.
  @inlinable public var registerBits: UInt64 { UInt64(bitPattern: self) }
  /// The integer in the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Int64? {
    Int64(bitPattern: bits)
  }
}

extension Int32: ObjCScalar {
  /// `i`, a 32-bit integer.
  public static var objcTypeEncoding: String { "i" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `i`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "i") }
  /// The integer, sign-extended.
  @inlinable public var registerBits: UInt64 { UInt64(bitPattern: Int64(self)) }
  /// The low 32 bits of the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Int32? {
    Int32(truncatingIfNeeded: bits)
  }
}

extension Int16: ObjCScalar {
  /// `s`, a 16-bit integer.
  public static var objcTypeEncoding: String { "s" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `s`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "s") }
  /// The integer, sign-extended.
  @inlinable public var registerBits: UInt64 { UInt64(bitPattern: Int64(self)) }
  /// The low 16 bits of the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Int16? {
    Int16(truncatingIfNeeded: bits)
  }
}

extension Int8: ObjCScalar {
  /// `c`, an 8-bit integer.
  public static var objcTypeEncoding: String { "c" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `c`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "c") }
  /// The integer, sign-extended.
  @inlinable public var registerBits: UInt64 { UInt64(bitPattern: Int64(self)) }
  /// The low 8 bits of the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Int8? {
    Int8(truncatingIfNeeded: bits)
  }
}

extension UInt: ObjCScalar {
  /// `Q`, an unsigned 64-bit integer.
  public static var objcTypeEncoding: String { "Q" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `Q`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "Q") }
  /// The integer's bits.
  @inlinable public var registerBits: UInt64 { UInt64(self) }
  /// The integer in the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> UInt? { UInt(bits) }
}

extension UInt64: ObjCScalar {
  /// `Q`, an unsigned 64-bit integer.
  public static var objcTypeEncoding: String { "Q" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `Q`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "Q") }
  /// The integer's bits.
  @inlinable public var registerBits: UInt64 { self }
  /// The integer in the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> UInt64? { bits }
}

extension UInt32: ObjCScalar {
  /// `I`, an unsigned 32-bit integer.
  public static var objcTypeEncoding: String { "I" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `I`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "I") }
  /// The integer, zero-extended.
  @inlinable public var registerBits: UInt64 { UInt64(self) }
  /// The low 32 bits of the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> UInt32? {
    UInt32(truncatingIfNeeded: bits)
  }
}

extension UInt16: ObjCScalar {
  /// `S`, an unsigned 16-bit integer.
  public static var objcTypeEncoding: String { "S" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `S`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "S") }
  /// The integer, zero-extended.
  @inlinable public var registerBits: UInt64 { UInt64(self) }
  /// The low 16 bits of the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> UInt16? {
    UInt16(truncatingIfNeeded: bits)
  }
}

extension UInt8: ObjCScalar {
  /// `C`, an unsigned 8-bit integer.
  public static var objcTypeEncoding: String { "C" }
  /// Integers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `C`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "C") }
  /// The integer, zero-extended.
  @inlinable public var registerBits: UInt64 { UInt64(self) }
  /// The low 8 bits of the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> UInt8? {
    UInt8(truncatingIfNeeded: bits)
  }
}

extension Bool: ObjCScalar {
  /// `B`, a C `bool`.
  public static var objcTypeEncoding: String { "B" }
  /// Booleans travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `B`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "B") }
  /// 1 or 0.
  @inlinable public var registerBits: UInt64 { self ? 1 : 0 }
  /// Whether the low byte of the register is non-zero (a C `bool` return defines only that byte).
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Bool? { bits & 0xFF != 0 }
}

// MARK: - Floating point

extension Double: ObjCScalar {
  /// `d`, a C `double`.
  public static var objcTypeEncoding: String { "d" }
  /// Doubles travel in floating-point registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .floatingPoint }
  /// `d`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "d") }
  /// The IEEE 754 bits.
  @inlinable public var registerBits: UInt64 { bitPattern }
  /// The double in the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Double? {
    Double(bitPattern: bits)
  }
}

extension Float: ObjCScalar {
  /// `f`, a C `float`.
  public static var objcTypeEncoding: String { "f" }
  /// Floats travel in floating-point registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .floatingPoint }
  /// `f`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "f") }
  /// The IEEE 754 bits in the low half of the register.
  @inlinable public var registerBits: UInt64 { UInt64(bitPattern) }
  /// The float in the low half of the register.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Float? {
    Float(bitPattern: UInt32(truncatingIfNeeded: bits))
  }
}

// MARK: - Pointers, selectors, objects

extension UnsafeRawPointer: ObjCScalar {
  /// `r^v`, a `const void *`.
  public static var objcTypeEncoding: String { "r^v" }
  /// Pointers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `^`, shared by every pointer.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "^") }
  /// The address.
  @inlinable public var registerBits: UInt64 { UInt64(UInt(bitPattern: self)) }
  /// The address in the register, nil when it is zero.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> UnsafeRawPointer? {
    UnsafeRawPointer(bitPattern: UInt(bits))
  }
}

extension UnsafeMutableRawPointer: ObjCScalar {
  /// `^v`, a `void *`.
  public static var objcTypeEncoding: String { "^v" }
  /// Pointers travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `^`, shared by every pointer.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: "^") }
  /// The address.
  @inlinable public var registerBits: UInt64 { UInt64(UInt(bitPattern: self)) }
  /// The address in the register, nil when it is zero.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> UnsafeMutableRawPointer? {
    UnsafeMutableRawPointer(bitPattern: UInt(bits))
  }
}

extension OpaquePointer: ObjCTypeEncodable {
  /// `^v`, a pointer to something the encoding does not describe.
  public static var objcTypeEncoding: String { "^v" }
}

extension UnsafePointer: ObjCTypeEncodable {
  /// `r^` and the pointee's encoding; `:` for `SEL`, the selector type of IMPs.
  public static var objcTypeEncoding: String {
    if Pointee.self == objc_selector.self { return ":" }
    return "r^" + pointeeEncoding(Pointee.self)
  }
}

extension UnsafeMutablePointer: ObjCTypeEncodable {
  /// `^` and the pointee's encoding; `@` for `id`, the object type of IMPs.
  public static var objcTypeEncoding: String {
    if Pointee.self == objc_object.self { return "@" }
    return "^" + pointeeEncoding(Pointee.self)
  }
}

/// The encoding of what a pointer points at, `v` when the runtime cannot describe it.
private func pointeeEncoding(_ type: Any.Type) -> String {
  objcTypeEncoding(of: type) ?? "v"
}

extension Selector: ObjCScalar {
  /// `:`, a selector.
  public static var objcTypeEncoding: String { ":" }
  /// Selectors travel in general-purpose registers.
  @inlinable public static var registerKind: ObjCRegisterKind { .general }
  /// `:`.
  @inlinable public static var objcTypeCode: UInt8 { UInt8(ascii: ":") }
  /// The address of the interned name.
  @inlinable public var registerBits: UInt64 { UInt64(UInt(bitPattern: interned.raw)) }
  /// The selector in the register, nil when it is zero.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Selector? {
    UnsafePointer<UInt8>(bitPattern: UInt(bits)).map {
      Selector(interned: InternedName(pointer: $0))
    }
  }
}

/// A type whose values a C call can carry as a null pointer: objects and pointers.
public protocol ObjCNullableScalar: ObjCScalar {}

extension UnsafeRawPointer: ObjCNullableScalar {}
extension UnsafeMutableRawPointer: ObjCNullableScalar {}
extension Selector: ObjCNullableScalar {}

extension Optional: ObjCTypeEncodable where Wrapped: ObjCTypeEncodable {
  /// The wrapped type's encoding: C does not tell a nullable pointer from another.
  public static var objcTypeEncoding: String { Wrapped.objcTypeEncoding }
}

extension Optional: ObjCScalar where Wrapped: ObjCNullableScalar {
  /// The wrapped type's register kind.
  @inlinable public static var registerKind: ObjCRegisterKind { Wrapped.registerKind }
  /// The wrapped type's code.
  @inlinable public static var objcTypeCode: UInt8 { Wrapped.objcTypeCode }
  /// The wrapped value's bits, zero for nil.
  @inlinable public var registerBits: UInt64 {
    switch self {
    case .some(let wrapped): wrapped.registerBits
    case .none: 0
    }
  }
  /// nil for zero, the wrapped value otherwise; `.none` (no value at all) when the bits make no
  /// wrapped value, such as an object of another class.
  @inlinable public static func fromReturnedBits(_ bits: UInt64) -> Wrapped?? {
    if bits == 0 { return .some(.none) }
    guard let wrapped = Wrapped.fromReturnedBits(bits) else { return .none }
    return .some(.some(wrapped))
  }
}
