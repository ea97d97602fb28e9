// The process's main thread, as UIKit's: the model runs on it, and the deferred UI work of iOS code
// (`DispatchQueue.main.async`, `Task { @MainActor in ... }`, `DispatchQueue.main.asyncAfter`)
// runs on it at the end of each frame of the model's run loop, in the order it was sent.
//
// On iOS the main thread runs the main run loop; each turn drains Dispatch's main queue, and the
// main actor's jobs are work on that queue. In a `swift test` process on Linux the async `main`
// ends in `dispatch_main()`, which parks the main thread: a worker thread then drains the queue,
// inside Dispatch's callback, which does not let itself be entered again, so the model could not
// run the queue's work between frames (issue #31: the work raced the model and crashed 3 runs in
// 12). CMainThread keeps the main thread: the async main's final drain becomes this file's loop,
// and the main actor's jobs go to an executor of the model's, which the loop runs, and which the
// run loop drains at the end of a frame, while a test runs on the main actor.
internal import CMainThread
import Dispatch
import Foundation
import ObjCRuntime
import Synchronization
@_spi(ExperimentalCustomExecutors) import _Concurrency

/// The process's main thread: where the model runs, as UIKit runs on iOS's, and where the work
/// sent to the main queue and the main actor runs, at the end of each frame of the run loop.
///
/// In a test process (`swift test`, whose `main` is async) the main thread runs a loop of the
/// model's in place of `dispatch_main()`. Tests isolated to the main actor (`@MainActor`) run on
/// it; the main actor's jobs (`Task { @MainActor in ... }`, `await MainActor.run`) and
/// `DispatchQueue.main.async` blocks wait in one queue, in the order they were sent, and run when
/// the test suspends (an `await` that waits), or at the end of the run loop's next frame: a
/// test's `advance` runs them between frames, as iOS runs them between turns of its main run
/// loop. Work they send in turn waits for the frame after. `DispatchQueue.main.asyncAfter`
/// follows the virtual clock while the testing library's traits run a test
/// (``withVirtualDeadlines(_:)``).
///
/// In a process whose `main` is synchronous (the lab, the benchmark, XCTest) the main thread is
/// the program's own; the main actor's jobs and `async` blocks go to Dispatch's main queue, and
/// the run loop, advanced on the main thread, drains it at the end of the next frame.
///
/// The model is used on the main thread only. Advanced on another thread while the main thread
/// runs the loop, it reports ``UIKitModelIssue/offMainThread(_:)``: the main queue's work would
/// run beside it.
public enum MainThread {
  /// Whether the calling thread is the process's main thread.
  public static var isCurrent: Bool { swk_is_main_thread() }

  /// Runs `body` as main-actor code, from code the compiler cannot see is on the main thread:
  /// an IMP, which the runtime calls through a C function pointer, or a hook's closure.
  ///
  /// It is `MainActor.assumeIsolated` without that function's check of the current executor,
  /// which costs a call into the concurrency runtime on every use; the model's IMPs run on every
  /// send to its objects (the `@objc` thunks Swift 6 makes on iOS do check, SE-0423). The caller
  /// must be on the main thread, as UIKit's callers are: the
  /// run loop reports an advance from another thread (``UIKitModelIssue/offMainThread(_:)``),
  /// and the testing library's traits record it as an issue of the test.
  @inlinable @inline(__always)
  public static func assumeIsolated<Result, Failure: Error>(
    _ body: @MainActor () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withoutActuallyEscaping(body) { isolated throws(Failure) in
      // The same representation: a synchronous function isolated to a global actor is called
      // as a nonisolated one; the isolation is a compile-time promise, which the caller keeps.
      try unsafeBitCast(isolated, to: (() throws(Failure) -> Result).self)()
    }
  }

  /// Runs `body` as main-actor code with `values`: ``assumeIsolated(_:)`` for a body that
  /// needs values a nonisolated closure was given, such as the receiver and arguments of a
  /// hook's closure or of an ivar's getter.
  ///
  /// ```swift
  /// try UINavigationBar.hook(after: "insertSubview:atIndex:") {
  ///   (bar: UINavigationBar, view: UIView, _: Int) in
  ///   MainThread.assumeIsolated(with: bar, view) { bar, view in bar.bringSubviewToFront(view) }
  /// }
  /// ```
  ///
  /// A main-actor closure that captured them would send them to the main actor, which Swift
  /// refuses for values that are not `Sendable` (the model's objects, as UIKit's, are isolated
  /// to the main actor but not `Sendable`: their root class is not); passed as arguments, they
  /// stay on the calling thread, which is the main one.
  @inlinable @inline(__always)
  public static func assumeIsolated<A, Result, Failure: Error>(
    with a: A, body: @MainActor (A) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withoutActuallyEscaping(body) { isolated throws(Failure) in
      try unsafeBitCast(isolated, to: ((A) throws(Failure) -> Result).self)(a)
    }
  }

