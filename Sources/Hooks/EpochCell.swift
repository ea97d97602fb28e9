// A value that calls read without a lock or a reference count, and edits replace; what was
// replaced is freed once no call can still be reading it (epoch-based reclamation).
import ObjCRuntime
import Synchronization

/// One object published to readers that take neither a lock nor a reference: the hook site's
/// snapshot, read on every call of a hooked method.
///
/// **Readers** (``read(_:)``) announce themselves in one of two counters, chosen by the epoch's
/// parity, check that the epoch did not move meanwhile, load the published object and use it
/// borrowed; leaving, they take themselves off the counter. **Writers** (``replace(_:)``), under
/// the cell's lock, publish the new object and put the old one in a batch. A batch is handed back
/// to be freed once the readers of the epoch it was retired in have all left: the epoch moves on
/// (new readers count in the other counter), and the old counter can only go down. One batch
/// waits at a time, so readers of at most two epochs are ever counted; while it waits, later
/// replacements gather in the next batch.
///
/// Nothing waits for the other side: a writer never waits for readers, and a reader takes the
/// lock only when it is the last to leave the epoch a batch waits for, to free that batch (its
/// objects' last releases then run on the reader's thread, as a retained snapshot's would have).
/// So a reader may replace the value it is reading (a `once` hook removes itself from inside its
/// call). A reader that lasts (a call that runs the run loop) keeps every object replaced since
/// it started until it leaves; one that never returns keeps them for good.
///
/// `edit` (``replace(_:)``) and the body of ``withCurrent(_:)`` run under the cell's lock, which
/// is not recursive: they must not read the cell (for the hook site: call a hooked method of the
/// site).
///
/// The orderings are sequentially consistent where a reader and a writer must see each other
/// (a reader's announce against the writer's publish, a reader's leaving against the writer's
/// announcement of the epoch it waits for); on x86-64 the reader's cost is two locked adds.
///
/// `@unchecked Sendable`: `state` is guarded by its lock; `published` mirrors `state.current`
/// (which keeps it alive) and the counters and epochs are atomics, used as described above.
internal final class EpochCell<Value: AnyObject & Sendable>: @unchecked Sendable {
  private struct State {
    /// The object in force; it keeps `published` alive.
    var current: Value
    /// Replaced objects waiting for the readers of `waitingEpoch` to leave.
    var inFlight: [Value] = []
    /// Replaced objects retired while a batch was in flight.
    var next: [Value] = []
  }

  private let state: RuntimeLock<State>
  private let published: Atomic<UnsafeRawPointer>
  private let epoch = Atomic<Int>(0)
  private let evenReaders = Atomic<Int>(0)
  private let oddReaders = Atomic<Int>(0)
  /// The epoch whose readers a batch in flight waits for; -1 when none waits.
  private let waitingEpoch = Atomic<Int>(-1)

  init(_ value: Value) {
    state = RuntimeLock(State(current: value))
    published = Atomic(UnsafeRawPointer(Unmanaged.passUnretained(value).toOpaque()))
  }

  @inline(__always)
  private func readers(of epoch: Int) -> Int {
    epoch & 1 == 0
      ? evenReaders.load(ordering: .sequentiallyConsistent)
      : oddReaders.load(ordering: .sequentiallyConsistent)
  }

  /// Counts a reader in (`by` 1) or out (`by` -1) of `epoch`'s counter; returns the count after.
  @inline(__always)
  private func count(_ epoch: Int, by delta: Int) -> Int {
    epoch & 1 == 0
      ? evenReaders.wrappingAdd(delta, ordering: .sequentiallyConsistent).newValue
      : oddReaders.wrappingAdd(delta, ordering: .sequentiallyConsistent).newValue
  }

  /// Runs `body` with the object in force, borrowed: it stays alive until `body` returns, even if
  /// a writer replaces it meanwhile. `body` may call ``replace(_:)``.
  @inline(__always)
  func read<Result>(_ body: (BorrowedReference<Value>) -> Result) -> Result {
    let epoch = enter()
    let object = published.load(ordering: .sequentiallyConsistent)
    let result = body(BorrowedReference(Unmanaged<Value>.fromOpaque(object)))
    // Not a `defer`: `body` cannot throw, and a deferred block was a call of its own on every
    // hooked call.
    leave(epoch)
    return result
  }

  /// Counts this reader in the current epoch, and returns it.
  @inline(__always)
  private func enter() -> Int {
    while true {
      let observed = epoch.load(ordering: .sequentiallyConsistent)
      if enter(observed: observed) { return observed }
    }
  }

  /// Counts a reader in `observed` (an epoch it read) and keeps it there if that is still the
  /// current epoch; otherwise counts it out again and says so, and the reader tries again.
  @inline(__always)
  func enter(observed: Int) -> Bool {
    announce(observed)
    return confirm(observed)
  }

