// Dispatch's main queue, held while the model runs and let through at the end of each turn: the
// deferred UI work of iOS code (`DispatchQueue.main.async`, `Task { @MainActor in ... }`) runs
// between turns of the model's run loop, never beside it.
//
// On iOS the main queue is drained by the main thread, where UIKit runs, between turns of the
// main run loop. In a Linux test the model runs on a test's thread and the process's main thread
// drains the queue whenever it likes: the same code raced the model (issue #31). A hold puts a
// block on the main queue that waits; the queue is serial, so nothing sent after it runs until
// the model lets it go at the end of a turn, when the block moves itself to the back of the
// queue and the work sent before it runs.
import Dispatch
import Foundation
import ObjCRuntime
import Synchronization

/// Holds Dispatch's main queue for the model: the `.uiKitModel` trait of the testing library
/// holds it around each test, and the run loop lets the queue's work through at the end of
/// each turn (``VirtualRunLoop``).
///
/// Work sent to the main queue while the queue is held (`DispatchQueue.main.async`, and the main
/// actor's jobs, which Swift runs on the main queue on Linux) runs at the end of the run loop's
/// next turn, in the order it was sent, while the model waits; work it sends in turn waits for
/// the turn after. Work sent with `asyncAfter` reaches the queue when its deadline passes on the
/// real clock, and then runs at the end of a turn.
///
/// A hold is not taken on the main thread itself (the lab's command line, a main-actor test):
/// there the model is where the main queue's work runs, and the work runs when that thread
/// gives the queue a turn, as on iOS.
public enum MainQueueHold {
  /// How long the model waits for the main queue: to be held, or to run the work sent before a
  /// turn ended. Longer means work on the main queue is itself waiting (for the model's thread,
  /// say); the hold is then given up and an issue reported.
  public static let patience: DispatchTimeInterval = .seconds(10)

  /// The hold of the current test, if any.
  private static let current = RuntimeLock<Hold?>(nil)
  /// Whether a hold is taken: read without the lock at the end of every turn.
  private static let isHeld = Atomic<Bool>(false)
  @TaskLocal private static var isHolding = false

  /// Runs `body` with Dispatch's main queue held, letting its work through at the end of each
  /// turn of the run loop; afterwards runs what is left, and lets the queue go. Nested holds
  /// (in the same task) hold once. On the main thread, runs `body` alone.
  public static func holding<Result>(_ body: () async throws -> Result) async rethrows -> Result {
    if isHolding || Thread.isMainThread { return try await body() }
    guard let hold = Hold.take() else { return try await body() }
    current.withLock { $0 = hold }
    isHeld.store(true, ordering: .releasing)
    defer {
      isHeld.store(false, ordering: .releasing)
      current.withLock { $0 = nil }
      hold.letThrough()
      hold.letGo()
    }
    return try await $isHolding.withValue(true) { try await body() }
  }

  /// Lets the work sent to the main queue before now run, and waits for it: the run loop calls
  /// this at the end of each turn. Nothing happens without a hold, or on the main thread.
  static func endOfTurn() {
    guard isHeld.load(ordering: .acquiring), !Thread.isMainThread,
      let hold = current.withLock({ $0 })
    else { return }
    hold.letThrough()
  }

  /// One hold of the main queue: the block that waits on it, and the two signals between it and
  /// the model.
  private final class Hold: Sendable {
    private enum Phase {
      /// The holding block is not on the queue's front yet.
      case queued
      /// It waits at the front of the queue.
      case holding
      /// The model gave up waiting for it: it must not hold when it comes.
      case abandoned
      /// The model let go: the block returns without going to the back again.
      case released
    }

    private let phase = RuntimeLock(Phase.queued)
    /// Taken by each side just before it signals and just after it wakes, so that
    /// ThreadSanitizer, which does not see inside Dispatch's semaphores on Linux, sees the
    /// model's writes before the queue's work and that work's before the model goes on.
    private let handoff = RuntimeLock(0)
    /// Signalled by the block each time it holds the queue.
    private let holding = DispatchSemaphore(value: 0)
    /// Signalled by the model to let the block go (to the back of the queue, or away).
    private let go = DispatchSemaphore(value: 0)
    /// Whether the hold still works (no wait timed out).
    private let isWorking = Atomic<Bool>(true)

    /// Puts a holding block on the main queue and waits for it to hold; nil (and an issue) when
    /// the queue does not come to it within ``MainQueueHold/patience``.
    static func take() -> Hold? {
      let hold = Hold()
      Dispatch.DispatchQueue.main.async { hold.hold() }
      defer { hold.handoff.withLock { _ in } }
      guard hold.holding.wait(timeout: .now() + patience) == .success else {
        let stillQueued = hold.phase.withLock { phase -> Bool in
          guard phase == .queued else { return false }
          phase = .abandoned
          return true
        }
        if stillQueued {
          UIKitModelIssues.report(.mainQueueUnavailable("the main queue did not come to the model"))
          return nil
        }
        // It came just as the wait ended.
        hold.holding.wait()
        return hold
      }
      return hold
    }

    /// The block on the main queue: holds it until the model says go, then goes to the back
    /// of the queue, behind the work sent meanwhile (or away, once the model let go).
    private func hold() {
      let holds = phase.withLock { phase -> Bool in
        guard phase == .queued || phase == .holding else { return false }
        phase = .holding
        return true
      }
      guard holds else { return }
      handoff.withLock { $0 += 1 }
      holding.signal()
      go.wait()
      handoff.withLock { _ in }
      let released = phase.withLock { $0 == .released }
      if !released { Dispatch.DispatchQueue.main.async { self.hold() } }
    }

    /// Lets the work sent before now run, and waits until the block holds the queue again.
    func letThrough() {
      guard isWorking.load(ordering: .acquiring) else { return }
      handoff.withLock { $0 += 1 }
      go.signal()
      guard holding.wait(timeout: .now() + MainQueueHold.patience) == .success else {
        isWorking.store(false, ordering: .releasing)
        UIKitModelIssues.report(
          .mainQueueUnavailable("work on the main queue did not finish"))
        return
      }
      handoff.withLock { _ in }
    }

    /// Lets the queue go for good (a block still on its way finds the hold released and
    /// returns at once).
    func letGo() {
      phase.withLock { $0 = .released }
      go.signal()
    }
  }
}
