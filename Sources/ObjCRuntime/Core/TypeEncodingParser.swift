// The parser of type encodings: a cursor that reads one type at a time.

/// A cursor over an encoding's bytes that reads one type at a time.
internal struct TypeEncodingParser {
  private let text: String
  private let bytes: [UInt8]
  private var index = 0
  /// How many pointers, arrays, structs and unions enclose the type being read.
  private var depth = 0

  init(_ text: String) {
    self.text = text
    self.bytes = Array(text.utf8)
  }

  var atEnd: Bool { index >= bytes.count }

  private static let qualifiers = Set("rnNoORV".utf8)

  /// Reads one complete type and returns its text.
  mutating func parseType() throws(ObjCRuntimeError) -> String {
    try parseDescribedType().text
  }

  /// Reads one complete type and returns its text and what it describes.
  mutating func parseDescribedType() throws(ObjCRuntimeError)
    -> (text: String, descriptor: ObjCTypeDescriptor)
  {
    let start = index
    skipQualifiers()
    let descriptor = try parseUnqualifiedType()
    return (String(decoding: bytes[start..<index], as: UTF8.self), descriptor)
  }

  /// Skips the stack-offset digits that compilers append to each type (`-8` is possible too).
  mutating func skipOffset() {
    if !atEnd, bytes[index] == UInt8(ascii: "-") { index += 1 }
    while !atEnd, isDigit(bytes[index]) { index += 1 }
  }

  private mutating func skipQualifiers() {
    while !atEnd, TypeEncodingParser.qualifiers.contains(bytes[index]) {
      index += 1
    }
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private func failure(_ expected: String) -> ObjCRuntimeError {
    .malformedTypeEncoding(text, position: index, expected: expected)
  }

  private mutating func parseUnqualifiedType() throws(ObjCRuntimeError) -> ObjCTypeDescriptor {
    guard !atEnd else { throw failure("a type") }
    let code = bytes[index]
    if code == UInt8(ascii: "^") || code == UInt8(ascii: "[") || code == UInt8(ascii: "{")
      || code == UInt8(ascii: "(")
    {
      // The parser recurses once per level: bound the depth so that no input can exhaust the
      // stack, and check the size of what the level describes.
      guard depth < TypeEncodingLimits.maximumDepth else {
        throw failure(
          "at most \(TypeEncodingLimits.maximumDepth) levels of nested pointers, arrays, structs"
            + " and unions (SwizzleKit's limit; objc4 has none)")
      }
      depth += 1
      defer { depth -= 1 }
      let start = index
      let described = try parseCompound(code)
      guard let size = described.checkedSize, size <= TypeEncodingLimits.maximumSize else {
        index = start
        throw failure("a type of at most \(TypeEncodingLimits.maximumSize) bytes")
      }
      return described
    }
    index += 1
    switch code {
    case UInt8(ascii: "v"): return .void
    case UInt8(ascii: "c"): return .integer(size: 1, signed: true)
    case UInt8(ascii: "s"): return .integer(size: 2, signed: true)
    case UInt8(ascii: "i"): return .integer(size: 4, signed: true)
    case UInt8(ascii: "l"), UInt8(ascii: "q"): return .integer(size: 8, signed: true)
    case UInt8(ascii: "C"), UInt8(ascii: "B"): return .integer(size: 1, signed: false)
    case UInt8(ascii: "S"): return .integer(size: 2, signed: false)
    case UInt8(ascii: "I"): return .integer(size: 4, signed: false)
    case UInt8(ascii: "L"), UInt8(ascii: "Q"): return .integer(size: 8, signed: false)
    case UInt8(ascii: "f"): return .float
    case UInt8(ascii: "d"): return .double
    case UInt8(ascii: "*"), UInt8(ascii: "#"), UInt8(ascii: ":"), UInt8(ascii: "?"):
      return .pointer
    case UInt8(ascii: "D"), UInt8(ascii: "j"), UInt8(ascii: "A"), UInt8(ascii: "T"):
      return .unsupported(String(UnicodeScalar(code)))
    case UInt8(ascii: "@"):
      parseObjectSuffix()
      return .pointer
    case UInt8(ascii: "b"):
      return .bitField(width: try parseCount("the width of a bit field"))
    default:
      index -= 1
      throw failure("a type code (one of c i s l q C I S L Q f d B v * @ # : ^ ? [ { ( b)")
    }
  }

  /// A pointer, array, struct or union, whose code is at `index`.
  private mutating func parseCompound(_ code: UInt8) throws(ObjCRuntimeError)
    -> ObjCTypeDescriptor
  {
    index += 1
    switch code {
    case UInt8(ascii: "^"):
      skipQualifiers()
      _ = try parseUnqualifiedType()
      return .pointer
    case UInt8(ascii: "["):
      let count = try parseCount("the element count of an array")
      skipQualifiers()
      let element = try parseUnqualifiedType()
      try expect(UInt8(ascii: "]"), "']' to close the array")
      return .array(count: count, element: element)
    case UInt8(ascii: "{"):
      let (name, fields) = try parseAggregate(closing: UInt8(ascii: "}"), kind: "struct")
      return .structure(name: name, fields: fields)
    default:
      let (name, members) = try parseAggregate(closing: UInt8(ascii: ")"), kind: "union")
      return .union(name: name, members: members)
    }
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

  private mutating func parseCount(_ what: String) throws(ObjCRuntimeError) -> Int {
    let start = index
    var value = 0
    while !atEnd, isDigit(bytes[index]) {
      let (product, overflow) = value.multipliedReportingOverflow(by: 10)
      guard !overflow, product <= 1 << 24 else { throw failure("a smaller \(what)") }
      value = product + Int(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    guard index > start else { throw failure(what) }
    return value
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(ObjCRuntimeError) {
    guard !atEnd, bytes[index] == byte else { throw failure(what) }
    index += 1
  }

  /// `{name=types}`, `{name}`, `{?=types}`, and the same with parentheses for unions.
  private mutating func parseAggregate(closing: UInt8, kind: String) throws(ObjCRuntimeError)
    -> (String, [ObjCTypeDescriptor])
  {
    let nameStart = index
    while !atEnd, bytes[index] != UInt8(ascii: "="), bytes[index] != closing {
      let byte = bytes[index]
      guard byte != UInt8(ascii: "{"), byte != UInt8(ascii: "("), byte != UInt8(ascii: "}"),
        byte != UInt8(ascii: ")")
      else {
        throw failure("the name of a \(kind), then '=' or its closing bracket")
      }
      index += 1
    }
    let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
    guard !atEnd else { throw failure("'=' or the closing bracket of a \(kind)") }
    var members: [ObjCTypeDescriptor] = []
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
        members.append(try parseDescribedType().descriptor)
      }
    }
    try expect(closing, "the closing bracket of a \(kind)")
    return (name, members)
  }
}