  /// The first half of ``enter(observed:)``: counts a reader in `observed`. Apart for tests, which
  /// put an edit between the halves.
  @inline(__always)
  func announce(_ observed: Int) {
    _ = count(observed, by: 1)
  }

  /// The second half of ``enter(observed:)``: whether `observed` is still the current epoch;
  /// if not, counts the reader out again.
  @inline(__always)
  func confirm(_ observed: Int) -> Bool {
    if epoch.load(ordering: .sequentiallyConsistent) == observed { return true }
    // Counted in an epoch a writer has left, maybe two or more epochs ago (same parity as the
    // one a batch waits for): leaving may be what the batch waited for.
    leave(observed)
    return false
  }

  /// Counts a reader out of `epoch`; the last out of the counter a batch waits on frees it. The
  /// counters are compared, not the epochs: a reader that counted itself in a stale epoch of the
  /// same parity held the batch up too.
  @inline(__always)
  private func leave(_ epoch: Int) {
    guard count(epoch, by: -1) == 0 else { return }
    let waiting = waitingEpoch.load(ordering: .sequentiallyConsistent)
    if waiting >= 0, (waiting ^ epoch) & 1 == 0 { reclaimAsLastReader() }
  }

  /// The epoch readers count in now: for tests.
  var currentEpoch: Int { epoch.load(ordering: .sequentiallyConsistent) }

  /// The last reader of the epoch a batch waits for left: frees the batch, outside the lock.
  @inline(never)
  private func reclaimAsLastReader() {
    let freed = state.withLock { advance(&$0) }
    withExtendedLifetime(freed) {}
  }

  /// The object in force, retained: for editors and inspection, not for calls.
  var value: Value { state.withLock { $0.current } }

  /// Runs `body` with the object in force under the cell's lock, which keeps writers out.
  func withCurrent<Result>(_ body: (Value) -> Result) -> Result {
    state.withLock { body($0.current) }
  }

  /// Replaced objects that no reader can reach any more: their owner lets go of them outside
  /// every lock of its own (an object's last release may run code that takes them). One object,
  /// what an edit without readers frees, is held without an array.
  struct Freed {
    private var first: Value?
    private var rest: [Value] = []

    init() {}

    fileprivate init(_ object: Value) { first = object }

    fileprivate init(_ objects: [Value]) { rest = objects }

    /// Takes over `other`'s objects.
    mutating func take(_ other: consuming Freed) {
      if first == nil {
        first = other.first
      } else if let object = other.first {
        rest.append(object)
      }
      rest.append(contentsOf: other.rest)
    }

    /// How many objects it holds.
    var count: Int { (first == nil ? 0 : 1) + rest.count }

    /// The objects, retained.
    var objects: [Value] { (first.map { [$0] } ?? []) + rest }
  }

  /// Publishes what `edit` makes of the object in force, and returns the replaced objects that
  /// no reader can reach any more (``Freed``): this one when no reader was reading it, earlier
  /// ones whose last reader has left meanwhile.
  func replace(_ edit: (Value) -> Value) -> Freed {
    state.withLock { state in
      let replaced = state.current
      let edited = edit(replaced)
      guard edited !== replaced else { return Freed() }
      state.current = edited
      published.store(
        UnsafeRawPointer(Unmanaged.passUnretained(edited).toOpaque()),
        ordering: .sequentiallyConsistent)
      guard state.inFlight.isEmpty, state.next.isEmpty else {
        state.next.append(replaced)
        return advance(&state)
      }
      // Nothing waits: the epoch moves on at once, and without readers the object goes now.
      let left = epoch.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue
      waitingEpoch.store(left, ordering: .sequentiallyConsistent)
      guard readers(of: left) == 0 else {
        state.inFlight.append(replaced)
        return Freed()
      }
      waitingEpoch.store(-1, ordering: .sequentiallyConsistent)
      return Freed(replaced)
    }
  }

  /// Under the lock: frees the batch in flight if its readers left, then sends the next batch
  /// on its way (the epoch moves on) if there is one; returns what may be freed.
  private func advance(_ state: inout State) -> Freed {
    var freed: [Value] = []
    if !state.inFlight.isEmpty, readers(of: epoch.load(ordering: .sequentiallyConsistent) - 1) == 0
    {
      swap(&freed, &state.inFlight)
    }
    if state.inFlight.isEmpty, !state.next.isEmpty {
      swap(&state.inFlight, &state.next)
      let left = epoch.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue
      // Announced before the count is read: a reader that leaves after the read sees it.
      waitingEpoch.store(left, ordering: .sequentiallyConsistent)
      if readers(of: left) == 0 {
        freed.append(contentsOf: state.inFlight)
        state.inFlight = []
      }
    }
    if state.inFlight.isEmpty {
      waitingEpoch.store(-1, ordering: .sequentiallyConsistent)
    }
    return Freed(freed)
  }

  /// How many replaced objects wait to be freed: for tests.
  var retiredCount: Int { state.withLock { $0.inFlight.count + $0.next.count } }
}
