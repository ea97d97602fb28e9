// One hooked method in one class: the libffi closure installed as its IMP, the hooks on it, and
// the call that reads their lists (HookLists.swift) as one snapshot.
import ObjCRuntime
import Synchronization

/// One installed hook: its position, options and body, and where it lives.
///
/// `@unchecked Sendable`: every stored property is immutable except `runState` and `removed`,
/// which are atomics; the object is held weakly and only read.
internal final class HookEntry: @unchecked Sendable {
  let position: HookPosition
  let body: HookBody
  /// The site the hook is in.
  let site: HookSite
  /// The hooked object, for a per-object hook; nil for a class-wide one.
  let objectKey: ObjectIdentifier?
  weak let object: ObjCObject?
  /// The plugin that installed the hook, if one was installing.
  let owner: String?
  /// Whether the hook ran, and whether it runs once: one byte, so that a call of a hook that ran
  /// before, the common case, tests one value (``RunState``).
  private let runState: Atomic<UInt8>
  /// Set when the hook was removed.
  let removed = Atomic<Bool>(false)
  /// When the hook was made, relative to other hooks and runtime changes.
  let sequence = ChangeSequence.next()

  init(
    position: HookPosition, once: Bool, site: HookSite, object: ObjCObject?, owner: String?,
    body: HookBody
  ) {
    self.position = position
    self.runState = Atomic(once ? RunState.onceReady : RunState.ready)
    self.site = site
    self.objectKey = object.map(ObjectIdentifier.init)
    self.object = object
    self.owner = owner
    self.body = body
  }

  /// Runs the body with `invocation` unless it is a `once` hook that already ran, and says
  /// whether it ran; removes a `once` hook after it ran.
  @inline(__always) @discardableResult
  func run(_ invocation: HookInvocation) -> Bool {
    runUnlessFired { body.frame(invocation) }
  }

  /// Runs the body's register entry with `registers`, as ``run(_:)-(HookInvocation)`` runs it
  /// with a frame.
  ///
  /// - Precondition: `body.takesRegisters`.
  @inline(__always) @discardableResult
  func run(_ registers: HookRegisters) -> Bool {
    runUnlessFired { body.registers(registers) }
  }

  /// Runs the body's register entry as the link of an `instead` chain that `registers` is at;
  /// a `once` hook that already ran (in another call, or earlier in this one, when an outer
  /// link calls its original twice) passes the call on to the next link.
  ///
  /// A hook that ran before, the common case, ends in its body's call.
  @inline(__always)
  func runInChain(_ registers: HookRegisters) {
    if runState.load(ordering: .relaxed) == RunState.ran { return body.registers(registers) }
    runInChainUnlessFired(registers)
  }

  /// ``runInChain(_:)`` for a hook that never ran, or a `once` hook.
  @inline(never)
  private func runInChainUnlessFired(_ registers: HookRegisters) {
    if !run(registers) { registers.invokeOriginal() }
  }

  /// Whether any call ran the hook: the hook map tells hooks that never fired.
  var hasRun: Bool {
    let state = runState.load(ordering: .relaxed)
    return state == RunState.ran || state == RunState.onceFired
  }

  /// The values of ``runState``: a hook that is not `once` goes from `ready` to `ran` the first
  /// time it runs; a `once` hook from `onceReady` to `onceFired`, by the one call that runs it.
  private enum RunState {
    static let ready: UInt8 = 0
    static let ran: UInt8 = 1
    static let onceReady: UInt8 = 2
    static let onceFired: UInt8 = 3
  }

  @inline(__always)
  private func runUnlessFired(_ run: () -> Void) -> Bool {
    // One relaxed load and one compare per call once the hook ran.
    let state = runState.load(ordering: .relaxed)
    var fires = false
    if state != RunState.ran {
      guard let once = claimRun(state) else { return false }
      fires = once
    }
    run()
    if fires { removeAfterItsOneRun() }
    return true
  }

  /// Removes a `once` hook after its one run. Out of line: inlined, the engine's lock made every
  /// hooked call set up what only this call needs.
  @inline(never)
  private func removeAfterItsOneRun() {
    HookEngine.remove(self)
  }

