// One hooked method in one class: the libffi closure installed as its IMP, and the hook lists
// every call reads as one snapshot.
import ObjCRuntime
import Synchronization

/// One installed hook: its position, options and body, and where it lives.
///
/// `@unchecked Sendable`: every stored property is immutable except `fired`, `hasRun` and
/// `removed`, which are atomics; the object is held weakly and only read.
internal final class HookEntry: @unchecked Sendable {
  let position: HookPosition
  let once: Bool
  let body: @Sendable (HookInvocation) -> Void
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
    body: @escaping @Sendable (HookInvocation) -> Void
  ) {
    self.position = position
    self.once = once
    self.site = site
    self.objectKey = object.map(ObjectIdentifier.init)
    self.object = object
    self.owner = owner
    self.body = body
  }

  /// Runs the body unless it is a `once` hook that already ran, and says whether it ran;
  /// removes a `once` hook after it ran.
  @inline(__always) @discardableResult
  func run(_ invocation: HookInvocation) -> Bool {
    guard once else {
      // One load per call once set: a relaxed flag, not a counter.
      if !hasRun.load(ordering: .relaxed) { hasRun.store(true, ordering: .relaxed) }
      body(invocation)
      return true
    }
    guard
      fired.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        .exchanged
    else { return false }
    hasRun.store(true, ordering: .relaxed)
    body(invocation)
    HookEngine.remove(self)
    return true
  }
}

/// The hooks of one method at one moment, by position, in the order they were added. Immutable:
/// an edit makes a new list, so a call that took the list sees every hook or none of a change.
///
/// Calls read the entries through buffers of unmanaged references, which the arrays keep alive:
/// walking them costs no reference counting.
///
/// `@unchecked Sendable`: immutable after init; the buffers are only read.
internal final class HookList: @unchecked Sendable {
  let before: [HookEntry]
  let instead: [HookEntry]
  let after: [HookEntry]
  let beforeBuffer: UnsafeBufferPointer<Unmanaged<HookEntry>>
  let insteadBuffer: UnsafeBufferPointer<Unmanaged<HookEntry>>
  let afterBuffer: UnsafeBufferPointer<Unmanaged<HookEntry>>

  static let empty = HookList(before: [], instead: [], after: [])

  init(before: [HookEntry], instead: [HookEntry], after: [HookEntry]) {
    self.before = before
    self.instead = instead
    self.after = after
    beforeBuffer = HookList.buffer(before)
    insteadBuffer = HookList.buffer(instead)
    afterBuffer = HookList.buffer(after)
  }

  deinit {
    beforeBuffer.deallocate()
    insteadBuffer.deallocate()
    afterBuffer.deallocate()
  }

  private static func buffer(_ entries: [HookEntry]) -> UnsafeBufferPointer<Unmanaged<HookEntry>> {
    let buffer = UnsafeMutableBufferPointer<Unmanaged<HookEntry>>.allocate(capacity: entries.count)
    _ = buffer.initialize(from: entries.map(Unmanaged.passUnretained))
    return UnsafeBufferPointer(buffer)
  }

  /// Runs every entry of `entries` with `invocation`, without reference counting.
  @inline(__always)
  static func run(
    _ entries: UnsafeBufferPointer<Unmanaged<HookEntry>>, _ invocation: HookInvocation
  ) {
    for entry in entries {
      _ = entry._withUnsafeGuaranteedRef { $0.run(invocation) }
    }
  }

  var isEmpty: Bool { before.isEmpty && instead.isEmpty && after.isEmpty }
  var all: [HookEntry] { before + instead + after }

  func adding(_ entry: HookEntry) -> HookList {
    switch entry.position {
    case .before: HookList(before: before + [entry], instead: instead, after: after)
    case .instead: HookList(before: before, instead: instead + [entry], after: after)
    case .after: HookList(before: before, instead: instead, after: after + [entry])
    }
  }

  func removing(_ entry: HookEntry) -> HookList {
    HookList(
      before: before.filter { $0 !== entry }, instead: instead.filter { $0 !== entry },
      after: after.filter { $0 !== entry })
  }
}

/// What a call of a site reads, in one lock: the class-wide hooks, the per-object hooks, and the
/// implementation to call when the hooks are done.
/// `@unchecked Sendable`: immutable after init; the pair buffer is only read.
internal final class SiteSnapshot: @unchecked Sendable {
  let classHooks: HookList
  let objectHooks: [ObjectIdentifier: HookList]
  /// The implementation the hooks wrap; nil when the hooked class only inherits the method, so
  /// each call asks the superclass for its *current* implementation.
  let original: IMP?

  /// `classHooks`, for calls, which hold the snapshot.
  let unmanagedClassHooks: Unmanaged<HookList>

  /// The per-object lists as (object, list) pairs, searched linearly when there are few: a
  /// dictionary lookup hashes the identifier, which costs more than a short scan.
  private let objectPairs: UnsafeBufferPointer<(ObjectIdentifier, Unmanaged<HookList>)>
  private static let scanLimit = 16

