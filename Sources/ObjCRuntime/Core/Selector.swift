// Selectors: interned method names, compared and hashed by address.
import CObjCRuntime
import Synchronization

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
    self = SelectorTable.shared.register(name)
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

  /// The selector as IMPs receive it (`_cmd`).
  public var sel: SEL {
    interned.sel
  }

  /// The selector an IMP received as `_cmd`.
  ///
  /// - Precondition: `sel` came from this runtime (every `_cmd` does).
  public init(_ sel: SEL) {
    self.interned = InternedName(sel: sel)
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

/// The address of an interned selector name.
///
/// `@unchecked Sendable` is safe: the bytes it points at are written once, before the pointer is
/// published under the selector table's lock, and never changed or freed afterwards.
@usableFromInline
internal struct InternedName: Hashable, @unchecked Sendable {
  @usableFromInline internal let pointer: UnsafePointer<UInt8>

  @inlinable internal init(pointer: UnsafePointer<UInt8>) {
    self.pointer = pointer
  }

  @inlinable internal init(sel: SEL) {
    self.pointer = UnsafeRawPointer(sel).assumingMemoryBound(to: UInt8.self)
  }

  @inlinable internal var sel: SEL {
    UnsafeRawPointer(pointer).assumingMemoryBound(to: objc_selector.self)
  }

  @inlinable internal var raw: UnsafeRawPointer {
    UnsafeRawPointer(pointer)
  }
}

/// The process-wide table of selector names.
internal final class SelectorTable: Sendable {
  static let shared = SelectorTable()

  private let names = RuntimeLock<[String: InternedName]>([:])

  func register(_ name: String) -> Selector {
    // A C string ends at its first NUL, so a name with an embedded NUL is the prefix before it.
    let cName = name.utf8.firstIndex(of: 0).map { String(name[..<$0]) } ?? name
    let interned = names.withLock { table -> InternedName in
      if let existing = table[cName] {
        return existing
      }
      let count = cName.utf8.count
      let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: count + 1)
      var written = 0
      for byte in cName.utf8 {
        storage[written] = byte
        written += 1
      }
      storage[count] = 0
      let interned = InternedName(pointer: UnsafePointer(storage))
      table[cName] = interned
      return interned
    }
    return Selector(interned: interned)
  }
}

/// A selector kept in static storage and registered on first use: the analogue of what clang
/// emits for `@selector(name)`, a slot in the image's `__objc_selrefs` section that the runtime
/// fills with the registered selector.
///
/// A `static let` of type `Selector` is made lazily, and Swift on Linux calls `swift_once` on
/// every access to such a global to check that it was: about 11 instructions, a third of a
/// whole message send. A `SelectorReference` is a constant that Swift lays out in the image
/// itself, so reading its selector is one load and a test:
///
/// ```swift
/// private enum Selectors {
///   static let setHidden = SelectorReference("setHidden:")
/// }
/// // in a hot Swift entry point, which passes the reference itself:
/// sendToTableReportingFailure(Selectors.setHidden, newValue)
/// ```
///
/// Declare references as `static let` or global `let`s; a reference made anywhere else registers
/// its name again each time it is made. The reference cannot be copied, since a copy would have a
/// slot of its own to fill.
public struct SelectorReference: ~Copyable, Sendable {
  /// The name, registered on first use.
  @usableFromInline internal let name: StaticString
  /// The address of the interned name, or 0 until the first use registers it.
  @usableFromInline internal let slot: Atomic<UInt>

  /// A reference to the selector `name`, registered when first read.
  @inlinable public init(_ name: StaticString) {
    self.name = name
    slot = Atomic(0)
  }

  /// The selector: registered on the first read, then read from the slot.
  @inlinable public var selector: Selector {
    @inline(__always) get {
      // Acquiring: the interned bytes were written before the slot was published.
      let address = slot.load(ordering: .acquiring)
      if let pointer = UnsafePointer<UInt8>(bitPattern: address) {
        return Selector(interned: InternedName(pointer: pointer))
      }
      return register()
    }
  }

  /// The selector if a read registered it already, else nil; never registers. What the forms of
  /// `sendToTable` that take a reference read inline.
  @inlinable public var registeredSelector: Selector? {
    @inline(__always) get {
      UnsafePointer<UInt8>(bitPattern: slot.load(ordering: .acquiring)).map {
        Selector(interned: InternedName(pointer: $0))
      }
    }
  }

  /// Registers the name and publishes it in the slot. Two threads may both get here; they
  /// register the same name, so they store the same address.
  @usableFromInline @inline(never)
  internal func register() -> Selector {
    let selector = Selector(name.description)
    slot.store(UInt(bitPattern: selector.interned.pointer), ordering: .releasing)
    return selector
  }
}
