// Calling an IMP whose every value travels in one register, without libffi.

/// The register shape of a signature whose every value travels in one register (scalars,
/// pointers, objects; up to six explicit arguments): how many explicit arguments, which of them
/// go in floating-point registers, how narrow integers widen, and the result's register kind.
///
/// A call through a shape casts the IMP to the C function type of that shape, which costs a
/// fraction of `ffi_call`'s classification of each argument. `Invocation` and `Interceptor` use it.
@usableFromInline
internal struct RegisterShape: Sendable {
  /// The number of explicit arguments.
  let count: Int
  /// A bit per explicit argument, set when it travels in a floating-point register.
  let floatingMask: UInt8
  /// The result's register kind.
  let result: ObjCRegisterKind
  /// How each explicit argument's word is widened: one `Widening` raw value per argument, four
  /// bits each, packed so that a call reads no array.
  let widening: UInt32

  /// The shape of `signature`, or nil when a value does not fit a register.
  init?(_ signature: MethodSignature) {
    guard signature.signatureCode != 0 else { return nil }
    let explicit = signature.encoding.explicitArgumentTypes
    guard explicit.count <= 6 else { return nil }
    var mask: UInt8 = 0
    var packed: UInt32 = 0
    for (position, type) in explicit.enumerated() {
      let code = SignatureCode.code(of: type)
      if RegisterShape.kind(code) == .floatingPoint { mask |= 1 << UInt8(position) }
      packed |= UInt32(Widening(code: code).rawValue) << (4 * UInt32(position))
    }
    count = explicit.count
    floatingMask = mask
    widening = packed
    result = RegisterShape.kind(SignatureCode.code(of: signature.methodReturnType))
  }

  /// How many explicit arguments travel in general-purpose registers.
  var generalCount: Int { count - floatingMask.nonzeroBitCount }
  /// How many explicit arguments travel in floating-point registers.
  var floatingCount: Int { floatingMask.nonzeroBitCount }

  private static func kind(_ code: UInt8?) -> ObjCRegisterKind {
    switch code {
    case UInt8(ascii: "f"), UInt8(ascii: "d"): .floatingPoint
    default: .general
    }
  }

  /// The register kind of explicit argument `position`.
  @inline(__always)
  func kind(_ position: Int) -> ObjCRegisterKind {
    floatingMask & (1 << UInt8(position)) == 0 ? .general : .floatingPoint
  }

  /// `raw` (explicit argument `position`'s bits) widened to its register.
  @inline(__always)
  func widen(_ raw: UInt64, at position: Int) -> UInt64 {
    guard widening != 0 else { return raw }
    let rule = Widening(rawValue: UInt8((widening >> (4 * UInt32(position))) & 0xF))
    return rule.unsafelyUnwrapped.widen(raw)
  }

  /// Calls `imp` with `self`, `_cmd` and the explicit arguments read from `arguments` (one
  /// pointer per argument, `self` and `_cmd` included), each widened to its register; returns
  /// the result register's bits.
  @inline(__always)
  func call(_ imp: UnsafeRawPointer, _ arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>)
    -> UInt64
  {
    let receiver = arguments[0].unsafelyUnwrapped.load(as: id.self)
    let sel = arguments[1].unsafelyUnwrapped.load(as: SEL.self)
    @inline(__always) func word(_ position: Int) -> UInt64 {
      widen(arguments[position + 2].unsafelyUnwrapped.load(as: UInt64.self), at: position)
    }
    switch count {
    case 0: return callIMP0(imp, receiver, sel, result)
    case 1: return callIMP1(imp, receiver, sel, kind(0), word(0), result)
    case 2: return callIMP2(imp, receiver, sel, kind(0), word(0), kind(1), word(1), result)
    case 3:
      return callIMP3(
        imp, receiver, sel, kind(0), word(0), kind(1), word(1), kind(2), word(2), result)
    case 4:
      return callIMP4(
        imp, receiver, sel, kind(0), word(0), kind(1), word(1), kind(2), word(2), kind(3),
        word(3), result)
    case 5:
      return callIMP5(
        imp, receiver, sel, kind(0), word(0), kind(1), word(1), kind(2), word(2), kind(3),
        word(3), kind(4), word(4), result)
    default:
      return callIMP6(
        imp, receiver, sel, kind(0), word(0), kind(1), word(1), kind(2), word(2), kind(3),
        word(3), kind(4), word(4), kind(5), word(5), result)
    }
  }
}

/// How a narrow integer written in its own width becomes a register word: a C caller extends
/// narrow arguments to the register's width, and compiled callees may rely on it.
internal enum Widening: UInt8 {
  case none, signed8, signed16, signed32, unsigned8, unsigned16, unsigned32

  init(code: UInt8?) {
    switch code {
    case UInt8(ascii: "c"): self = .signed8
    case UInt8(ascii: "s"): self = .signed16
    case UInt8(ascii: "i"): self = .signed32
    case UInt8(ascii: "C"), UInt8(ascii: "B"): self = .unsigned8
    case UInt8(ascii: "S"): self = .unsigned16
    case UInt8(ascii: "I"), UInt8(ascii: "f"): self = .unsigned32
    default: self = .none
    }
  }

  @inline(__always)
  func widen(_ raw: UInt64) -> UInt64 {
    switch self {
    case .none: raw
    case .signed8: UInt64(bitPattern: Int64(Int8(truncatingIfNeeded: raw)))
    case .signed16: UInt64(bitPattern: Int64(Int16(truncatingIfNeeded: raw)))
    case .signed32: UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: raw)))
    case .unsigned8: raw & 0xFF
    case .unsigned16: raw & 0xFFFF
    case .unsigned32: raw & 0xFFFF_FFFF
    }
  }
}
