// The model's one rule about threads, checked where it can be: one thread at a time.
import Foundation
import ObjCRuntime
import Synchronization

/// Checks, in builds with `SWIZZLEKIT_INTERNAL_CHECKS`, that the model is used by one thread at
/// a time, as UIKit is used by the main thread: the run loop's advance is where a model's thread
/// does its work, and a second thread advancing while the first is inside is the race the rule
/// forbids. The same thread may advance again inside (a timer's block that advances); another
/// thread may advance once the first is out (the next test). Main-queue work runs while the
/// model's thread waits for it (``MainQueueHold``), which lends it the model meanwhile.
enum ModelThread {
  /// The thread inside an advance, 0 when none is.
  private static let owner = Atomic<UInt>(0)

  /// Notes that the calling thread advances the model; true when it was not inside already (it
  /// then calls ``leave(_:)`` with true).
  static func enter() -> Bool {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      let me = UInt(pthread_self())
      let (exchanged, inside) = owner.compareExchange(
        expected: 0, desired: me, ordering: .acquiringAndReleasing)
      if exchanged { return true }
      InternalChecks.require(
        inside == me,
        "the model's run loop advanced on two threads at once: use the model from one thread at"
          + " a time (VirtualRunLoop)")
    #endif
    return false
  }

  /// Notes that the thread that entered is out.
  static func leave(_ entered: Bool) {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      if entered { owner.store(0, ordering: .releasing) }
    #endif
  }

  /// Runs `body`, in which the model's thread waits for main-queue work, with the model lent to
  /// that work: it may advance the run loop (a helper that waits until idle), as a nested
  /// advance would on one thread.
  static func lend(_ body: () -> Void) {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      let me = UInt(pthread_self())
      let lent = owner.compareExchange(expected: me, desired: 0, ordering: .acquiringAndReleasing)
        .exchanged
      defer {
        if lent {
          let back = owner.compareExchange(
            expected: 0, desired: me, ordering: .acquiringAndReleasing)
          InternalChecks.require(
            back.exchanged,
            "the model's run loop was still advancing on another thread when main-queue work"
              + " gave it back: use the model from one thread at a time (VirtualRunLoop)")
        }
      }
    #endif
    body()
  }
}
