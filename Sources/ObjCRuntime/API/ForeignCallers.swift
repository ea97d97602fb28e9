// Doors for code that sends messages from outside Swift (the GNU Objective-C loader): the method a
// send runs, the word that holds its current implementation, and selector references that
// foreign code passes where a selector is expected.
import Synchronization

/// What a send looks up, for callers that are not Swift: code compiled by another compiler that
/// calls a method's function itself, as gcc's GNU-runtime code calls the function
/// `objc_msg_lookup` returns.
///
/// A typed send (`objc_msgSend`) checks the method's signature against the call's; a foreign
/// caller has no Swift signature to check, so these lookups return the method whatever its
/// encoding, and the caller is responsible for calling it with the right arguments.
public enum MessageLookup {
  /// The method a send of `selector` to `receiver` runs, found as a send finds it: the Swift
  /// entry points first, the receiver's class initialized (`+initialize`), the cache filled, and
  /// `+resolveInstanceMethod:` (or `+resolveClassMethod:`) asked once on a miss. Nil when nothing
  /// implements the selector, or its method has no implementation: the message must be forwarded.
  ///
  /// The method is returned unretained: a method lives as long as its class, which outlives its
  /// instances (see `objc_disposeClassPair(_:)`). The cache hit costs one probe, no lock.
  @inlinable
  public static func method(sending selector: Selector, to receiver: ObjCObject)
    -> Unmanaged<Method>?
  {
    if let hit = cachedMethod(sending: selector, to: receiver) {
      return hit
    }
    return slowMethod(
      sending: selector, to: receiver, from: receiver.isa.takeUnretainedValue(), .send)
  }

  /// The method the receiver's class's cache holds for `selector`, or nil when the cache does not
  /// hold it (the first send since a flush, a selector nothing implements, or one whose sends a
  /// tracer watches, which is never cached). One probe, no lock. A caller that keeps lookups of
  /// its own keeps only these, so that it never hides a send the runtime would have traced.
  @inlinable
  public static func cachedMethod(sending selector: Selector, to receiver: ObjCObject)
    -> Unmanaged<Method>?
  {
    receiver.isa._withUnsafeGuaranteedRef { $0.sendCache.lookup(selector) }
      .map { Unmanaged<Method>.fromOpaque($0) }
  }

  /// The method `[super selector]` runs from a method of `superclass`'s subclass: the lookup
  /// starts at `superclass`'s method tables (not at Swift entry points), as
  /// `objc_msgSendSuper(_:_:)` does. Nil when the message must be forwarded.
  public static func method(
    sendingSuper selector: Selector, to receiver: ObjCObject, startingAt superclass: Class
  ) -> Unmanaged<Method>? {
    let hit = superclass.tableCache.lookup(selector)
    if let hit {
      return Unmanaged<Method>.fromOpaque(hit)
    }
    return slowMethod(sending: selector, to: receiver, from: superclass, .table)
  }

  /// The address of a word the runtime increments on every method-cache flush (a method added,
  /// a category attached, a class's table or superclass changed...), after the emptied cache is
  /// published: a cache of lookups kept outside the runtime, which read the word before it looked
  /// up, stays valid while the word is unchanged. Read it with one atomic load (acquire
  /// ordering), as C code does; from Swift, ``flushGeneration`` reads it so. It never decreases.
  /// An exchange or `method_setImplementation` changes a method's implementation, not which
  /// method a send finds, and flushes nothing: call through ``Method/implementationWordAddress``.
  public static var flushGenerationAddress: UnsafePointer<UInt> {
    MethodCache.flushGenerationAddress
  }

  /// The word at ``flushGenerationAddress`` now, read atomically with acquire ordering (a plain
  /// `pointee` read races with the flushes of other threads).
  public static var flushGeneration: UInt { MethodCache.flushGeneration }

  @usableFromInline
  static func slowMethod(
    sending selector: Selector, to receiver: ObjCObject, from start: Class, _ mode: LookupMode
  ) -> Unmanaged<Method>? {
    guard let method = Dispatch.lookUpResolving(start, selector, mode, for: receiver),
      method.implementation != nil
    else { return nil }
    return Unmanaged.passUnretained(method)
  }
}

extension Method {
  /// The address of the word that holds the method's current implementation: the address of a
  /// C function, or zero while the method has none (its sends are forwarded).
  ///
  /// For code outside Swift that must always call what the method runs now, such as the stubs
  /// the GNU Objective-C loader puts between gcc's sends and methods: `method_setImplementation`
  /// and `method_exchangeImplementations` store into this word (with release ordering), so a
  /// stub that reads it on every call needs no update when the method is swizzled. Read it with
  /// one aligned pointer-sized load. The word lives as long as the method.
  public var implementationWordAddress: UnsafeRawPointer {
    let address =
      UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
      + Method.implementationWordOffset
    if !Method.implementationWordChecked.load(ordering: .acquiring) {
      // Not input: a toolchain that laid Method out otherwise would make foreign callers jump
      // through another word, so this stops the process rather than go on wrong. Read under the
      // runtime lock, which every change of the word holds, so that a concurrent exchange cannot
      // make the two reads differ.
      let same = Runtime.state.withLock { _ in
        address.load(as: UInt.self) == impWord.load(ordering: .acquiring)
      }
      precondition(same, "a Method's implementation is not one word after its selector")
      Method.implementationWordChecked.store(true, ordering: .releasing)
    }
    return address
  }

