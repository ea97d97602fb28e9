// Signatures reduced for the send path: one word per signature (`SignatureCode`), and each
// encoding text parsed once (`ParsedSignature`).

/// Method signatures packed into one word so that a typed send can check, with one comparison,
/// that the method it found takes and returns what the call passes.
///
/// Byte 0 is the return type's code, bytes 1 to 6 the explicit arguments' codes, byte 7 the
/// number of explicit arguments. Codes are the encodings' first characters after qualifiers, with
/// the types the C ABI of this machine passes identically merged (`l` into `q`, `L` into `Q`, `#`
/// into `@`, `*` and every `^…` into `^`). A signature with a type that does not travel in one
/// register, or with more than six arguments, has code zero: no typed send matches it.
@usableFromInline
internal enum SignatureCode {
  @inlinable @inline(__always)
  static func pack(returning result: UInt8, arguments: UInt64, count: UInt64) -> UInt64 {
    UInt64(result) | (arguments << 8) | (count << 56)
  }

  static func make(for parsed: MethodEncoding) -> UInt64 {
    let explicit = Array(parsed.explicitArgumentTypes)
    guard parsed.argumentTypes.count >= 2, explicit.count <= 6,
      let result = code(of: parsed.returnType)
    else { return 0 }
    var arguments: UInt64 = 0
    for (position, type) in explicit.enumerated() {
      guard let argument = code(of: type), argument != UInt8(ascii: "v") else { return 0 }
      arguments |= UInt64(argument) << (8 * UInt64(position))
    }
    return pack(returning: result, arguments: arguments, count: UInt64(explicit.count))
  }

  /// The merged code of one type, or nil when it does not travel in one register.
  static func code(of type: String) -> UInt8? {
    guard let first = type.utf8.first(where: { !"rnNoORV".utf8.contains($0) }) else { return nil }
    switch first {
    case UInt8(ascii: "l"): return UInt8(ascii: "q")
    case UInt8(ascii: "L"): return UInt8(ascii: "Q")
    case UInt8(ascii: "#"): return UInt8(ascii: "@")
    case UInt8(ascii: "*"), UInt8(ascii: "^"): return UInt8(ascii: "^")
    case UInt8(ascii: "?"): return UInt8(ascii: "^")
    default:
      return "cisqCISQfdBv@:".utf8.contains(first) ? first : nil
    }
  }

  /// The encoding a typed call expects, for error messages: `q@:q`.
  static func describe(_ code: UInt64) -> String {
    let count = Int(code >> 56)
    var text = String(UnicodeScalar(UInt8(truncatingIfNeeded: code))) + "@:"
    for position in 0..<count {
      text.append(Character(UnicodeScalar(UInt8(truncatingIfNeeded: code >> (8 * (position + 1))))))
    }
    return text
  }
}

/// A parsed encoding and its signature code, shared by every method with the same encoding text.
internal final class ParsedSignature: Sendable {
  let text: String
  let encoding: MethodEncoding
  let code: UInt64

  private init(text: String, encoding: MethodEncoding) {
    self.text = text
    self.encoding = encoding
    self.code = SignatureCode.make(for: encoding)
  }

  /// Encodings repeat (a class list uses a handful), so each text is parsed once.
  private static let table = RuntimeLock<[String: ParsedSignature]>([:])

  /// The parsed form of `text`.
  static func of(_ text: String) throws(ObjCRuntimeError) -> ParsedSignature {
    if let known = table.withLock({ $0[text] }) {
      return known
    }
    let parsed = ParsedSignature(text: text, encoding: try MethodEncoding(parsing: text))
    return table.withLock { table in
      if let known = table[text] { return known }
      table[text] = parsed
      return parsed
    }
  }
}