  /// Claims a call of a hook that never ran, or of a `once` hook: nil when the call must not run
  /// it (a `once` hook another call ran), else whether it is the `once` hook's one run. The
  /// first call of a hook sets the state; only the call that changes `onceReady` to `onceFired`
  /// runs a `once` hook.
  @inline(never)
  private func claimRun(_ state: UInt8) -> Bool? {
    switch state {
    case RunState.ready:
      // Two first calls may both store it: the same value.
      runState.store(RunState.ran, ordering: .relaxed)
      return false
    case RunState.onceReady:
      let claimed = runState.compareExchange(
        expected: RunState.onceReady, desired: RunState.onceFired,
        ordering: .acquiringAndReleasing
      ).exchanged
      return claimed ? true : nil
    default:
      return nil
    }
  }
}

/// How a site's interceptor sits in its class.
internal enum SiteInstallation: Equatable {
  /// Not installed: the method has its own implementation again.
  case none
  /// The class's own method runs the interceptor; `original` was its implementation.
  case replaced
  /// The class only inherited the method; the interceptor was added to it and stays for good,
  /// calling the superclass's current implementation when no hook is left.
  case added
  /// Someone replaced the interceptor after it was installed; the site passes calls through
  /// when it is reached and is never reinstalled over them.
  case passThrough(by: String)
}

/// A hooked (class, selector): the libffi closure that is the method's IMP while hooks are on it.
///
/// Sites live as long as the process: once an interceptor's IMP was handed out, someone (a
/// swizzle on top, a cache) may still call it, and it must keep working as a pass-through.
///
/// `@unchecked Sendable`: `snapshots` is safe to read from any thread (``EpochCell``) and written
/// under its lock; `installation` and `method` only under ``HookEngine``'s lock; the rest is
/// immutable after init.
internal final class HookSite: InterceptionHandler, @unchecked Sendable {
  let cls: Class
  let selector: Selector
  let signature: MethodSignature
  let method: MethodReference
  /// Whether the method returns an object, which the return slot then holds retained.
  let returnsObject: Bool
  /// `cls`'s superclass, read on the calls of a method the class inherits: borrowed, since `cls`
  /// holds it for good (a class's superclass never changes).
  private let superclass: BorrowedReference<Class>?
  /// Set once, in ``make(cls:selector:signature:)``, before the site is shared.
  private(set) var interceptor: Interceptor!
  /// The hooks in force, which calls read without a lock or a reference count.
  let snapshots: EpochCell<SiteSnapshot>
  /// Whether the snapshot in force ``SiteSnapshot/takesRegisters``, set as it is replaced: a
  /// call of a register-shape method reads it first, and lays out a frame at once when it is
  /// false. A call that sees it out of step with the snapshot it then reads still runs right
  /// (the snapshot decides), only by the slower way.
  private let snapshotTakesRegisters = Atomic<Bool>(true)
  /// The calls that ran their hooks on the registers, by the way they took, counted in debug
  /// builds only: for tests, which cannot tell otherwise. A `RuntimeLock`, not a `Mutex`:
  /// ThreadSanitizer cannot see the standard library's locking, and reported the counts of two
  /// threads' calls as a race.
  let registerCalls = RuntimeLock<[SiteSnapshot.RegisterWay: Int]>([:])
  /// Under ``HookEngine``'s lock.
  var installation: SiteInstallation = .none
  /// The method the interceptor is the IMP of, under ``HookEngine``'s lock.
  var installedMethod: Method?

  private init(cls: Class, selector: Selector, signature: MethodSignature) {
    self.cls = cls
    self.selector = selector
    self.signature = signature
    self.method = MethodReference(owner: cls, selector: selector)
    self.superclass = cls.superclass.map(BorrowedReference.init)
    self.returnsObject = signature.returnsObject
    self.snapshots = EpochCell(SiteSnapshot.empty)
  }

  static func make(cls: Class, selector: Selector, signature: MethodSignature)
    throws(HookError) -> HookSite
  {
    let site = HookSite(cls: cls, selector: selector, signature: signature)
    do {
      // The site and its interceptor refer to each other on purpose: sites are immortal.
      site.interceptor = try Interceptor(types: signature.typeEncoding, handler: site)
    } catch {
      throw .runtime(error)
    }
    return site
  }

