// The model's one rule about threads, checked where it can be: one thread at a time.
import Foundation
import ObjCRuntime
import Synchronization

/// Checks, in builds with `SWIZZLEKIT_INTERNAL_CHECKS`, that the model is used by one thread at
/// a time, as UIKit is used by the main thread: the run loop's advance is where a model's thread
/// does its work, and a second thread advancing while the first is inside is the race the rule
/// forbids. The same thread may advance again inside (a timer's block that advances). The model's
/// thread is the main thread (``MainThread``), where the main queue's work runs at the end of its
/// frames; advancing elsewhere is reported where the main thread runs the model's loop, and is
/// stopped here only when it overlaps an advance of another thread.
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
}
