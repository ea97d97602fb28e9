// The main run loop on a virtual clock: nothing sleeps; tests and the lab advance time.
public import Foundation

/// The model's run loop: timers, perform-after, display links and animations, driven by a
/// virtual clock that only moves when someone calls ``advance(by:)``, ``advance(frames:)`` or
/// ``runUntilIdle(limit:)``. The same script therefore gives the same results every time.
///
/// Frames fall at multiples of 1/60 s of virtual time. At each frame the run loop ticks the
/// display links active in the current mode, advances the animations, and ends the turn's
/// implicit `CATransaction`. Timers fire at their own times, between frames.
///
/// Like UIKit's main run loop, it belongs to the main thread (``MainThread``): tests isolated to
/// the main actor and the lab use it there. At the end of each frame it runs the work sent to the
/// main queue and the main actor before the frame ended, in order, on the same thread.
@preconcurrency @MainActor
public final class VirtualRunLoop {
  /// The main run loop, what `.main` means where UIKit code writes `RunLoop.main`.
  public static let main = VirtualRunLoop()

  /// A run-loop mode.
  public struct Mode: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    /// The mode's name.
    public let rawValue: String
    /// A mode from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The default mode: what runs when nothing is being tracked.
    public static let `default` = Mode(rawValue: "kCFRunLoopDefaultMode")
    /// The common modes: a source added here runs in `default` and `tracking` alike.
    public static let common = Mode(rawValue: "kCFRunLoopCommonModes")
    /// The mode while a scroll view is dragged.
    public static let tracking = Mode(rawValue: "UITrackingRunLoopMode")
    /// The name.
    public var description: String { rawValue }

