// The lock that guards the runtime's shared tables.
import CObjCRuntime

/// A value guarded by a lock, with the shape of `Synchronization.Mutex`.
///
/// The runtime's tables use it, and so may code built on the runtime (the hook framework,
/// plugins) that wants its locking checked by ThreadSanitizer. The runtime uses this instead of `Mutex` so that ThreadSanitizer can check it: the standard
/// library is not built with TSan, so TSan cannot see `Mutex`'s synchronization and reports every
/// access it guards as a race, hiding real ones. The lock word (a futex, see `CObjCRuntime.h`)
/// lives in memory of its own, since a futex needs a stable address.
///
/// Guard a value of non-zero size: ThreadSanitizer instruments each access to `value` at its
/// address, and a zero-size value (`Void`) has the object's own address, where other threads
/// read the object's header before they take the lock; TSan then reports a race that is none.
///
/// `@unchecked Sendable`: `value` is read and written only between acquire and release of the
/// lock, which orders every access.
public final class RuntimeLock<Value>: @unchecked Sendable {
  @usableFromInline internal let word: UnsafeMutablePointer<swk_lock>
  // Unchecked exclusivity: the lock already serializes every access, so the dynamic check of
  // each `inout` access to a class property would only cost time.
  @usableFromInline @exclusivity(unchecked) internal var value: Value
  /// The thread holding the lock, kept only by builds with `SWIZZLEKIT_INTERNAL_CHECKS`, for
  /// ``assertHeld()``; zero otherwise.
  @usableFromInline @exclusivity(unchecked) internal var holder: UInt = 0

  /// A lock guarding `value`.
  public init(_ value: Value) {
    word = .allocate(capacity: 1)
    word.initialize(to: swk_lock(state: 0))
    self.value = value
  }

  deinit {
    word.deinitialize(count: 1)
    word.deallocate()
  }

  /// Runs `body` with exclusive access to the value. The lock is not recursive: `body` must not
  /// take it again.
  @inlinable
  public func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    swk_lock_acquire(word)
    defer { swk_lock_release(word) }
    #if SWIZZLEKIT_INTERNAL_CHECKS
      // Cleared before the release above runs (defers run last first).
      holder = CurrentThread.identifier
      defer { holder = 0 }
    #endif
    return try body(&value)
  }

  /// In builds with `SWIZZLEKIT_INTERNAL_CHECKS`, stops the process unless the calling thread
  /// holds the lock, as objc4's `lockdebug` asserts its `runtimeLock` (functions that must be
  /// called under the lock say so this way); elsewhere nothing.
  @inlinable @inline(__always)
  public func assertHeld(_ function: StaticString = #function) {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      InternalChecks.require(holder == CurrentThread.identifier, "\(function) requires the lock")
    #endif
  }
}

/// The calling thread, as a number: what the locks, `+initialize`'s bookkeeping and key-value
/// observing compare to tell threads apart (the C helper reads the thread pointer, one
/// instruction).
@usableFromInline
package enum CurrentThread {
  @inlinable @inline(__always)
  package static var identifier: UInt { UInt(swk_thread_id()) }
}