  /// Replaces the snapshot with what `edit` makes of it, and returns the snapshots replaced
  /// (this one or earlier ones) that no call reads any more, for the caller to let go of outside
  /// every lock: a removed hook may go with them, and what its body captured (an object with
  /// hooks of its own) may take the engine's lock as it dies. A snapshot that a running call may
  /// still read goes later, with the last such call (``EpochCell``).
  func replaceSnapshot(_ edit: (SiteSnapshot) -> SiteSnapshot) -> EpochCell<SiteSnapshot>.Freed {
    snapshots.replace { snapshot in
      let edited = edit(snapshot)
      snapshotTakesRegisters.store(edited.takesRegisters, ordering: .relaxed)
      return edited
    }
  }

  /// Sets the flag a call reads before the snapshot, out of step with the snapshot: for the test
  /// of the way a call takes when an edit came between the two reads.
  func setRegisterFlagForTests(_ value: Bool) {
    snapshotTakesRegisters.store(value, ordering: .relaxed)
  }

  /// The implementation of the method for this call when no `instead` hook is left.
  @inline(__always)
  func originalImplementation(_ original: IMP?) -> IMP {
    if let original { return original }
    guard let superclass else { return .forward }
    return superclass.with { $0.methodImplementation(for: selector) }
  }

  /// One call of the hooked method: before hooks, the instead chain (or the original), after
  /// hooks, all from one snapshot.
  func intercept(_ call: InterceptedCall) {
    // The snapshot stays alive for the whole call, and keeps its lists alive: the rest reads
    // them borrowed.
    snapshots.read { borrowed in
      borrowed.with { snapshot in
        let classHooks = snapshot.borrowedClassHooks
        let objectHooks =
          snapshot.hasObjectHooks ? snapshot.hooks(of: call.receiverIdentity) : nil
        intercept(call, snapshot, classHooks, objectHooks)
      }
    }
  }

  /// One call of a hooked method whose arguments are all integer-class registers: when every
  /// hook the call runs has a register entry (typed `before`, observing `after` and `instead`
  /// hooks), the hooks read the registers and the original gets them as they arrived (or as an
  /// `instead` hook passed them on), with no frame laid out and no shape dispatched on;
  /// otherwise the call is laid out as a frame.
  ///
  /// Inlined into the protocol's witness, the one caller, which was otherwise a jump here.
  @inline(__always)
  func intercept(registers call: RegisterCall) -> UInt64 {
    guard snapshotTakesRegisters.load(ordering: .relaxed) else { return interceptInFrame(call) }
    return snapshots.read { borrowed in
      borrowed.with { snapshot in
        // One test for the short way, of a field of its own (tests of the way itself were
        // merged, and the short way paid for the others'), then the others'. Each way is a
        // function of its own: when they shared one, the chain's call paid the registers the
        // per-object way's loops save. Tests rather than a `switch`, whose jump table cost the
        // chain's call five more instructions (three more for the short way, in this function).
        guard snapshot.takesShortWay else {
          let way = snapshot.registerWay
          if way == .classChain { return interceptClassChain(call, snapshot) }
          if way == .objectHooks { return interceptObjectHooks(call, snapshot) }
          return interceptOnRegisters(call, snapshot)
        }
        // Class-wide hooks only, no `instead` hook: the way most hooked calls take, kept short
        // (the others' lookups and chain cost it spilled registers when they shared its frame).
        countRegisterCall(.classHooks)
        return runAroundOriginal(call, snapshot, snapshot.borrowedClassHooks, objectHooks: nil)
      }
    }
  }

  /// Runs `hooks`' before hooks, the original and their after hooks on the registers: the
  /// short way's call (`hooks` are the class-wide ones) and the per-object way's (the
  /// receiver's), which have no `instead` hook.
  @inline(__always)
  private func runAroundOriginal(
    _ call: RegisterCall, _ snapshot: SiteSnapshot, _ hooks: BorrowedReference<HookList>,
    objectHooks: BorrowedReference<HookList>?
  ) -> UInt64 {
    HookRegisters.with(
      call: call, site: self, classHooks: snapshot.borrowedClassHooks, objectHooks: objectHooks,
      original: snapshot.original, chainLength: 0
    ) { registers in
      let (before, after) = hooks.with { ($0.before, $0.after) }
      HookList.run(before, registers)
      call.resultWord = call.callOriginal(originalImplementation(snapshot.original))
      HookList.run(after, registers)
      return call.resultWord
    }
  }