  /// ``assumeIsolated(with:body:)`` with two values.
  @inlinable @inline(__always)
  public static func assumeIsolated<A, B, Result, Failure: Error>(
    with a: A, _ b: B, body: @MainActor (A, B) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withoutActuallyEscaping(body) { isolated throws(Failure) in
      try unsafeBitCast(isolated, to: ((A, B) throws(Failure) -> Result).self)(a, b)
    }
  }

  /// ``assumeIsolated(with:body:)`` with three values.
  @inlinable @inline(__always)
  public static func assumeIsolated<A, B, C, Result, Failure: Error>(
    with a: A, _ b: B, _ c: C, body: @MainActor (A, B, C) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withoutActuallyEscaping(body) { isolated throws(Failure) in
      try unsafeBitCast(isolated, to: ((A, B, C) throws(Failure) -> Result).self)(a, b, c)
    }
  }

  /// ``assumeIsolated(with:body:)`` with four values.
  @inlinable @inline(__always)
  public static func assumeIsolated<A, B, C, D, Result, Failure: Error>(
    with a: A, _ b: B, _ c: C, _ d: D, body: @MainActor (A, B, C, D) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withoutActuallyEscaping(body) { isolated throws(Failure) in
      try unsafeBitCast(isolated, to: ((A, B, C, D) throws(Failure) -> Result).self)(a, b, c, d)
    }
  }

  /// ``assumeIsolated(with:body:)`` with five values: an IMP's receiver and four arguments.
  @inlinable @inline(__always)
  public static func assumeIsolated<A, B, C, D, E, Result, Failure: Error>(
    with a: A, _ b: B, _ c: C, _ d: D, _ e: E,
    body: @MainActor (A, B, C, D, E) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withoutActuallyEscaping(body) { isolated throws(Failure) in
      try unsafeBitCast(isolated, to: ((A, B, C, D, E) throws(Failure) -> Result).self)(
        a, b, c, d, e)
    }
  }

  // The model's IMPs enter the main actor through these: ``assumeIsolated(with:body:)`` with an
  // escaping body, cast without `withoutActuallyEscaping`, whose check that the closure did not
  // escape (12 instructions) cost every model IMP 10 in all (`uikit-method-from-swift`: 68 with
  // it, 58 without; 40 before the model was isolated to the main actor, when the body was inlined
  // into the IMP: through the cast it is called). An IMP is a C function pointer, which captures
  // nothing, and its body takes the IMP's values as arguments: the body is a constant function
  // with no context, so escaping allocates nothing (a matrix cell makes as many objects with
  // these as without). A body that captured would have its context allocated on every call.
  /// An IMP's entry to the main actor with its values; see the comment above.
  @inline(__always)
  static func enterIMP<A, Result>(
    with a: A, body: @escaping @MainActor (A) -> Result
  ) -> Result {
    unsafeBitCast(body, to: ((A) -> Result).self)(a)
  }

  /// ``enterIMP(with:body:)`` with 2 values.
  @inline(__always)
  static func enterIMP<A, B, Result>(
    with a: A, _ b: B, body: @escaping @MainActor (A, B) -> Result
  ) -> Result {
    unsafeBitCast(body, to: ((A, B) -> Result).self)(a, b)
  }

  /// ``enterIMP(with:body:)`` with 3 values.
  @inline(__always)
  static func enterIMP<A, B, C, Result>(
    with a: A, _ b: B, _ c: C, body: @escaping @MainActor (A, B, C) -> Result
  ) -> Result {
    unsafeBitCast(body, to: ((A, B, C) -> Result).self)(a, b, c)
  }

  /// ``enterIMP(with:body:)`` with 4 values.
  @inline(__always)
  static func enterIMP<A, B, C, D, Result>(
    with a: A, _ b: B, _ c: C, _ d: D, body: @escaping @MainActor (A, B, C, D) -> Result
  ) -> Result {
    unsafeBitCast(body, to: ((A, B, C, D) -> Result).self)(a, b, c, d)
  }

