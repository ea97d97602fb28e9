// The Swift face of a class's method cache and of the runtime's address maps (the C side lives in
// CObjCRuntime/MethodCache.c).
import CObjCRuntime
import Synchronization

/// A class's cache from selector to the `Method` a lookup found.
///
/// Lookups are lock-free and may run on any thread, and read at most two slots (two-choice
/// hashing, `CObjCRuntime.h`); inserts and flushes happen only under the runtime lock. The cache
/// stores Methods, not IMPs, so changing a Method's implementation needs no flush: every cached
/// entry reads the new IMP on its next send.
///
/// The current buffer's address lives in an atomic word right in the `Class` object, so a send
/// reaches the entries with two loads from the isa.
@usableFromInline
internal struct MethodCache: ~Copyable, Sendable {
  // Sendable: the word is atomic; the buffers it points at follow the C side's single-writer
  // protocol (see CObjCRuntime.h).
  @usableFromInline internal let bufferWord: Atomic<UInt>

  init() {
    bufferWord = Atomic(UInt(bitPattern: swk_cache_empty_buffer()))
  }

  /// How many caches were flushed in the process so far (for the tests that tell a flush from
  /// a lost entry, and key-value coding's resolutions). Not the C generation
  /// (``flushGeneration``) on purpose: this count moves before the emptied buffer is published,
  /// so a reader that found its entry gone sees it moved; the generation moves after, so a
  /// foreign cache that sees it moved finds the buffer empty.
  static let flushes = Atomic<Int>(0)

  /// The method cached for `selector`, unretained; lock-free.
  @inlinable @inline(__always)
  internal func lookup(_ selector: Selector) -> UnsafeRawPointer? {
    let buffer = UnsafePointer<swk_cache_buffer>(bitPattern: bufferWord.load(ordering: .acquiring))
    return swk_cache_lookup(buffer.unsafelyUnwrapped, selector.interned.raw)
  }

  /// How many slots a lookup of `selector` reads (1 when its first slot answers, else 2);
  /// lock-free.
  func probeLength(_ selector: Selector) -> Int {
    Int(swk_cache_probe_length(buffer, selector.interned.raw))
  }

  private var buffer: UnsafePointer<swk_cache_buffer> {
    UnsafePointer(bitPattern: bufferWord.load(ordering: .acquiring)).unsafelyUnwrapped
  }

  /// Caches `method` for `selector`; call with the runtime lock held.
  func insert(_ selector: Selector, _ method: Method) {
    Runtime.state.assertHeld()
    let value = UnsafeRawPointer(Unmanaged.passUnretained(method).toOpaque())
    // The C side reads the selector from the Method itself, at a fixed offset.
    MethodCache.checkSelectorOffset(value, selector)
    // Failing to grow leaves the cache as it was; the next send misses and looks up again.
    guard let next = swk_cache_insert(buffer, value) else { return }
    bufferWord.store(UInt(bitPattern: next), ordering: .releasing)
  }

  /// The word every flush increments (`swk_cache_note_flush`), for caches kept outside.
  static var flushGenerationAddress: UnsafePointer<UInt> {
    UnsafeRawPointer(swk_cache_flush_generation_address()).assumingMemoryBound(to: UInt.self)
  }

  /// The flush count now, read atomically (acquire).
  static var flushGeneration: UInt { UInt(swk_cache_flush_generation_load()) }

  /// Empties the cache; call with the runtime lock held. Returns whether anything was dropped.
  @discardableResult
  func flush() -> Bool {
    Runtime.state.assertHeld()
    MethodCache.flushes.add(1, ordering: .relaxed)
    let old = buffer
    bufferWord.store(UInt(bitPattern: swk_cache_empty_buffer()), ordering: .releasing)
    // After the empty buffer is published: a foreign cache that reads the new count then finds
    // the flushed cache empty, never an old method under the new count.
    swk_cache_note_flush()
    return swk_cache_retire(old) != 0
  }

  /// Whether the C side finds a Method's selector where Swift put it: the offset is a fact of
  /// Swift's object layout (two header words, then the first stored property), checked on the
  /// first insert of every process, and again on each one when internal checks are on.
  private static func checkSelectorOffset(_ method: UnsafeRawPointer, _ selector: Selector) {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      InternalChecks.require(
        swk_method_selector(method) == selector.interned.raw,
        "a Method's selector is not at SWK_METHOD_SELECTOR_OFFSET: the method cache cannot work")
    #else
      if !offsetChecked.load(ordering: .relaxed) {
        // Not input: a toolchain that laid Method out otherwise would make every send miss or
        // answer another method's, so this stops the process rather than go on wrong.
        precondition(
          swk_method_selector(method) == selector.interned.raw,
          "a Method's selector is not at SWK_METHOD_SELECTOR_OFFSET: the method cache cannot work")
        offsetChecked.store(true, ordering: .relaxed)
      }
    #endif
  }

  private static let offsetChecked = Atomic(false)
}

/// A lock-free map from an address to a pointer, only ever added to: the runtime's realized
/// classes by Swift type metadata, read by every object's init. Written under the runtime lock.
internal struct AddressMap: ~Copyable, Sendable {
  // Sendable: as MethodCache, the word is atomic and the buffers follow the single-writer rules.
  /// The buffer's address; zero until the first insert, for the empty map. A constant initial
  /// value lets a `static let` map be laid out when the program loads: with the empty buffer's
  /// address, which a C call returns, each read of the global first checked that it was made
  /// (`swift_once`, 9 instructions of every object's init).
  private let bufferWord: Atomic<UInt>

  init() {
    bufferWord = Atomic(0)
  }

  private var buffer: UnsafePointer<swk_map_buffer> {
    UnsafePointer(bitPattern: bufferWord.load(ordering: .acquiring)) ?? swk_map_empty_buffer()
  }

  /// The value for `key`, or nil; lock-free.
  @inline(__always)
  func lookup(_ key: UnsafeRawPointer) -> UnsafeRawPointer? {
    guard
      let buffer = UnsafePointer<swk_map_buffer>(bitPattern: bufferWord.load(ordering: .acquiring))
    else { return nil }
    return swk_map_lookup(buffer, key)
  }

  /// Adds `key -> value` (a key already there keeps its value); call with the runtime lock held.
  func insert(_ key: UnsafeRawPointer, _ value: UnsafeRawPointer) {
    Runtime.state.assertHeld()
    // Failing to grow leaves the map as it was; the next lookup misses and takes the slow path.
    guard let next = swk_map_insert(buffer, key, value) else { return }
    bufferWord.store(UInt(bitPattern: next), ordering: .releasing)
  }
}