  /// Counts a call that ran its hooks on the registers the way `way` does, in debug builds.
  @inline(__always)
  private func countRegisterCall(_ way: SiteSnapshot.RegisterWay) {
    #if DEBUG
      registerCalls.withLock { $0[way, default: 0] += 1 }
    #endif
  }

  /// A register call with class-wide hooks only, all on the registers, and an `instead` chain:
  /// the usual `instead` hook, without the receiver's lookup. A chain without `before` or
  /// `after` hooks (the usual `instead` hook) saves no register for them.
  @inline(never)
  private func interceptClassChain(_ call: RegisterCall, _ snapshot: SiteSnapshot) -> UInt64 {
    countRegisterCall(.classChain)
    guard snapshot.borrowedClassHooks.with({ $0.before.isEmpty && $0.after.isEmpty }) else {
      return interceptClassChainAround(call, snapshot)
    }
    return runClassChain(call, snapshot, around: nil)
  }

  /// ``interceptClassChain(_:_:)`` with `before` or `after` hooks around the chain.
  @inline(never)
  private func interceptClassChainAround(_ call: RegisterCall, _ snapshot: SiteSnapshot)
    -> UInt64
  {
    let around = snapshot.borrowedClassHooks.with { ($0.before, $0.after) }
    return runClassChain(call, snapshot, around: around)
  }

  /// Runs the class-wide chain from its outermost link, between the `before` and `after` hooks
  /// `around` gives (none when nil: a constant at both callers, so each compiles to its own).
  @inline(__always)
  private func runClassChain(
    _ call: RegisterCall, _ snapshot: SiteSnapshot,
    around: (before: HookList.Entries, after: HookList.Entries)?
  ) -> UInt64 {
    let classHooks = snapshot.borrowedClassHooks
    let instead = classHooks.with { $0.instead }
    return HookRegisters.with(
      call: call, site: self, classHooks: classHooks, objectHooks: nil,
      original: snapshot.original, chainLength: instead.count
    ) { registers in
      if let around { HookList.run(around.before, registers) }
      // The outermost link (the newest hook) runs from here: the chain's walk starts past it.
      BorrowedReference(instead[instead.count &- 1]).with { $0.runInChain(registers) }
      if let around { HookList.run(around.after, registers) }
      return call.resultWord
    }
  }

  /// A register call at a site with per-object hooks only: the receiver's hooks, when they
  /// take the registers and have no `instead` hook, run around the original; any others go the
  /// general way.
  @inline(never)
  private func interceptObjectHooks(_ call: RegisterCall, _ snapshot: SiteSnapshot) -> UInt64 {
    let found = snapshot.hooks(of: call.receiverIdentity)
    guard let objectHooks = found, objectHooks.with({ $0.runsAroundOriginalOnRegisters }) else {
      return interceptOnRegisters(call, snapshot, objectHooks: found)
    }
    countRegisterCall(.objectHooks)
    return runAroundOriginal(call, snapshot, objectHooks, objectHooks: objectHooks)
  }

  /// A register call the general way: class-wide and per-object hooks at one site, a
  /// per-object `instead` hook, or hooks that need a frame (and a call whose flag was read
  /// before an edit). The receiver's hooks are found here.
  @inline(never)
  private func interceptOnRegisters(_ call: RegisterCall, _ snapshot: SiteSnapshot) -> UInt64 {
    let objectHooks =
      snapshot.hasObjectHooks ? snapshot.hooks(of: call.receiverIdentity) : nil
    return interceptOnRegisters(call, snapshot, objectHooks: objectHooks)
  }

