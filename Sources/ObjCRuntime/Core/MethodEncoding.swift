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
  /// What the return type describes.
  public let returnDescriptor: ObjCTypeDescriptor
  /// What each argument type describes, `self` and `_cmd` included.
  public let argumentDescriptors: [ObjCTypeDescriptor]

  /// Parses a method encoding.
  ///
  /// - Throws: ``ObjCRuntimeError/malformedTypeEncoding(_:position:expected:)`` naming the
  ///   character offset at which the encoding stops making sense.
  public init(parsing encoding: String) throws(ObjCRuntimeError) {
    var parser = TypeEncodingParser(encoding)
    guard !parser.atEnd else {
      throw .malformedTypeEncoding(encoding, position: 0, expected: "a return type")
    }
    var types: [(text: String, descriptor: ObjCTypeDescriptor)] = []
    while !parser.atEnd {
      types.append(try parser.parseDescribedType())
      parser.skipOffset()
    }
    returnType = types[0].text
    returnDescriptor = types[0].descriptor
    argumentTypes = types.dropFirst().map(\.text)
    argumentDescriptors = types.dropFirst().map(\.descriptor)
  }

  /// The argument types, `self` and `_cmd` dropped.
  public var explicitArgumentTypes: ArraySlice<String> {
    argumentTypes.dropFirst(2)
  }
}

/// What a type is, as far as a C call is concerned: the tree an encoding describes.
public indirect enum ObjCTypeDescriptor: Hashable, Sendable {
  /// `v`.
  case void
  /// An integer of `size` bytes (`c s i l q`, `C S I L Q`, and `B`, a one-byte unsigned value).
  case integer(size: Int, signed: Bool)
  /// `f`.
  case float
  /// `d`.
  case double
  /// Anything passed as an address: `*`, `@`, `#`, `:`, `^…`, `?`, `@?`.
  case pointer
  /// `{name=…}`: the fields, in order; `name` is kept for descriptions.
  case structure(name: String, fields: [ObjCTypeDescriptor])
  /// `[N…]`.
  case array(count: Int, element: ObjCTypeDescriptor)
  /// `(name=…)`.
  case union(name: String, members: [ObjCTypeDescriptor])
  /// `bN`, a bit field of N bits (inside structs only).
  case bitField(width: Int)
  /// `D` (long double) and the other codes no libffi call on this machine supports.
  case unsupported(String)

  /// The size in bytes, by the C ABI of this machine (x86-64 System V or AArch64 AAPCS, which
  /// agree on every type here). A parsed encoding is never larger than
  /// ``TypeEncodingLimits/maximumSize``; for a descriptor built by hand that would overflow,
  /// `Int.max`.
  public var size: Int { checkedSize ?? .max }

  /// The size in bytes, or nil when it does not fit an `Int`.
  internal var checkedSize: Int? { checkedLayout?.size }

  /// The size and alignment together, in one walk of the tree (size needs the fields'
  /// alignments: computed apart, nested structs would cost a walk per level), or nil when the
  /// size does not fit an `Int`.
  internal var checkedLayout: (size: Int, alignment: Int)? {
    switch self {
    case .void: return (0, 1)
    case .integer(let size, _): return (size, size)
    case .float: return (4, 4)
    case .double, .pointer: return (8, 8)
    case .structure(_, let fields):
      var offset = 0
      var alignment = 1
      for field in fields {
        guard let layout = field.checkedLayout,
          let aligned = ObjCTypeDescriptor.checkedAlign(offset, to: layout.alignment)
        else { return nil }
        let (end, overflow) = aligned.addingReportingOverflow(layout.size)
        guard !overflow else { return nil }
        offset = end
        alignment = Swift.max(alignment, layout.alignment)
      }
      return ObjCTypeDescriptor.checkedAlign(offset, to: alignment).map { ($0, alignment) }
    case .array(let count, let element):
      guard let layout = element.checkedLayout, count >= 0 else { return nil }
      let (total, overflow) = count.multipliedReportingOverflow(by: layout.size)
      return overflow ? nil : (total, layout.alignment)
    case .union(_, let members):
      var largest = 0
      var alignment = 1
      for member in members {
        guard let layout = member.checkedLayout else { return nil }
        largest = Swift.max(largest, layout.size)
        alignment = Swift.max(alignment, layout.alignment)
      }
      return ObjCTypeDescriptor.checkedAlign(largest, to: alignment).map { ($0, alignment) }
    case .bitField(let width):
      return width < 0 ? nil : (width / 8 + (width % 8 == 0 ? 0 : 1), 1)
    case .unsupported: return (16, 16)
    }
  }

  /// The alignment in bytes, by the C ABI of this machine.
  public var alignment: Int {
    switch self {
    case .void: return 1
    case .integer(let size, _): return size
    case .float: return 4
    case .double, .pointer: return 8
    case .structure(_, let fields): return fields.map(\.alignment).max() ?? 1
    case .array(_, let element): return element.alignment
    case .union(_, let members): return members.map(\.alignment).max() ?? 1
    case .bitField: return 1
    case .unsupported: return 16
    }
  }

  static func align(_ offset: Int, to alignment: Int) -> Int {
    checkedAlign(offset, to: alignment) ?? .max
  }

  /// `offset` rounded up to a multiple of `alignment`, or nil when that overflows.
  static func checkedAlign(_ offset: Int, to alignment: Int) -> Int? {
    guard alignment > 0 else { return offset }
    let (padded, overflow) = offset.addingReportingOverflow(alignment - 1)
    return overflow ? nil : padded / alignment * alignment
  }
}

/// The limits the encoding parser enforces. objc4 has none: its parser recurses once per nesting
/// level and computes sizes without checks, so a hostile encoding overflows its stack or its
/// arithmetic. Real encodings nest a few levels and describe types of a few hundred bytes.
public enum TypeEncodingLimits {
  /// The deepest nesting of pointers, arrays, structs and unions an encoding may have: 64.
  public static let maximumDepth = 64
  /// The largest type, in bytes, an encoding may describe: 2 GiB (a type passed by value is
  /// copied onto the stack; nothing near this size can be).
  public static let maximumSize = 1 << 31
}

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
