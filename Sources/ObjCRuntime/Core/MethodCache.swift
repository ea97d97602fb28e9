// The Swift face of a class's method cache (the C side lives in CObjCRuntime/MethodCache.c).
import CObjCRuntime
import Synchronization

/// A class's cache from selector to the `Method` a lookup found.
///
/// Lookups are lock-free and may run on any thread; inserts and flushes happen only under the
/// runtime lock. The cache stores Methods, not IMPs, so changing a Method's implementation needs
/// no flush: every cached entry reads the new IMP on its next send.
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

  /// The method cached for `selector`, unretained; lock-free.
  @inlinable @inline(__always)
  internal func lookup(_ selector: Selector) -> UnsafeRawPointer? {
    let buffer = UnsafePointer<swk_cache_buffer>(bitPattern: bufferWord.load(ordering: .acquiring))
    return swk_cache_lookup(buffer.unsafelyUnwrapped, selector.interned.raw)
  }

  private var buffer: UnsafePointer<swk_cache_buffer> {
    UnsafePointer(bitPattern: bufferWord.load(ordering: .acquiring)).unsafelyUnwrapped
  }

  /// The value cached under an arbitrary address key (the class table uses type metadata).
  @inline(__always)
  func lookup(address key: UnsafeRawPointer) -> UnsafeRawPointer? {
    let buffer = UnsafePointer<swk_cache_buffer>(bitPattern: bufferWord.load(ordering: .acquiring))
    return swk_cache_lookup(buffer.unsafelyUnwrapped, key)
  }

  /// Caches `value` under an address key; call with the runtime lock held.
  func insert(address key: UnsafeRawPointer, _ value: UnsafeRawPointer) {
    guard let next = swk_cache_insert(buffer, key, value) else { return }
    bufferWord.store(UInt(bitPattern: next), ordering: .releasing)
  }

  /// Caches `method` for `selector`; call with the runtime lock held.
  func insert(_ selector: Selector, _ method: Method) {
    let value = Unmanaged.passUnretained(method).toOpaque()
    // Failing to grow leaves the cache as it was; the next send misses and looks up again.
    guard let next = swk_cache_insert(buffer, selector.interned.raw, value) else { return }
    bufferWord.store(UInt(bitPattern: next), ordering: .releasing)
  }

  /// Empties the cache; call with the runtime lock held. Returns whether anything was dropped.
  @discardableResult
  func flush() -> Bool {
    let old = buffer
    bufferWord.store(UInt(bitPattern: swk_cache_empty_buffer()), ordering: .releasing)
    return swk_cache_retire(old) != 0
  }

}
