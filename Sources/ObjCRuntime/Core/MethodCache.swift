// The Swift face of a class's method cache (the C side lives in CObjCRuntime/MethodCache.c).
import CObjCRuntime

/// A class's cache from selector to the `Method` a lookup found.
///
/// Lookups are lock-free and may run on any thread; inserts and flushes happen only under the
/// runtime lock. The cache stores Methods, not IMPs, so changing a Method's implementation needs
/// no flush: every cached entry reads the new IMP on its next send.
@usableFromInline
internal struct MethodCache: @unchecked Sendable {
  // @unchecked Sendable: the C cache is built for one writer (holding the runtime lock) and any
  // number of lock-free readers; see CObjCRuntime.h for the protocol.
  @usableFromInline internal let storage: UnsafeMutablePointer<swk_cache>

  init() {
    guard let storage = swk_cache_create() else {
      fatalError("SwizzleKit: out of memory while creating a method cache")
    }
    self.storage = storage
  }

  /// The method cached for `selector`, unretained; lock-free.
  @inlinable @inline(__always)
  internal func lookup(_ selector: Selector) -> UnsafeRawPointer? {
    swk_cache_lookup(storage, selector.interned.raw)
  }

  /// Caches `method` for `selector`; call with the runtime lock held.
  func insert(_ selector: Selector, _ method: Method) {
    // Failing to grow leaves the cache as it was; the next send misses and looks up again.
    _ = swk_cache_insert(
      storage, selector.interned.raw, Unmanaged.passUnretained(method).toOpaque())
  }

  /// Empties the cache; call with the runtime lock held. Returns whether anything was dropped.
  @discardableResult
  func flush() -> Bool {
    swk_cache_flush(storage) != 0
  }

  /// The number of cached selectors; call with the runtime lock held.
  var count: Int { Int(swk_cache_count(storage)) }
}