  init(classHooks: HookList, objectHooks: [ObjectIdentifier: HookList], original: IMP?) {
    self.classHooks = classHooks
    self.unmanagedClassHooks = Unmanaged.passUnretained(classHooks)
    let pairs = UnsafeMutableBufferPointer<(ObjectIdentifier, Unmanaged<HookList>)>.allocate(
      capacity: objectHooks.count <= SiteSnapshot.scanLimit ? objectHooks.count : 0)
    if objectHooks.count <= SiteSnapshot.scanLimit {
      _ = pairs.initialize(from: objectHooks.map { ($0.key, Unmanaged.passUnretained($0.value)) })
    }
    self.objectPairs = UnsafeBufferPointer(pairs)
    self.objectHooks = objectHooks
    self.original = original
  }

  var isEmpty: Bool { classHooks.isEmpty && objectHooks.isEmpty }

  deinit {
    objectPairs.deallocate()
  }

  /// The hooks of `object`, if it has any here, unretained: the snapshot keeps them alive.
  @inline(__always)
  func hooks(of object: ObjectIdentifier) -> Unmanaged<HookList>? {
    if objectHooks.count <= SiteSnapshot.scanLimit {
      for (key, list) in objectPairs where key == object { return list }
      return nil
    }
    return objectHooks[object].map(Unmanaged.passUnretained)
  }

  func with(
    classHooks: HookList? = nil, objectHooks: [ObjectIdentifier: HookList]? = nil,
    original: IMP?? = nil
  ) -> SiteSnapshot {
    SiteSnapshot(
      classHooks: classHooks ?? self.classHooks, objectHooks: objectHooks ?? self.objectHooks,
      original: original ?? self.original)
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
/// `@unchecked Sendable`: `snapshot` is read and written under its lock; `installation` and
/// `method` only under ``HookEngine``'s lock; the rest is immutable after init.
internal final class HookSite: InterceptionHandler, @unchecked Sendable {
  let cls: Class
  let selector: Selector
  let signature: MethodSignature
  let method: MethodReference
  /// Whether the method returns an object, which the return slot then holds retained.
  let returnsObject: Bool
  /// Set once, in ``make(cls:selector:signature:)``, before the site is shared.
  private(set) var interceptor: Interceptor!
  let snapshot: RuntimeLock<SiteSnapshot>
  /// Under ``HookEngine``'s lock.
  var installation: SiteInstallation = .none
  /// The method the interceptor is the IMP of, under ``HookEngine``'s lock.
  var installedMethod: Method?

  private init(cls: Class, selector: Selector, signature: MethodSignature) {
    self.cls = cls
    self.selector = selector
    self.signature = signature
    self.method = MethodReference(owner: cls, selector: selector)
    let code = signature.methodReturnType.utf8.first { !"rnNoORV".utf8.contains($0) }
    self.returnsObject = code == UInt8(ascii: "@") || code == UInt8(ascii: "#")
    self.snapshot = RuntimeLock(
      SiteSnapshot(classHooks: .empty, objectHooks: [:], original: nil))
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

  /// The implementation of the method for this call when no `instead` hook is left.
  @inline(__always)
  func originalImplementation(_ original: IMP?) -> IMP {
    if let original { return original }
    return cls.superclass?.methodImplementation(for: selector) ?? .forward
  }

  /// One call of the hooked method: before hooks, the instead chain (or the original), after
  /// hooks, all from one snapshot.
  func intercept(_ call: InterceptedCall) {
    let snapshot = self.snapshot.withLock { $0 }
    // The snapshot keeps its lists alive for the whole call: the rest reads them unmanaged.
    defer { withExtendedLifetime(snapshot) {} }
    do {
      let classHooks = snapshot.unmanagedClassHooks
      var objectHooks: Unmanaged<HookList>?
      if !snapshot.objectHooks.isEmpty {
        objectHooks = snapshot.hooks(
          of: ObjectIdentifier(call.unmanagedReceiver._withUnsafeGuaranteedRef { $0 }))
      }
      if returnsObject { call.uncheckedSetRawReturnValue(UnsafeRawPointer?.none) }
      var invocation = HookInvocation(
        call: call, site: self, classHooks: classHooks, objectHooks: objectHooks,
        original: snapshot.original, position: .before)
      let (classBefore, classAfter) = classHooks._withUnsafeGuaranteedRef {
        ($0.beforeBuffer, $0.afterBuffer)
      }
      HookList.run(classBefore, invocation)
      if let objectHooks {
        HookList.run(objectHooks._withUnsafeGuaranteedRef { $0.beforeBuffer }, invocation)
      }
      invocation.position = .instead
      let noInstead =
        classHooks._withUnsafeGuaranteedRef { $0.insteadBuffer.isEmpty }
        && (objectHooks?._withUnsafeGuaranteedRef { $0.insteadBuffer.isEmpty } ?? true)
      if noInstead {
        // No instead hook: straight to the original.
        invocation.releaseReturnedObject()
        call.forward(to: originalImplementation(snapshot.original))
      } else {
        invocation.proceed()
      }
      invocation.position = .after
      if let objectHooks {
        HookList.run(objectHooks._withUnsafeGuaranteedRef { $0.afterBuffer }, invocation)
      }
      HookList.run(classAfter, invocation)
    }
  }
}
