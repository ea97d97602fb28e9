// Dispatch's main queue, held while the model runs and let through at the end of each frame:
// the deferred UI work of iOS code (`DispatchQueue.main.async`, `Task { @MainActor in ... }`)
// runs between turns of the model's run loop, never beside it.
//
// On iOS the main queue is drained by the main thread, where UIKit runs, between turns of the
// main run loop. In a Linux test the model runs on a test's thread and the process's main thread
// drains the queue whenever it likes: the same code raced the model (issue #31). A hold puts a
// block on the main queue that waits; the queue is serial, so nothing sent after it runs until
// the model lets it go at the end of a frame, when the block moves itself to the back of the
// queue and the work sent before it runs.
import Dispatch
import Foundation
import ObjCRuntime
import Synchronization

/// Holds Dispatch's main queue for the model: the `.uiKitModel` and `.plugins` traits of the
/// testing library hold it around each test, and the run loop lets the queue's work through at
/// the end of each frame (``VirtualRunLoop``).
///
/// Work sent to the main queue while it is held (`DispatchQueue.main.async`, and the main
/// actor's jobs, which Swift runs on the main queue on Linux) runs at the end of the run loop's
/// next frame, in the order it was sent, while the model waits; work it sends in turn waits for
/// the frame after. Work sent with `DispatchQueue.main.asyncAfter(deadline:execute:)` reaches
/// the queue when its delay has passed on the model's virtual clock, and then runs at the end of
/// that frame.
///
/// While the queue is held, nothing may wait for it but the model: a test isolated to the main
/// actor, an `await MainActor.run`, or a `DispatchQueue.main.sync` from the model's thread waits
/// until the hold gives up (``patience``), and the hold is then given up for the rest of the
/// test, saying so.
public enum MainQueueHold {
  /// How long, by default, the queue is held without the model letting it through, and how long
  /// the model waits for the queue (to be held, or to run the work sent before a frame ended).
  /// Past it, something waits for the other side: the hold is given up.
  ///
  /// 10 seconds, or the seconds `SWIZZLEKIT_MAIN_QUEUE_PATIENCE` gives (a positive number up to
  /// a day; anything else is ignored): an instrumented run on a busy machine, such as CI's
  /// ThreadSanitizer pass on an eight-thread pool over two cores, can starve a model test's
  /// thread for longer than 10 seconds between two frames without anything waiting for the queue.
  public static let patience = patience(
    fromEnvironment: ProcessInfo.processInfo.environment["SWIZZLEKIT_MAIN_QUEUE_PATIENCE"])

  /// The patience `value` (the environment variable's text) asks for: its seconds when they are
  /// a positive number up to a day, else 10.
  public static func patience(fromEnvironment value: String?) -> TimeInterval {
    guard let given = value.flatMap(TimeInterval.init), given.isFinite, given > 0,
      given <= 86_400
    else { return 10 }
    return given
  }

  /// The hold of the current test, if any, and the `asyncAfter` work sent while it holds, for
  /// the model's thread to put on the virtual clock at the end of the frame: one lock, so that
  /// work is either taken by a frame or handed back to Dispatch when the hold ends, never lost.
  private static let current = RuntimeLock<(hold: Hold?, delayed: [DelayedWork])>((nil, []))

  /// Work sent with `asyncAfter` while the queue is held.
  private struct DelayedWork {
    let delay: TimeInterval
    let work: @Sendable () -> Void
  }
  /// Whether a hold is taken: read without the lock at the end of every frame.
  private static let isHeld = Atomic<Bool>(false)
  /// Whether a hold's block did not come within ``patience`` and has not come since: the queue
  /// is stuck behind work that does not finish, and a new hold would wait in vain.
  private static let isStuck = Atomic<Bool>(false)
  @TaskLocal private static var isHolding = false

