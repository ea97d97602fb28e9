// Selectors: interned method names, compared and hashed by address.

/// The name of a method, interned so that two selectors with the same name are the same pointer.
///
/// A selector is pointer-sized and compares and hashes by address, as `SEL` does in objc4. The
/// name it points at is registered once and lives as long as the process, so a selector can be
/// stored and passed between threads freely.
///
/// ```swift
/// let greet: Selector = "greet:"          // registers on first use
/// let same = sel_registerName("greet:")   // the same pointer
/// ```
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The interned name: a NUL-terminated UTF-8 string that is never freed.
  ///
  /// `@unchecked Sendable` is not needed on the struct because the pointer is wrapped in
  /// `InternedName`, which explains why sharing it is safe.
  @usableFromInline internal let interned: InternedName

  @inlinable internal init(interned: InternedName) {
    self.interned = interned
  }

  /// Registers `name` (or finds it registered) and returns its selector.
  ///
  /// Any name is accepted, as `sel_registerName` accepts any C string; the name ends at its first
  /// NUL character, as a C string would. Use ``init(validating:)`` to refuse names no method
  /// could have.
  public init(_ name: String) {
    self = SelectorTable.register(name)
  }

  /// Registers a selector written as a literal: `let s: Selector = "viewWillAppear:"`.
  public init(stringLiteral name: String) {
    self.init(name)
  }

  /// Registers `name` after checking that it is a usable method name.
  ///
  /// - Throws: ``ObjCRuntimeError/invalidSelectorName(_:reason:)`` when the name is empty, or
  ///   contains a NUL character, white space or a control character.
  public init(validating name: String) throws(ObjCRuntimeError) {
    if let reason = Selector.problem(with: name) {
      throw .invalidSelectorName(name, reason: reason)
    }
    self.init(name)
  }

  /// The selector's name.
  public var name: String {
    String(cString: interned.pointer)
  }

  /// The number of colons in the name: the number of arguments a method with this name is
  /// expected to take besides `self` and `_cmd`.
  public var colonCount: Int {
    var count = 0
    var cursor = interned.pointer
    while cursor.pointee != 0 {
      if cursor.pointee == UInt8(ascii: ":") { count += 1 }
      cursor += 1
    }
    return count
  }

  /// The selector's name.
  public var description: String { name }

  /// Hashes the selector's address, as `SEL`s hash in objc4.
  public func hash(into hasher: inout Hasher) { hasher.combine(interned.pointer) }

  /// The hash `Dictionary` and `Set` use: the address mixed with the table's seed by one
  /// multiply rather than SipHash (about 70 instructions, twice a message send), since every
  /// method table and cache lookup by selector pays it. Selectors are interned addresses, not
  /// input an adversary chooses, so nothing is lost.
  public func _rawHashValue(seed: Int) -> Int {
    AddressKey.mix(UInt(bitPattern: interned.pointer), seed: seed)
  }

  /// The selector as IMPs receive it (`_cmd`).
  public var sel: SEL {
    interned.sel
  }

  /// The selector an IMP received as `_cmd` or as an argument.
  ///
  /// A reference into a registered table of foreign code's selector references (gcc's
  /// `@selector(x)`: see ``SelectorReferenceTables``) stands for the selector it holds.
  ///
  /// - Precondition: `sel` came from this runtime (every `_cmd` does) or from a registered table.
  public init(_ sel: SEL) {
    self.interned = InternedName(sel: SelectorReferenceTables.canonical(sel))
  }

  /// Why this selector's name cannot name a method, or nil when it can; reads the interned bytes
  /// without making a `String` for the common ASCII case.
  internal var problem: String? {
    var cursor = interned.pointer
    if cursor.pointee == 0 { return Selector.problem(with: "") }
    while cursor.pointee != 0 {
      let byte = cursor.pointee
      if byte <= 0x20 || byte >= 0x7F { return Selector.problem(with: name) }
      cursor += 1
    }
    return nil
  }

  /// Why `name` cannot name a method, or nil when it can.
  internal static func problem(with name: String) -> String? {
    if name.isEmpty {
      return "a selector name cannot be empty"
    }
    var isASCII = true
    for byte in name.utf8 {
      switch byte {
      case 0: return "a selector name cannot contain a NUL character"
      case 0x09...0x0D, 0x20: return "a selector name cannot contain white space"
      case 0x01...0x1F, 0x7F: return "a selector name cannot contain a control character"
      case 0x80...: isASCII = false
      default: continue
      }
    }
    if isASCII { return nil }
    for scalar in name.unicodeScalars {
      if scalar.properties.isWhitespace {
        return "a selector name cannot contain white space"
      }
      if scalar.properties.generalCategory == .control {
        return "a selector name cannot contain a control character"
      }
    }
    return nil
  }
}