  /// ``enterIMP(with:body:)`` with 5 values.
  @inline(__always)
  static func enterIMP<A, B, C, D, E, Result>(
    with a: A, _ b: B, _ c: C, _ d: D, _ e: E, body: @escaping @MainActor (A, B, C, D, E) -> Result
  ) -> Result {
    unsafeBitCast(body, to: ((A, B, C, D, E) -> Result).self)(a, b, c, d, e)
  }

  /// Whether the main thread runs the model's loop: true where `main` is async (Swift Testing's
  /// pass of `swift test`), false where it is synchronous (the lab, the benchmark, XCTest's pass).
  public static var runsModelLoop: Bool { swk_main_loop_is_running() }

  /// How many advances of the run loop ran off the main thread while the main thread runs the
  /// model's loop, since the process started: the testing library's traits record an issue for
  /// a test during which it grew.
  public static var offMainThreadAdvances: Int { offMainAdvances.load(ordering: .relaxed) }
  private static let offMainAdvances = Atomic<Int>(0)

  /// The main actor's executor, installed before `main` runs.
  static let executor = MainThreadExecutor()

  // MARK: Virtual deadlines

  /// Whether `asyncAfter` to the main queue follows the virtual clock, with the work sent since
  /// the last frame, for the run loop to put on that clock at the end of the frame: one lock, so
  /// that work is either taken by a frame or handed back to Dispatch when the scope ends.
  private static let deadlines = RuntimeLock<(isVirtual: Bool, sent: [DelayedWork])>((false, []))

  /// Work sent with `asyncAfter` while deadlines are virtual.
  private struct DelayedWork {
    let delay: TimeInterval
    let work: @Sendable () -> Void
  }
  /// Whether deadlines are virtual: read without the lock at the end of every frame.
  private static let isVirtual = Atomic<Bool>(false)
  @TaskLocal private static var isInScope = false

  /// Runs `body` with `DispatchQueue.main.asyncAfter(deadline:execute:)` on the run loop's
  /// virtual clock: the testing library's `.uiKitModel` and `.plugins` traits run each test in
  /// it. Work still waiting for its first frame when `body` returns goes to Dispatch's real
  /// clock, and is dropped if deadlines are virtual again by the time it is due (another test's
  /// model). A scope inside a scope, or beside one, runs `body` alone.
  public nonisolated(nonsending) static func withVirtualDeadlines<Result>(
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    guard !isInScope,
      isVirtual.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        .exchanged
    else { return try await body() }
    deadlines.withLock { $0 = (true, []) }
    defer {
      let left = deadlines.withLock { state in
        defer { state = (false, []) }
        return state.sent
      }
      // Real again before the work is handed over: work due at once must not find the scope.
      isVirtual.store(false, ordering: .releasing)
      for item in left {
        let work = item.work
        DispatchQueue.main.asyncAfter(deadline: .now() + item.delay) {
          if !isVirtual.load(ordering: .acquiring) { work() }
        }
      }
    }
    return try await $isInScope.withValue(true) { try await body() }
  }