  /// Whether ``implementationWordAddress`` checked the layout once.
  private static let implementationWordChecked = Atomic(false)

  /// Two header words, the selector, then the implementation word (the stored properties'
  /// order in ``Method``).
  private static let implementationWordOffset = 3 * MemoryLayout<UInt>.size
}

/// Tables of selector references that code outside Swift passes where a selector is expected.
///
/// gcc's GNU-runtime code passes the address of an entry in its module's selector table as `_cmd`
/// and as `@selector(x)`; the loader writes the runtime's selector into each entry's first word.
/// Once a table is registered, every selector that enters the runtime as a `SEL`
/// (`Selector.init(_:)`: the C-level functions, IMPs that take a selector argument) is read
/// through the reference when it points into the table, so `respondsToSelector:@selector(x)`
/// works. Until a table is registered the check costs one relaxed load.
public enum SelectorReferenceTables {
  /// Registers `count` references of `stride` bytes from `base`; each begins with a word that
  /// the caller has already set to a selector of this runtime (`Selector.sel`). The memory must
  /// live as long as the process. Registering a table twice changes nothing; an empty table, a
  /// stride smaller than a pointer and a table that would pass the end of the address space are
  /// ignored.
  public static func register(base: UnsafeRawPointer, count: Int, stride: Int) {
    guard count > 0, stride >= MemoryLayout<UnsafeRawPointer>.size else { return }
    let start = UInt(bitPattern: base)
    let (size, tooMany) = UInt(count).multipliedReportingOverflow(by: UInt(stride))
    let (end, overflow) = start.addingReportingOverflow(size)
    guard !tooMany, !overflow else { return }
    let table = ReferenceTable(start: start, end: end, stride: UInt(stride))
    state.withLock { tables in
      guard !tables.contains(table) else { return }
      tables.append(table)
      // Retained for ever: a reader may still be walking an older snapshot.
      let snapshot = Unmanaged.passRetained(Snapshot(tables)).toOpaque()
      published.store(UInt(bitPattern: snapshot), ordering: .releasing)
    }
  }

  /// The selector `sel` stands for: itself, or the selector a registered reference holds.
  @inline(__always)
  internal static func canonical(_ sel: SEL) -> SEL {
    let word = published.load(ordering: .acquiring)
    guard let snapshot = UnsafeRawPointer(bitPattern: word) else { return sel }
    return Unmanaged<Snapshot>.fromOpaque(snapshot)._withUnsafeGuaranteedRef {
      resolve(sel, in: $0)
    }
  }

  private static func resolve(_ sel: SEL, in tables: Snapshot) -> SEL {
    let address = UInt(bitPattern: UnsafeRawPointer(sel))
    for table in tables.tables
    where address >= table.start && address < table.end
      && (address - table.start) % table.stride == 0
    {
      return UnsafeRawPointer(sel).load(as: SEL.self)
    }
    return sel
  }

  private struct ReferenceTable: Equatable {
    let start: UInt
    let end: UInt
    let stride: UInt
  }

  /// An immutable list of tables, replaced (never changed) when one is added; old lists are
  /// never freed, as a reader may still be walking one: with N tables registered, about N²/2
  /// entries of three words in all (a loaded module registers one).
  private final class Snapshot: Sendable {
    let tables: [ReferenceTable]
    init(_ tables: [ReferenceTable]) { self.tables = tables }
  }

  private static let state = Mutex<[ReferenceTable]>([])
  /// The newest snapshot's address, zero before the first table.
  private static let published = Atomic<UInt>(0)
}

/// What a direct call of ``IMP/forward`` does when forwarding fails.
///
/// A C function cannot throw, so when a direct call of objc4's `_objc_msgForward` (a swizzle's
/// kept "original", or a send from gcc's code to a selector nothing implements) ends in
/// `doesNotRecognizeSelector:`, the runtime stops the process by default, naming the method, as
/// objc4 raises. A host that runs foreign code installs a reporter instead: the failure is handed
/// to it and the call returns zero (nil, false), as a message to nil would.
public enum DirectForwardingFailures {
  /// Installs `reporter` for the rest of the process; the first installation wins and later ones
  /// are ignored. Returns whether `reporter` was installed.
  @discardableResult
  public static func install(
    _ reporter: @escaping @Sendable (ObjCRuntimeError) -> Void
  ) -> Bool {
    installed.withLock { current in
      guard current == nil else { return false }
      current = reporter
      return true
    }
  }

  internal static var reporter: (@Sendable (ObjCRuntimeError) -> Void)? {
    installed.withLock { $0 }
  }

  private static let installed = Mutex<(@Sendable (ObjCRuntimeError) -> Void)?>(nil)
}