  /// Runs `body` with Dispatch's main queue held, letting its work through at the end of each
  /// frame of the run loop; afterwards runs what is left and lets the queue go. When the queue
  /// could not be held or the hold was given up, `givenUp` is called with the reason once
  /// `body` returned (on the caller's task: a test can record it). Nested holds, in one task
  /// or while another hold is taken, run `body` alone.
  ///
  /// - Parameters:
  ///   - patience: How long either side waits for the other before the hold is given up.
  ///   - body: What runs with the queue held.
  ///   - givenUp: Told why, when the hold was given up or could not be taken.
  public static func holding<Result>(
    patience: TimeInterval = MainQueueHold.patience, _ body: () async throws -> Result,
    givenUp: (String) -> Void = { _ in }
  ) async rethrows -> Result {
    guard !isHolding,
      isHeld.compareExchange(
        expected: false, desired: true, ordering: .acquiringAndReleasing
      ).exchanged
    else { return try await body() }
    var problem: String?
    // At least a hundredth of a second, at most a day (a wait's deadline must be a number).
    let patience = min(86_400, max(0.01, patience.isNaN ? MainQueueHold.patience : patience))
    let hold = Hold.take(patience: patience, reporting: &problem)
    current.withLock { $0.hold = hold }
    defer {
      // Work still waiting for a frame goes back to Dispatch's real clock, unless another
      // test holds the queue by the time it is due: the model it was for is gone then.
      let delayed = current.withLock { state in
        defer { state = (nil, []) }
        return state.delayed
      }
      for item in delayed {
        let work = item.work
        Dispatch.DispatchQueue.main.asyncAfter(
          deadline: .now() + item.delay, qos: .unspecified, flags: []
        ) {
          if current.withLock({ $0.hold == nil }) { work() }
        }
      }
      if let hold {
        hold.letThrough()
        hold.letGo()
        problem = problem ?? hold.problem
      }
      isHeld.store(false, ordering: .releasing)
      if let problem { givenUp(problem) }
    }
    return try await $isHolding.withValue(true) { try await body() }
  }