  /// Keeps `work` for the run loop to send to the main queue once `delay` seconds have passed on
  /// its virtual clock, counted from the end of the frame; false, doing nothing, when deadlines
  /// are real (the work then follows Dispatch's clock).
  static func send(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Bool {
    guard isVirtual.load(ordering: .acquiring) else { return false }
    return deadlines.withLock { state in
      guard state.isVirtual else { return false }
      state.sent.append(DelayedWork(delay: delay, work: work))
      return true
    }
  }

  /// Whether work sent to the main thread's queue waits to run: the run loop is not idle then.
  static var hasQueuedWork: Bool { executor.hasWork }

  /// Whether `asyncAfter` work waits for the end of a frame to be put on the virtual clock: the
  /// run loop is not idle then.
  static var hasDelayedWork: Bool {
    isVirtual.load(ordering: .acquiring) && deadlines.withLock { !$0.sent.isEmpty }
  }

  // MARK: The end of a frame

  /// Runs the main queue's work sent before now, on the main thread, at the end of a frame:
  /// first puts the `asyncAfter` work sent since the last frame on the virtual clock, then runs
  /// the main actor's jobs and the model's queue, then Dispatch's own queue (work sent with
  /// Dispatch's other methods). Work they send waits for the next frame. Off the main thread it
  /// runs nothing (``checkThread()`` said why).
  @MainActor static func endOfFrame() {
    if isVirtual.load(ordering: .acquiring) { scheduleDelayedWork() }
    if swk_main_loop_is_running() {
      guard swk_is_main_thread() else { return }
      executor.runSentWork()
      swk_main_queue_drain()
    } else if sentToDispatch.load(ordering: .acquiring) {
      // A synchronous `main` (the lab): the main actor's jobs and `async` blocks went to
      // Dispatch's queue, which its drain empties; a frame without them pays one load. Inside
      // Dispatch's drain (work of the queue that advances the run loop) the drain cannot run
      // again: the flag stays for the next frame.
      guard swk_is_main_thread(), !swk_main_queue_is_draining() else { return }
      sentToDispatch.store(false, ordering: .relaxed)
      swk_main_queue_drain()
    }
  }

  /// Whether work went to Dispatch's main queue through the model's doors (`async`, `asyncAfter`
  /// on the real clock, the main actor's jobs) since the last frame drained it, where the main
  /// thread runs no loop of the model's. Set, releasing, after the work is on the queue, so that
  /// a drain that sees it runs the work. Work sent with Dispatch's other methods is not seen: it
  /// runs with the next drain.
  private static let sentToDispatch = Atomic<Bool>(false)

  /// Notes that the model's doors just put work on Dispatch's main queue (after putting it
  /// there), for the next frame's end to drain.
  static func noteSentToDispatch() { sentToDispatch.store(true, ordering: .releasing) }

  /// Reports ``UIKitModelIssue/offMainThread(_:)`` when the caller, about to advance the run
  /// loop, is not the main thread while the main thread runs the model's loop: the main queue's
  /// work runs there, beside the model, and not at the end of the caller's frames.
  static func checkThread() {
    guard !swk_is_main_thread(), swk_main_loop_is_running() else { return }
    offMainAdvances.add(1, ordering: .relaxed)
    UIKitModelIssues.report(
      .offMainThread(
        "the run loop advanced on a thread other than the main thread, where the main queue's"
          + " work runs"))
  }

  /// Puts the `asyncAfter` work sent since the last frame on the virtual clock.
  @MainActor private static func scheduleDelayedWork() {
    let sent = deadlines.withLock { state in
      defer { state.sent = [] }
      return state.sent
    }
    for item in sent {
      // EarlGrey waits for a dispatch_after of up to 1.5 s (kGREYConfigKeyDispatchAfterMax-
      // TrackableDelay) and not for a longer one: idle waits here do the same.
      VirtualRunLoop.main.perform(after: item.delay, waitedFor: item.delay <= 1.5) {
        DispatchQueue.main.async(execute: item.work)
      }
    }
  }
}

// MARK: - The main actor's executor

/// The main actor's executor in a process whose main thread runs the model's loop: one queue of
/// the main actor's jobs and of `DispatchQueue.main.async` blocks, in the order they were sent,
/// run by the loop, or by the run loop at the end of a frame while a test runs on the main
/// thread. Before the loop starts, and in processes where it never does (a synchronous `main`),
/// it hands jobs to the platform's executor (Dispatch's main queue), which the run loop drains
/// at the end of a frame as well.
///
/// `@unchecked Sendable`: its one mutable state, the queue, is behind a `RuntimeLock` (which
/// ThreadSanitizer sees; it does not see into `Synchronization.Mutex`'s futex on Linux); the
/// platform executor it forwards to is Sendable itself.
final class MainThreadExecutor: MainExecutor, @unchecked Sendable {
  /// A job of the main actor, or a block sent to the main queue.
  private enum Work {
    case job(UnownedJob)
    case block(@Sendable () -> Void)
  }

  /// The work sent and not yet run, in order from `items[first]` (the slots before it are
  /// emptied as they are taken, so that nothing they captured stays alive), and how many were
  /// ever sent: the sequence number of `items[first]` is `sent - (items.count - first)`.
  private struct Queue {
    var items: [Work?] = []
    var first = 0
    var sent = 0

    var waiting: Int { items.count - first }
  }

  private let queue = RuntimeLock(Queue())
  /// Dispatch's main executor, which runs the jobs while the loop does not.
  private let platform = PlatformExecutorFactory.mainExecutor

  func enqueue(_ job: consuming ExecutorJob) {
    guard swk_main_loop_is_running() else {
      platform.enqueue(job)
      MainThread.noteSentToDispatch()
      return
    }
    append(.job(UnownedJob(job)))
  }

