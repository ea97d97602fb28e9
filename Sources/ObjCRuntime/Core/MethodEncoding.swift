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
