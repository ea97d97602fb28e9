// One hooked method in one class: the libffi closure installed as its IMP, the hooks on it, and
// the call that reads their lists (HookLists.swift) as one snapshot.
import ObjCRuntime
import Synchronization

/// One installed hook: its position, options and body, and where it lives.
///
/// `@unchecked Sendable`: every stored property is immutable except `fired`, `hasRun` and
/// `removed`, which are atomics; the object is held weakly and only read.
internal final class HookEntry: @unchecked Sendable {
  let position: HookPosition
  let once: Bool
  let body: HookBody
  /// The site the hook is in.
  let site: HookSite
  /// The hooked object, for a per-object hook; nil for a class-wide one.
  let objectKey: ObjectIdentifier?
  weak let object: ObjCObject?
  /// The plugin that installed the hook, if one was installing.
  let owner: String?
  /// Set by the one call that runs a `once` hook.
  let fired = Atomic<Bool>(false)
  /// Set by the first call that runs any hook: the hook map tells hooks that never fired.
  let hasRun = Atomic<Bool>(false)
  /// Set when the hook was removed.
  let removed = Atomic<Bool>(false)
  /// When the hook was made, relative to other hooks and runtime changes.
  let sequence = ChangeSequence.next()

  init(
    position: HookPosition, once: Bool, site: HookSite, object: ObjCObject?, owner: String?,
    body: HookBody
  ) {
    self.position = position
    self.once = once
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

  @inline(__always)
  private func runUnlessFired(_ run: () -> Void) -> Bool {
    guard once else {
      // One load per call once set: a relaxed flag, not a counter.
      if !hasRun.load(ordering: .relaxed) { hasRun.store(true, ordering: .relaxed) }
      run()
      return true
    }
    guard
      fired.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        .exchanged
    else { return false }
    hasRun.store(true, ordering: .relaxed)
    run()
    HookEngine.remove(self)
    return true
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
  /// The calls that ran their hooks on the registers, counted in debug builds only: for tests,
  /// which cannot tell otherwise.
  let registerCalls = Atomic<Int>(0)
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
  func intercept(registers call: RegisterCall) -> UInt64 {
    guard snapshotTakesRegisters.load(ordering: .relaxed) else { return interceptInFrame(call) }
    return snapshots.read { borrowed in
      borrowed.with { snapshot in
        let classHooks = snapshot.borrowedClassHooks
        let objectHooks =
          snapshot.hasObjectHooks ? snapshot.hooks(of: call.receiverIdentity) : nil
        guard snapshot.takesRegisters, objectHooks?.with({ $0.takesRegisters }) ?? true else {
          // The receiver's own hooks need a frame, or an edit came since the flag was read:
          // the snapshot decides.
          return interceptInFrame(call, snapshot, classHooks, objectHooks)
        }
        #if DEBUG
          registerCalls.add(1, ordering: .relaxed)
        #endif
        let registers = HookRegisters(
          call: call, site: self, classHooks: classHooks, objectHooks: objectHooks,
          original: snapshot.original)
        // In the frame's order: class-wide before per-object before, per-object after before
        // class-wide after.
        let (classBefore, classAfter) = classHooks.with { ($0.before, $0.after) }
        HookList.run(classBefore, registers)
        if let objectHooks { HookList.run(objectHooks.with { $0.before }, registers) }
        if HookList.noInstead(classHooks, objectHooks) {
          call.resultWord = call.callOriginal(originalImplementation(snapshot.original))
        } else {
          registers.runInsteadChain()
        }
        if let objectHooks { HookList.run(objectHooks.with { $0.after }, registers) }
        HookList.run(classAfter, registers)
        return call.resultWord
      }
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