  /// Takes `block` for the main thread, for `DispatchQueue.main.async`; false where the main
  /// thread runs no loop of the model's (the block then goes to Dispatch's queue, which the run
  /// loop also drains).
  func send(_ block: @escaping @Sendable () -> Void) -> Bool {
    guard swk_main_loop_is_running() else { return false }
    append(.block(block))
    return true
  }

  /// Whether work waits in the queue (never where the main thread runs no loop of the model's).
  var hasWork: Bool {
    swk_main_loop_is_running() && queue.withLock { $0.waiting > 0 }
  }

  private func append(_ work: Work) {
    let wasEmpty = queue.withLock { queue in
      queue.items.append(work)
      queue.sent += 1
      return queue.waiting == 1
    }
    if wasEmpty { swk_main_loop_wake() }
  }

  /// Runs the work sent before the call, in order, on the main thread; work sent meanwhile
  /// waits for the next call (a nested call, from work that advances the run loop, runs it).
  func runSentWork() {
    let end = queue.withLock { $0.sent }
    while let work = next(sentBefore: end) {
      switch work {
      case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
      case .block(let block): block()
      }
    }
  }

  /// The next work whose sequence number is below `end`, taken off the queue; nil when there is
  /// none. The storage is let go when the queue runs empty, and the slots already taken are
  /// dropped once they are half of it.
  private func next(sentBefore end: Int) -> Work? {
    queue.withLock { queue -> Work? in
      guard queue.waiting > 0, queue.sent - queue.waiting < end else { return nil }
      let work = queue.items[queue.first].take()
      queue.first += 1
      if queue.waiting == 0 {
        (queue.items, queue.first) = ([], 0)
      } else if queue.first >= 64, queue.first * 2 >= queue.items.count {
        queue.items.removeFirst(queue.first)
        queue.first = 0
      }
      return work
    }
  }

  func run() throws { try platform.run() }
  func stop() { platform.stop() }
  var isMainExecutor: Bool { true }

  func checkIsolated() {
    guard swk_main_loop_is_running() else { return platform.checkIsolated() }
    precondition(swk_is_main_thread(), "main-actor code ran off the main thread")
  }
}

/// The model's executors: its main actor's, and the platform's default one for everything else.
private struct ModelExecutorFactory: ExecutorFactory {
  static var mainExecutor: any MainExecutor { MainThread.executor }
  static var defaultExecutor: any TaskExecutor { PlatformExecutorFactory.defaultExecutor }
}

/// Installs the model's main-actor executor: called by CMainThread's constructor, before `main`
/// and before any task exists (an executor cannot be replaced once jobs ran on it).
@c(swk_model_prepare_main_thread)
func prepareMainThread() {
  _createExecutors(factory: ModelExecutorFactory.self)
}

/// The main thread's loop in a test process, in place of `dispatch_main()`: runs the work sent to
/// the main actor and the main queue as it comes, for ever (the process exits from its main
/// task).
@c(swk_model_main_loop)
func runMainLoop() {
  while true {
    // One turn: the model's queue as it was, then Dispatch's, as a turn of iOS's main run loop
    // drains the main queue. Work that keeps sending more (a task that yields in a loop) cannot
    // starve Dispatch's queue; the loop waits only when nothing is left.
    MainThread.executor.runSentWork()
    swk_main_queue_drain()
    if !MainThread.executor.hasWork { swk_main_loop_wait() }
  }
}

extension ObjCIvarDeclaration {
  /// An ivar whose value a main-actor property holds, such as a view's: the runtime reads it
  /// (`object_getIvar`, key-value coding) through a nonisolated getter, which runs `read` on the
  /// main thread, where the model is used.
  static func onMainActor<Owner: ObjCObject, Value>(
    _ name: String, _ read: @escaping @MainActor @Sendable (Owner) -> Value
  ) -> ObjCIvarDeclaration {
    ObjCIvarDeclaration(
      name, readOnly: { (owner: Owner) in MainThread.enterIMP(with: owner, body: read) })
  }

  /// ``onMainActor(_:_:)`` for a property of an optional type: nil reads as nil.
  static func onMainActor<Owner: ObjCObject, Wrapped>(
    _ name: String, _ read: @escaping @MainActor @Sendable (Owner) -> Wrapped?
  ) -> ObjCIvarDeclaration {
    ObjCIvarDeclaration(
      name,
      readOnly: { (owner: Owner) -> Wrapped? in
        MainThread.enterIMP(with: owner, body: read)
      })
  }
}
