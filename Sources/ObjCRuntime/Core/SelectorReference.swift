// `SelectorReference`: a selector in static storage, registered on first use, as clang's
// `@selector` slots are.
import Synchronization

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