  /// Sends `work` to the main queue once `delay` seconds have passed on the run loop's virtual
  /// clock, counted from the end of the frame, for `asyncAfter`; false, doing nothing, when no
  /// hold is in force (the work then follows the real clock, as Dispatch's does).
  ///
  /// The work waits in a list that the model's thread reads at the end of each frame: only that
  /// thread touches the run loop, whichever thread (or task) sent the work. Work still waiting
  /// when the hold ends goes to Dispatch's real clock instead; work already on the virtual clock
  /// goes with the model when the next test resets it, as any timer does.
  static func send(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Bool {
    guard isHeld.load(ordering: .acquiring) else { return false }
    return current.withLock { state in
      guard let hold = state.hold, hold.isInForce else { return false }
      state.delayed.append(DelayedWork(delay: delay, work: work))
      return true
    }
  }

  /// Puts the `asyncAfter` work sent since the last frame on the virtual clock; from the model's
  /// thread, at the end of a frame.
  private static func scheduleDelayedWork() {
    let delayed = current.withLock { state in
      defer { state.delayed = [] }
      return state.delayed
    }
    for item in delayed {
      // EarlGrey waits for a dispatch_after of up to 1.5 s (kGREYConfigKeyDispatchAfterMax-
      // TrackableDelay) and not for a longer one: idle waits here do the same.
      VirtualRunLoop.main.perform(after: item.delay, waitedFor: item.delay <= 1.5) {
        Dispatch.DispatchQueue.main.async(execute: item.work)
      }
    }
  }

  /// Lets the work sent to the main queue before now run, and waits for it: the run loop calls
  /// this at the end of each frame. Nothing happens without a hold, or on the main thread (where
  /// the queue's work cannot run while the caller waits).
  static func endOfFrame() {
    guard isHeld.load(ordering: .acquiring), !Thread.isMainThread,
      let hold = current.withLock({ $0.hold })
    else { return }
    scheduleDelayedWork()
    ModelThread.lend { hold.letThrough() }
  }

  /// Whether the caller is main-queue work that a hold let through: it runs while the model's
  /// thread waits for it, and may use the model (a scenario keeps its log lines, for one).
  public static var isRunningHeldWork: Bool {
    isHeld.load(ordering: .acquiring) && DispatchQueue.isRunningMainQueue
  }

  /// Whether `asyncAfter` work waits for the end of a frame to be put on the virtual clock: the
  /// run loop is not idle then.
  static var hasDelayedWork: Bool {
    isHeld.load(ordering: .acquiring) && current.withLock { !$0.delayed.isEmpty }
  }

  /// One hold of the main queue: the block that waits on it, and the signals between it and the
  /// model.
  private final class Hold: Sendable {
    private enum Phase {
      /// The holding block is on its way to the front of the queue.
      case queued
      /// It holds the queue, waiting for the model.
      case holding
      /// It was let through: it is on its way to the front again, behind the work sent before.
      case passing
      /// Given up (a wait ran out of patience) or let go: a block that comes returns at once.
      case over
    }

    private let phase = RuntimeLock(Phase.queued)
    /// How long each side waits for the other.
    private let patience: TimeInterval
    /// Why the hold was given up, if it was.
    private let reason = RuntimeLock<String?>(nil)
    /// Signalled by the block each time it holds the queue.
    private let holding = DispatchSemaphore(value: 0)
    /// Signalled by the model to let the block through (to the back of the queue, or away).
    private let go = DispatchSemaphore(value: 0)
    /// Taken by each side just before it signals and just after it wakes, so that
    /// ThreadSanitizer, which does not see inside Dispatch's semaphores on Linux, sees the
    /// model's writes before the queue's work, and that work's before the model goes on.
    private let handoff = RuntimeLock(0)

    var problem: String? { reason.withLock { $0 } }
    /// Whether the hold still holds the queue between frames (not given up, not let go).
    var isInForce: Bool { phase.withLock { $0 != .over } }

    /// Puts a holding block on the main queue and waits for it to hold; nil, with the reason,
    /// when the queue does not come to it.
    static func take(patience: TimeInterval, reporting problem: inout String?) -> Hold? {
      // After a queue that did not come, a new hold waits briefly: the queue may have come
      // free since (its block then says so), or still be stuck, and each test should not wait
      // the whole patience again.
      let stuck = MainQueueHold.isStuck.load(ordering: .acquiring)
      let hold = Hold(patience: patience)
      hold.send()
      guard hold.waitForHold(within: stuck ? min(patience, 0.5) : patience) else {
        problem =
          stuck
          ? "the main queue is still stuck behind work that did not finish (see the issue of an"
            + " earlier test)" : hold.problem
        return nil
      }
      return hold
    }

    private init(patience: TimeInterval) {
      self.patience = patience
    }

    /// Sends the holding block to the back of the queue.
    private func send() {
      Dispatch.DispatchQueue.main.async { self.hold() }
    }

    /// The block on the main queue: holds it until the model lets it through, then goes to the
    /// back of the queue, behind the work sent meanwhile; returns at once once the hold is over.
    private func hold() {
      // The queue came: it is not stuck.
      MainQueueHold.isStuck.store(false, ordering: .releasing)
      let holds = phase.withLock { phase -> Bool in
        guard phase == .queued || phase == .passing else { return false }
        phase = .holding
        return true
      }
      guard holds else { return }
      handoff.withLock { $0 += 1 }
      holding.signal()
      if go.wait(timeout: .now() + patience) == .timedOut {
        let seconds = patience.formatted()
        giveUp(
          "the main queue was held \(seconds) s without a frame ending:"
            + " something waited for it (a test isolated to the main actor, MainActor.run,"
            + " DispatchQueue.main.sync from the model's thread)")
        return
      }
      handoff.withLock { _ in }
      let goesOn = phase.withLock { phase -> Bool in
        guard phase == .holding else { return false }
        phase = .passing
        return true
      }
      if goesOn { send() }
    }

    /// Waits until the block holds the queue; false (the hold given up) when it does not come
    /// within `within` seconds (the hold's patience unless given).
    private func waitForHold(within: TimeInterval? = nil) -> Bool {
      if holding.wait(timeout: .now() + (within ?? patience)) == .success {
        handoff.withLock { _ in }
        return true
      }
      MainQueueHold.isStuck.store(true, ordering: .releasing)
      let seconds = patience.formatted()
      giveUp(
        "work on the main queue did not finish within \(seconds) s: it"
          + " waited for the model's thread, or ran long")
      // A block that holds after all finds the hold over when it wakes.
      go.signal()
      return false
    }

    /// Lets the work sent before now run, and waits until the block holds the queue again.
    func letThrough() {
      guard phase.withLock({ $0 == .holding }) else { return }
      handoff.withLock { $0 += 1 }
      go.signal()
      _ = waitForHold()
    }

    /// Lets the queue go for good.
    func letGo() {
      let wasHolding = phase.withLock { phase -> Bool in
        defer { phase = .over }
        return phase == .holding
      }
      if wasHolding { go.signal() }
    }

    /// Ends the hold, keeping the first reason; a block that comes later returns at once, and
    /// the queue runs beside the model from then on.
    private func giveUp(_ why: String) {
      phase.withLock { $0 = .over }
      let first = reason.withLock { reason -> Bool in
        guard reason == nil else { return false }
        reason = why
        return true
      }
      if first { UIKitModelIssues.report(.mainQueueUnavailable(why)) }
    }
  }
}