    /// Whether a source added for this mode runs while the run loop is in `current`.
    func runs(in current: Mode) -> Bool { self == .common || self == current }
  }

  /// The duration of one frame: 1/60 s.
  nonisolated public static let frameDuration: TimeInterval = 1.0 / 60

  // The clock and the queues are read every frame and by every idle check. The model is
  // confined to one thread at a time, and no access to them spans a call that could reach
  // them again (the closures given to their arrays' methods touch nothing else): Swift's
  // dynamic exclusivity checks could find nothing, and are switched off for them.
  /// The virtual time, in seconds since the run loop was made.
  @exclusivity(unchecked) public private(set) var currentTime: TimeInterval = 0
  /// The mode the run loop is running in; a simulated drag switches it to `tracking`.
  @exclusivity(unchecked) public var currentMode: Mode = .default
  /// The number of frames so far.
  @exclusivity(unchecked) public private(set) var frameCount = 0
  /// The drags under way (simulated ones and scroll views' pans), and the mode before the first.
  private var tracking: (count: Int, before: Mode) = (0, .default)

  @exclusivity(unchecked) private var timers: [Timer] = []
  private var timerSequence = 0
  @exclusivity(unchecked) internal var displayLinks: [CADisplayLink] = []
  internal let animations = AnimationEngine()
  internal let transactions = TransactionQueue()
  /// Work to run at the end of the current turn (after the frame), in order.
  @exclusivity(unchecked) private var endOfTurn: [() -> Void] = []

  private init() {}

  /// A drag starts: the first of those under way switches the run loop to `tracking`, noting the
  /// mode it was in.
  func beginTracking() {
    if tracking.count == 0 {
      tracking.before = currentMode
      currentMode = .tracking
    }
    tracking.count += 1
  }

  /// A drag ends: when the last one under way ends, the run loop goes back to the mode it was in
  /// before the first. An end without a beginning (after a reset) changes nothing.
  func endTracking() {
    guard tracking.count > 0 else { return }
    tracking.count -= 1
    if tracking.count == 0 { currentMode = tracking.before }
  }

  /// Starts over: time 0, frame 0, default mode, and no timer, display link, animation or
  /// transaction left. Tests and the lab call it between scenarios, so that each starts from the
  /// same state and gives the same trace.
  public func reset() {
    currentTime = 0
    frameCount = 0
    currentMode = .default
    tracking = (0, .default)
    for timer in timers { timer.invalidateQuietly() }
    timers.removeAll()
    for link in displayLinks { link.detach() }
    displayLinks.removeAll()
    animations.removeAll()
    transactions.removeAll()
    endOfTurn.removeAll()
    for view in pendingLayout { view.layoutScheduled = false }
    pendingLayout.removeAll()
  }

  // MARK: Advancing time

  /// The most virtual time one advance may cover: a day, so that a number typed by mistake
  /// (`.infinity`, 1e300, `Int.max` frames) is refused at once instead of running for ever.
  nonisolated public static let maximumAdvance: TimeInterval = 24 * 60 * 60
  /// ``maximumAdvance`` in frames: 5,184,000.
  nonisolated public static let maximumFrames = Int(maximumAdvance * 60)

  /// Runs everything due in the next `interval` seconds of virtual time, in time order. A
  /// negative interval runs nothing; more than ``maximumAdvance``, or NaN, is refused with an
  /// issue (``UIKitModelIssue/advanceRefused(_:)``) and runs nothing.
  public func advance(by interval: TimeInterval) {
    guard !interval.isNaN, interval <= VirtualRunLoop.maximumAdvance else {
      UIKitModelIssues.report(.advanceRefused("\(interval) s"))
      return
    }
    MainThread.checkThread()
    #if SWIZZLEKIT_INTERNAL_CHECKS
      let entered = ModelThread.enter()
      defer { ModelThread.leave(entered) }
    #endif
    let target = currentTime + max(0, interval)
    while true {
      let nextFrame = Double(frameCount + 1) * VirtualRunLoop.frameDuration
      let nextTimer = timers.first?.fireTime ?? .infinity
      let next = min(nextFrame, nextTimer)
      guard next <= target + 1e-9 else { break }
      if nextTimer <= nextFrame {
        currentTime = max(currentTime, nextTimer)
        fireDueTimers()
      } else {
        currentTime = nextFrame
        frameCount += 1
        runFrame()
      }
    }
    currentTime = max(currentTime, target)
  }

  /// Runs `count` frames; more than ``maximumFrames`` is refused with an issue and runs nothing.
  public func advance(frames count: Int) {
    guard count > 0 else { return }
    guard count <= VirtualRunLoop.maximumFrames else {
      UIKitModelIssues.report(.advanceRefused("\(count) frames"))
      return
    }
    let target = Double(frameCount + count) * VirtualRunLoop.frameDuration
    advance(by: target - currentTime)
  }

  /// Advances frame by frame until no timer, perform-after, animation or transaction completion
  /// is pending (display links keep ticking meanwhile, but do not keep the run loop busy), or
  /// until `limit` seconds of virtual time went by (at most ``maximumAdvance``; NaN is 0).
  /// Returns whether it became idle.
  @discardableResult
  public func runUntilIdle(limit: TimeInterval = 60) -> Bool {
    let deadline = currentTime + min(VirtualRunLoop.maximumAdvance, limit.isNaN ? 0 : limit)
    while !isIdle {
      guard currentTime < deadline else { return false }
      advance(frames: 1)
    }
    return true
  }

  /// What keeps the run loop from being idle, one line each (`2 timers`, `animations under
  /// way`, `a transaction's completion`, `work at the end of the turn`), and each display link
  /// that is running (`display link -[Ticker tick:]`); empty when idle and no link runs.
  public func busyWork() -> [String] {
    var lines: [String] = []
    let timersPending = timers.filter(\.keepsRunLoopWaiting).count
    if timersPending > 0 { lines.append("\(timersPending) timer\(timersPending == 1 ? "" : "s")") }
    if !animations.isEmpty { lines.append("animations under way") }
    if !transactions.isEmpty { lines.append("a transaction's completion") }
    if !endOfTurn.isEmpty { lines.append("work at the end of the turn") }
    if MainThread.hasDelayedWork { lines.append("asyncAfter work for the next frame") }
    if MainThread.hasQueuedWork { lines.append("main-queue work for the next frame") }
    for link in displayLinks where link.isRunning {
      lines.append(
        "display link -[\(link.target.map { "\(type(of: $0))" } ?? "?") \(link.selector)]")
    }
    return lines
  }

  /// Whether a display link that is not paused is running.
  public var hasRunningDisplayLinks: Bool {
    displayLinks.contains(where: \.isRunning)
  }

  /// Whether nothing but display links is pending.
  public var isIdle: Bool {
    !timers.contains(where: \.keepsRunLoopWaiting) && animations.isEmpty
      && transactions.isEmpty
      && endOfTurn.isEmpty && !MainThread.hasDelayedWork && !MainThread.hasQueuedWork
  }

  private func runFrame() {
    for link in displayLinks where link.shouldFire(frame: frameCount, mode: currentMode) {
      for observer in displayLinkObservers.values { observer(link) }
      link.fire(at: currentTime)
    }
    animations.advance(to: currentTime)
    endTurn()
    // The main queue's work sent before now (MainThread): once a frame, not at every turn's end
    // (`CATransaction.flush()` ends one in the middle of a push).
    MainThread.endOfFrame()
    layOutPendingViews()
    for observer in frameObservers.values { observer(currentTime) }
  }

  /// The views `setNeedsLayout` marked since the last frame, in the order they were marked.
  @exclusivity(unchecked) private var pendingLayout: [UIView] = []

  /// Keeps `view` for the frame's layout pass, once.
  func scheduleLayout(of view: UIView) {
    guard !view.layoutScheduled else { return }
    view.layoutScheduled = true
    pendingLayout.append(view)
  }

  /// How many layout passes a scripted step runs once idle before it records
  /// (`NavigationSession`): a layout that marks views again is laid out again, a few times.
  static let layoutPassesPerTurn = 4

  /// The layout pass at the end of a frame: each view marked by `setNeedsLayout` that is in a
  /// window and still needs it is sent `layoutIfNeeded` (through the table: its
  /// `layoutSubviews`, and its subviews'), as Apple documents `setNeedsLayout`: it "makes a
  /// note of the request and returns immediately", and "the system updates the layout during
  /// the next update cycle". A view outside any window waits for an explicit
  /// `layoutIfNeeded`. Views marked while the pass runs wait for the next pass. Returns whether
  /// any view was laid out.
  @discardableResult
  func layOutPendingViews() -> Bool {
    guard !pendingLayout.isEmpty else { return false }
    let views = pendingLayout
    pendingLayout.removeAll()
    var laidOut = false
    for view in views {
      view.layoutScheduled = false
      if view.needsLayout, view.window != nil {
        view.layoutIfNeeded()
        laidOut = true
      }
    }
    return laidOut
  }

  // Read every frame; as the clock and the queues above, no access spans a call back.
  @exclusivity(unchecked) private var frameObservers: [Int: (TimeInterval) -> Void] = [:]
  private var nextObserver = 0

  /// Calls `observer` with the time at the end of every frame, after the display links, the
  /// animations and the turn's transaction: what tools sample (the lab's plots). Observers
  /// survive ``reset()``. Returns a number for ``removeFrameObserver(_:)``.
  @discardableResult
  public func addFrameObserver(_ observer: @escaping (TimeInterval) -> Void) -> Int {
    nextObserver += 1
    frameObservers[nextObserver] = observer
    return nextObserver
  }

  /// Removes a frame observer.
  public func removeFrameObserver(_ number: Int) {
    // Taken out and released after the write: a closure's release never runs inside it.
    let frame = frameObservers.removeValue(forKey: number)
    let link = displayLinkObservers.removeValue(forKey: number)
    _ = (frame, link)
  }

  @exclusivity(unchecked) private var displayLinkObservers: [Int: (CADisplayLink) -> Void] = [:]

  /// Calls `observer` with each display link just before it fires: what tools use to follow
  /// the ticks of display links they did not make (the lab traces their selectors). Observers
  /// survive ``reset()``. Returns a number for ``removeFrameObserver(_:)``.
  @discardableResult
  public func addDisplayLinkObserver(_ observer: @escaping (CADisplayLink) -> Void) -> Int {
    nextObserver += 1
    displayLinkObservers[nextObserver] = observer
    return nextObserver
  }

  /// Ends the current turn: the completions of `UIView.animate` that came due run, then the
  /// implicit transaction commits and the transactions whose animations all ended run theirs.
  ///
  /// The order is Core Animation's: an animation block's completion belongs to a transaction
  /// nested in the ones open around it, and an outer transaction completes after what it
  /// contains. A navigation controller finishes its push in the animation's completion, so a
  /// completion block set around the push runs once the push has completed (`viewDidAppear:`
  /// called, no transition running) and can push again.
  internal func endTurn() {
    let work = endOfTurn
    endOfTurn.removeAll()
    for item in work { item() }
    transactions.endOfTurn(animations: animations)
  }

  /// Runs `block` at the end of the current turn.
  internal func atEndOfTurn(_ block: @escaping () -> Void) {
    endOfTurn.append(block)
  }

  // MARK: Timers

  /// A timer on the virtual clock, as Foundation's `Timer` scheduled on the main run loop.
  @preconcurrency @MainActor
  public final class Timer {
    /// When it fires next.
    public fileprivate(set) var fireTime: TimeInterval
    /// The interval of a repeating timer.
    public let interval: TimeInterval
    /// Whether it repeats.
    public let repeats: Bool
    /// The modes it runs in.
    public let modes: Set<Mode>
    /// Whether it still fires.
    public private(set) var isValid = true
    /// Whether the run loop counts as busy while the timer runs, although it repeats: a
    /// simulated drag or swipe, which ends by itself.
    public let keepsRunLoopBusy: Bool
    fileprivate let block: (Timer) -> Void

    /// Whether an idle wait waits for it, when that is not for `repeats` and `keepsRunLoopBusy`
    /// to say: a main-queue `asyncAfter` is waited for only up to a delay, as EarlGrey does.
    fileprivate let waitedFor: Bool?

    /// Whether the run loop waits for it to be idle: a one-shot timer, or a repeating one that
    /// keeps the run loop busy.
    var keepsRunLoopWaiting: Bool { waitedFor ?? (!repeats || keepsRunLoopBusy) }
    fileprivate var sequence = 0

    fileprivate init(
      fireTime: TimeInterval, interval: TimeInterval, repeats: Bool, modes: Set<Mode>,
      keepsRunLoopBusy: Bool, waitedFor: Bool? = nil, block: @escaping (Timer) -> Void
    ) {
      self.keepsRunLoopBusy = keepsRunLoopBusy
      self.waitedFor = waitedFor
      self.fireTime = fireTime
      self.interval = interval
      self.repeats = repeats
      self.modes = modes
      self.block = block
    }

    /// Stops the timer.
    public func invalidate() {
      isValid = false
      VirtualRunLoop.main.remove(self)
    }

    fileprivate func invalidateQuietly() { isValid = false }
  }

  /// Schedules a timer that first fires `interval` seconds from now. A repeating timer does not
  /// keep ``runUntilIdle(limit:)`` running unless `keepsRunLoopBusy` says it ends by itself.
  @discardableResult
  public func scheduledTimer(
    withTimeInterval interval: TimeInterval, repeats: Bool, modes: Set<Mode> = [.default],
    keepsRunLoopBusy: Bool = false, block: @escaping (Timer) -> Void
  ) -> Timer {
    let timer = Timer(
      fireTime: currentTime + max(0, interval), interval: max(interval, 1e-4), repeats: repeats,
      modes: modes, keepsRunLoopBusy: keepsRunLoopBusy, block: block)
    insert(timer)
    return timer
  }

  /// Runs `block` once, `delay` seconds from now, in every mode; idle waits wait for it only
  /// when `waitedFor` (the main queue's `asyncAfter`).
  internal func perform(after delay: TimeInterval, waitedFor: Bool, _ block: @escaping () -> Void) {
    insert(
      Timer(
        fireTime: currentTime + max(0, delay), interval: max(delay, 1e-4), repeats: false,
        modes: [.common], keepsRunLoopBusy: false, waitedFor: waitedFor, block: { _ in block() }))
  }

  /// Runs `block` once, `delay` seconds from now (`perform(_:with:afterDelay:)`).
  public func perform(
    after delay: TimeInterval, inModes modes: Set<Mode> = [.default], _ block: @escaping () -> Void
  ) {
    scheduledTimer(withTimeInterval: delay, repeats: false, modes: modes) { _ in block() }
  }

  private func insert(_ timer: Timer) {
    timerSequence += 1
    timer.sequence = timerSequence
    let index =
      timers.firstIndex {
        $0.fireTime > timer.fireTime
          || ($0.fireTime == timer.fireTime && $0.sequence > timer.sequence)
      } ?? timers.endIndex
    timers.insert(timer, at: index)
  }

  fileprivate func remove(_ timer: Timer) {
    timers.removeAll { $0 === timer }
  }

  private func fireDueTimers() {
    while let timer = timers.first, timer.fireTime <= currentTime + 1e-9 {
      timers.removeFirst()
      // `Mode.runs(in:)` as two lookups, without a closure that checks its executor (SE-0423).
      let runs = timer.modes.contains(.common) || timer.modes.contains(currentMode)
      if timer.repeats {
        timer.fireTime += timer.interval
        insert(timer)
      }
      if runs {
        timer.block(timer)
      } else if !timer.repeats {
        // A one-shot timer of another mode waits for its mode, as CFRunLoop keeps it pending.
        timer.fireTime = currentTime + VirtualRunLoop.frameDuration
        insert(timer)
      }
    }
  }
}
