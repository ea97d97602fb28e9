// Parsing method type encodings (`i16@0:8`, `v@:@`) into their return and argument types.

/// A method's type encoding split into its return type and argument types.
///
/// Each element keeps its qualifiers (`r`, `n`, `N`, `o`, `O`, `R`, `V`) and drops its
/// stack-offset digits, as `method_getReturnType` and `method_getArgumentType` report them.
public struct MethodEncoding: Equatable, Sendable {
  /// The return type's encoding.
  public let returnType: String
  /// The argument types' encodings, `self` and `_cmd` included.
  public let argumentTypes: [String]

  /// Parses a method encoding.
  ///
  /// - Throws: ``ObjCRuntimeError/malformedTypeEncoding(_:position:expected:)`` naming the
  ///   character offset at which the encoding stops making sense.
  public init(parsing encoding: String) throws(ObjCRuntimeError) {
    var parser = TypeEncodingParser(encoding)
    guard !parser.atEnd else {
      throw .malformedTypeEncoding(encoding, position: 0, expected: "a return type")
    }
    var types: [String] = []
    while !parser.atEnd {
      types.append(try parser.parseType())
      parser.skipOffset()
    }
    returnType = types[0]
    argumentTypes = Array(types.dropFirst())
  }

  /// The argument types, `self` and `_cmd` dropped.
  public var explicitArgumentTypes: ArraySlice<String> {
    argumentTypes.dropFirst(2)
  }
}

/// A cursor over an encoding's bytes that reads one type at a time.
internal struct TypeEncodingParser {
  private let text: String
  private let bytes: [UInt8]
  private var index = 0

  init(_ text: String) {
    self.text = text
    self.bytes = Array(text.utf8)
  }

  var atEnd: Bool { index >= bytes.count }

  private static let scalarCodes = Set("cislqCISLQfdBv*#:?DjAT".utf8)
  private static let qualifiers = Set("rnNoORV".utf8)

  /// Reads one complete type and returns its text.
  mutating func parseType() throws(ObjCRuntimeError) -> String {
    let start = index
    while !atEnd, TypeEncodingParser.qualifiers.contains(bytes[index]) {
      index += 1
    }
    try parseUnqualifiedType()
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// Skips the stack-offset digits that compilers append to each type (`-8` is possible too).
  mutating func skipOffset() {
    if !atEnd, bytes[index] == UInt8(ascii: "-") { index += 1 }
    while !atEnd, isDigit(bytes[index]) { index += 1 }
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private func failure(_ expected: String) -> ObjCRuntimeError {
    .malformedTypeEncoding(text, position: index, expected: expected)
  }

  private mutating func parseUnqualifiedType() throws(ObjCRuntimeError) {
    guard !atEnd else { throw failure("a type") }
    let code = bytes[index]
    index += 1
    switch code {
    case UInt8(ascii: "@"):
      parseObjectSuffix()
    case UInt8(ascii: "^"):
      try parseUnqualifiedTypeAfterQualifiers()
    case UInt8(ascii: "b"):
      try parseCount("the width of a bit field")
    case UInt8(ascii: "["):
      try parseCount("the element count of an array")
      try parseUnqualifiedTypeAfterQualifiers()
      try expect(UInt8(ascii: "]"), "']' to close the array")
    case UInt8(ascii: "{"):
      try parseAggregate(closing: UInt8(ascii: "}"), kind: "struct")
    case UInt8(ascii: "("):
      try parseAggregate(closing: UInt8(ascii: ")"), kind: "union")
    default:
      guard TypeEncodingParser.scalarCodes.contains(code) else {
        index -= 1
        throw failure("a type code (one of c i s l q C I S L Q f d B v * @ # : ^ ? [ { ( b)")
      }
    }
  }

  private mutating func parseUnqualifiedTypeAfterQualifiers() throws(ObjCRuntimeError) {
    while !atEnd, TypeEncodingParser.qualifiers.contains(bytes[index]) {
      index += 1
    }
    try parseUnqualifiedType()
  }

  /// `@?` (a block) and `@"ClassName"` (a typed object) extend `@`.
  private mutating func parseObjectSuffix() {
    guard !atEnd else { return }
    if bytes[index] == UInt8(ascii: "?") {
      index += 1
    } else if bytes[index] == UInt8(ascii: "\""),
      let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\""))
    {
      index = close + 1
    }
  }

  private mutating func parseCount(_ what: String) throws(ObjCRuntimeError) {
    let start = index
    while !atEnd, isDigit(bytes[index]) { index += 1 }
    guard index > start else { throw failure(what) }
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(ObjCRuntimeError) {
    guard !atEnd, bytes[index] == byte else { throw failure(what) }
    index += 1
  }

  /// `{name=types}`, `{name}`, `{?=types}`, and the same with parentheses for unions.
  private mutating func parseAggregate(closing: UInt8, kind: String) throws(ObjCRuntimeError) {
    while !atEnd, bytes[index] != UInt8(ascii: "="), bytes[index] != closing {
      let byte = bytes[index]
      guard byte != UInt8(ascii: "{"), byte != UInt8(ascii: "("), byte != UInt8(ascii: "}"),
        byte != UInt8(ascii: ")")
      else {
        throw failure("the name of a \(kind), then '=' or its closing bracket")
      }
      index += 1
    }
    guard !atEnd else { throw failure("'=' or the closing bracket of a \(kind)") }
    if bytes[index] == UInt8(ascii: "=") {
      index += 1
      while !atEnd, bytes[index] != closing {
        if bytes[index] == UInt8(ascii: "\"") {
          // A field name, as in {CGPoint="x"d"y"d}.
          guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")) else {
            throw failure("'\"' to close a field name")
          }
          index = close + 1
          continue
        }
        _ = try parseType()
      }
    }
    try expect(closing, "the closing bracket of a \(kind)")
  }
}

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