  /// ``interceptOnRegisters(_:_:)`` with the receiver's hooks found (the per-object way sends
  /// its receivers with an `instead` hook or a frame hook here). Out of line, once for both: the
  /// optimizer kept it out of line even when asked to inline it.
  @inline(never)
  private func interceptOnRegisters(
    _ call: RegisterCall, _ snapshot: SiteSnapshot, objectHooks: BorrowedReference<HookList>?
  ) -> UInt64 {
    let classHooks = snapshot.borrowedClassHooks
    guard snapshot.takesRegisters, objectHooks?.with({ $0.takesRegisters }) ?? true else {
      // The receiver's own hooks need a frame, or an edit came since the flag was read:
      // the snapshot decides.
      return interceptInFrame(call, snapshot, classHooks, objectHooks)
    }
    countRegisterCall(.general)
    let chainLength = HookList.chainLength(classHooks, objectHooks)
    return HookRegisters.with(
      call: call, site: self, classHooks: classHooks, objectHooks: objectHooks,
      original: snapshot.original, chainLength: chainLength
    ) { registers in
      // In the frame's order: class-wide before per-object before, per-object after before
      // class-wide after.
      let (classBefore, classAfter) = classHooks.with { ($0.before, $0.after) }
      HookList.run(classBefore, registers)
      if let objectHooks { HookList.run(objectHooks.with { $0.before }, registers) }
      if chainLength == 0 {
        call.resultWord = call.callOriginal(originalImplementation(snapshot.original))
      } else {
        registers.runInsteadChain()
      }
      if let objectHooks { HookList.run(objectHooks.with { $0.after }, registers) }
      HookList.run(classAfter, registers)
      return call.resultWord
    }
  }

  // The frame ways of a register call, out of line: inlined, their frames cost the register way
  // a stack check and saved registers on every call.

  /// A register call laid out as a frame, which reads the snapshot itself.
  @inline(never)
  private func interceptInFrame(_ call: RegisterCall) -> UInt64 {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: RegisterCall.frameWords) { frame in
      let base = frame.baseAddress.unsafelyUnwrapped
      intercept(call.layOut(in: base))
      return RegisterCall.result(in: base)
    }
  }

  /// A register call laid out as a frame, with the snapshot it read.
  @inline(never)
  private func interceptInFrame(
    _ call: RegisterCall, _ snapshot: SiteSnapshot, _ classHooks: BorrowedReference<HookList>,
    _ objectHooks: BorrowedReference<HookList>?
  ) -> UInt64 {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: RegisterCall.frameWords) { frame in
      let base = frame.baseAddress.unsafelyUnwrapped
      intercept(call.layOut(in: base), snapshot, classHooks, objectHooks)
      return RegisterCall.result(in: base)
    }
  }

  @inline(__always)
  private func intercept(
    _ call: InterceptedCall, _ snapshot: SiteSnapshot, _ classHooks: BorrowedReference<HookList>,
    _ objectHooks: BorrowedReference<HookList>?
  ) {
    do {
      if returnsObject { call.uncheckedSetRawReturnValue(UnsafeRawPointer?.none) }
      let original = snapshot.original
      // Each position gets a view of its own, made only when a hook is there to get it: a view
      // made for the call it is passed to is not copied, as one variable changed between the
      // positions was.
      func invocation(at position: HookPosition) -> HookInvocation {
        HookInvocation(
          call: call, site: self, classHooks: classHooks, objectHooks: objectHooks,
          original: original, position: position)
      }
      let (classBefore, classAfter) = classHooks.with { ($0.before, $0.after) }
      let objectBefore = objectHooks?.with { $0.before } ?? HookList.Entries()
      if !classBefore.isEmpty || !objectBefore.isEmpty {
        let before = invocation(at: .before)
        HookList.run(classBefore, before)
        HookList.run(objectBefore, before)
      }
      if HookList.noInstead(classHooks, objectHooks) {
        // No instead hook: straight to the original.
        if returnsObject { invocation(at: .instead).releaseReturnedObject() }
        call.forward(to: originalImplementation(original))
      } else {
        var instead = invocation(at: .instead)
        instead.proceed()
      }
      let objectAfter = objectHooks?.with { $0.after } ?? HookList.Entries()
      if !classAfter.isEmpty || !objectAfter.isEmpty {
        let after = invocation(at: .after)
        HookList.run(objectAfter, after)
        HookList.run(classAfter, after)
      }
    }
  }
}
