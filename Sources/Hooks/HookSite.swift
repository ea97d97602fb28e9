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

/// Keeps objects alive for immutable lists that hold them as unmanaged references, so that an
/// edit copies references without counting them.
///
/// The lists a chain of edits makes, each from the one before, share one keeper, which only
/// grows: an edit appends what it added, and what it removed stays kept, because a call may still
/// be reading an older list. When the kept objects outnumber the live ones (twice, plus a few),
/// the next edit starts a new keeper with the live ones alone, and the old keeper goes with the
/// last list that holds it. An edit then costs a copy of references plus, spread over the edits,
/// about two reference counts: installing beside a thousand hooks no longer retains and releases
/// each of them.
///
/// `@unchecked Sendable`: `objects` is appended to only by an edit, under ``HookEngine``'s lock,
/// while the editor holds a list that holds the keeper; otherwise it is read only by `deinit`,
/// when no list holds the keeper any more.
internal final class Keeper<Object: AnyObject>: @unchecked Sendable {
  private var objects: [Object]

  private init(_ objects: [Object]) {
    self.objects = objects
  }

  /// The keeper of a list edited from one kept by `keeper`, holding `live` objects after the
  /// edit, and `added` if the edit added one: `keeper` itself while the objects it keeps stay
  /// within twice the live ones plus eight, else a new keeper of `live()` alone. Nil for no live
  /// object.
  static func keeper(
    after keeper: Keeper?, liveCount: Int, adding added: Object?, live: () -> [Object]
  ) -> Keeper? {
    guard liveCount > 0 else { return nil }
    if let keeper, keeper.objects.count + (added == nil ? 0 : 1) <= 2 * liveCount + 8 {
      if let added { keeper.objects.append(added) }
      return keeper
    }
    return Keeper(live())
  }
}

/// The hooks of one method at one moment, by position, in the order they were added. Immutable:
/// an edit makes a new list, so a call that took the list sees every hook or none of a change.
///
/// The entries are unmanaged references, kept alive by the list's ``Keeper``: calls walk them
/// without reference counting, and edits copy them without it.
///
/// `@unchecked Sendable`: immutable after init; the buffers are only read.
internal final class HookList: @unchecked Sendable {
  typealias Entries = UnsafeBufferPointer<Unmanaged<HookEntry>>
  let beforeBuffer: Entries
  let insteadBuffer: Entries
  let afterBuffer: Entries
  /// Keeps every entry of the buffers alive, and entries of earlier lists of the same chain of
  /// edits until it is renewed.
  private let keeper: Keeper<HookEntry>?

  static let empty = HookList(
    before: Entries(start: nil, count: 0), instead: .init(start: nil, count: 0),
    after: .init(start: nil, count: 0), keeper: nil)

  private init(before: Entries, instead: Entries, after: Entries, keeper: Keeper<HookEntry>?) {
    self.beforeBuffer = before
    self.insteadBuffer = instead
    self.afterBuffer = after
    self.keeper = keeper
  }

  deinit {
    beforeBuffer.deallocate()
    insteadBuffer.deallocate()
    afterBuffer.deallocate()
  }

  /// Runs every entry of `entries` with `invocation`, without reference counting.
  @inline(__always)
  static func run(_ entries: Entries, _ invocation: HookInvocation) {
    for entry in entries {
      _ = entry._withUnsafeGuaranteedRef { $0.run(invocation) }
    }
  }

  var count: Int { beforeBuffer.count + insteadBuffer.count + afterBuffer.count }
  var isEmpty: Bool { count == 0 }
  /// Every entry, retained: for the hook map and checks, not for calls.
  var all: [HookEntry] {
    [beforeBuffer, insteadBuffer, afterBuffer].flatMap { $0.map { $0.takeUnretainedValue() } }
  }

  func adding(_ entry: HookEntry) -> HookList {
    let added = Unmanaged.passUnretained(entry)
    func grown(_ entries: Entries, _ position: HookPosition) -> Entries {
      let copy = UnsafeMutableBufferPointer<Unmanaged<HookEntry>>.allocate(
        capacity: entries.count + (entry.position == position ? 1 : 0))
      var end = copy.initialize(fromContentsOf: entries)
      if entry.position == position {
        copy.initializeElement(at: end, to: added)
        end += 1
      }
      return Entries(copy)
    }
    let before = grown(beforeBuffer, .before)
    let instead = grown(insteadBuffer, .instead)
    let after = grown(afterBuffer, .after)
    return HookList(
      before: before, instead: instead, after: after,
      keeper: renewedKeeper(liveCount: count + 1, adding: entry, before, instead, after))
  }

  func removing(_ entry: HookEntry) -> HookList {
    let removed = Unmanaged.passUnretained(entry).toOpaque()
    func shrunk(_ entries: Entries) -> Entries {
      let copy = UnsafeMutableBufferPointer<Unmanaged<HookEntry>>.allocate(capacity: entries.count)
      var end = 0
      for kept in entries where kept.toOpaque() != removed {
        copy.initializeElement(at: end, to: kept)
        end += 1
      }
      return Entries(rebasing: copy[..<end])
    }
    let before = shrunk(beforeBuffer)
    let instead = shrunk(insteadBuffer)
    let after = shrunk(afterBuffer)
    let liveCount = before.count + instead.count + after.count
    return HookList(
      before: before, instead: instead, after: after,
      keeper: renewedKeeper(liveCount: liveCount, adding: nil, before, instead, after))
  }

  private func renewedKeeper(liveCount: Int, adding added: HookEntry?, _ lists: Entries...)
    -> Keeper<HookEntry>?
  {
    Keeper.keeper(after: keeper, liveCount: liveCount, adding: added) {
      lists.flatMap { $0.map { $0.takeUnretainedValue() } }
    }
  }
}

/// The per-object hooks of a site at one moment: (object, list) pairs sorted by object, in
/// chunks of at most 64, with the lists unmanaged and kept alive by a ``Keeper``, as a list's
/// entries are. Hooking one more object copies one chunk as plain memory and the chunk table
/// with a reference count per chunk, not per object; a call finds its object by binary searches,
/// without hashing or reference counting.
///
/// `@unchecked Sendable`: immutable after init; the buffers are only read.
internal final class ObjectHookTable: @unchecked Sendable {
  typealias Pair = (object: ObjectIdentifier, list: Unmanaged<HookList>)
  typealias Pairs = UnsafeBufferPointer<Pair>

  /// Pairs sorted by object, shared by the tables that did not edit it.
  final class Chunk: @unchecked Sendable {
    let pairs: Pairs
    init(_ pairs: Pairs) { self.pairs = pairs }
    deinit { pairs.deallocate() }
  }

  /// The chunks, in order of their objects; none is empty.
  private let chunks: [Chunk]
  /// Each chunk's pairs, for calls: `chunks` keeps them alive.
  let chunkPairs: UnsafeBufferPointer<Pairs>
  /// How many objects have hooks.
  let count: Int
  private let keeper: Keeper<HookList>?

  /// A chunk that grows past this splits in two.
  private static let chunkCapacity = 64

  static let empty = ObjectHookTable(chunks: [], count: 0, keeper: nil)

  private init(chunks: [Chunk], count: Int, keeper: Keeper<HookList>?) {
    self.chunks = chunks
    let pairs = UnsafeMutableBufferPointer<Pairs>.allocate(capacity: chunks.count)
    for (index, chunk) in chunks.enumerated() {
      pairs.initializeElement(at: index, to: chunk.pairs)
    }
    self.chunkPairs = UnsafeBufferPointer(pairs)
    self.count = count
    self.keeper = keeper
  }

  deinit {
    chunkPairs.deallocate()
  }

  /// The first index of `pairs` whose object is not below `object`.
  @inline(__always)
  private static func index(of object: ObjectIdentifier, in pairs: Pairs) -> Int {
    var low = 0
    var high = pairs.count
    while low < high {
      let middle = (low + high) / 2
      if pairs[middle].object < object { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The chunk `object` is in, or would go in: the first whose last object is not below it, or
  /// the last chunk.
  @inline(__always)
  private static func chunk(of object: ObjectIdentifier, in chunks: UnsafeBufferPointer<Pairs>)
    -> Int
  {
    var low = 0
    var high = chunks.count - 1
    while low < high {
      let middle = (low + high) / 2
      if chunks[middle][chunks[middle].count - 1].object < object {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// The hooks of `object` in the table whose chunks are `chunks`, unretained.
  @inline(__always)
  static func hooks(of object: ObjectIdentifier, in chunks: UnsafeBufferPointer<Pairs>)
    -> Unmanaged<HookList>?
  {
    guard !chunks.isEmpty else { return nil }
    let pairs = chunks[chunks.count == 1 ? 0 : chunk(of: object, in: chunks)]
    let index = index(of: object, in: pairs)
    guard index < pairs.count, pairs[index].object == object else { return nil }
    return pairs[index].list
  }

  /// The hooks of `object`, retained: for edits.
  func list(of object: ObjectIdentifier) -> HookList {
    Self.hooks(of: object, in: chunkPairs)?.takeUnretainedValue() ?? .empty
  }

  /// Every object's list, retained: for the hook map and checks.
  var lists: [HookList] { chunkPairs.flatMap { $0.map { $0.list.takeUnretainedValue() } } }

  /// This table with `list` as the hooks of `object`, or none when `list` is empty.
  func with(_ list: HookList, for object: ObjectIdentifier) -> ObjectHookTable {
    let position = chunks.isEmpty ? 0 : Self.chunk(of: object, in: chunkPairs)
    let pairs = chunks.isEmpty ? Pairs(start: nil, count: 0) : chunkPairs[position]
    let index = Self.index(of: object, in: pairs)
    let present = index < pairs.count && pairs[index].object == object
    let rest = pairs[(present ? index + 1 : index)...]
    let edited = UnsafeMutableBufferPointer<Pair>.allocate(
      capacity: index + (list.isEmpty ? 0 : 1) + rest.count)
    var end = edited.initialize(fromContentsOf: pairs[..<index])
    if !list.isEmpty {
      edited.initializeElement(at: end, to: (object, Unmanaged.passUnretained(list)))
      end += 1
    }
    _ = edited[end...].initialize(fromContentsOf: rest)
    let count = self.count - (present ? 1 : 0) + (list.isEmpty ? 0 : 1)

    // The edited chunk: split in two past the capacity, gone when empty.
    var replacement: (Chunk?, Chunk?) = (nil, nil)
    if edited.count > Self.chunkCapacity {
      func chunk(_ part: Slice<UnsafeMutableBufferPointer<Pair>>) -> Chunk {
        let copy = UnsafeMutableBufferPointer<Pair>.allocate(capacity: part.count)
        _ = copy.initialize(fromContentsOf: part)
        return Chunk(Pairs(copy))
      }
      replacement = (chunk(edited[..<(edited.count / 2)]), chunk(edited[(edited.count / 2)...]))
      edited.deallocate()
    } else if edited.isEmpty {
      edited.deallocate()
    } else {
      replacement.0 = Chunk(Pairs(edited))
    }
    let old = self.chunks
    let kept = old.isEmpty ? 0 : old.count - 1
    let added = (replacement.0 == nil ? 0 : 1) + (replacement.1 == nil ? 0 : 1)
    let chunks = [Chunk](unsafeUninitializedCapacity: kept + added) { buffer, initialized in
      var end = 0
      for chunk in old[..<min(position, old.count)] {
        buffer.initializeElement(at: end, to: chunk)
        end += 1
      }
      for chunk in [replacement.0, replacement.1] where chunk != nil {
        buffer.initializeElement(at: end, to: chunk!)
        end += 1
      }
      for chunk in old[min(position + 1, old.count)...] {
        buffer.initializeElement(at: end, to: chunk)
        end += 1
      }
      initialized = end
    }

    let keeper = Keeper.keeper(after: keeper, liveCount: count, adding: list.isEmpty ? nil : list) {
      chunks.flatMap { $0.pairs.map { $0.list.takeUnretainedValue() } }
    }
    return ObjectHookTable(chunks: chunks, count: count, keeper: keeper)
  }
}

/// What a call of a site reads, in one lock: the class-wide hooks, the per-object hooks, and the
/// implementation to call when the hooks are done.
///
/// `@unchecked Sendable`: immutable after init.
internal final class SiteSnapshot: @unchecked Sendable {
  let classHooks: HookList
  let objectHooks: ObjectHookTable
  /// The implementation the hooks wrap; nil when the hooked class only inherits the method, so
  /// each call asks the superclass for its *current* implementation.
  let original: IMP?

  /// `classHooks`, for calls, which hold the snapshot.
  let unmanagedClassHooks: Unmanaged<HookList>
  /// `objectHooks.chunkPairs`, for calls, which hold the snapshot.
  private let objectChunks: UnsafeBufferPointer<ObjectHookTable.Pairs>

  static let empty = SiteSnapshot(classHooks: .empty, objectHooks: .empty, original: nil)

  private init(classHooks: HookList, objectHooks: ObjectHookTable, original: IMP?) {
    self.classHooks = classHooks
    self.unmanagedClassHooks = Unmanaged.passUnretained(classHooks)
    self.objectHooks = objectHooks
    self.objectChunks = objectHooks.chunkPairs
    self.original = original
  }

  var isEmpty: Bool { classHooks.isEmpty && objectChunks.isEmpty }
  var hasObjectHooks: Bool { !objectChunks.isEmpty }

  /// The hooks of `object`, if it has any here, unretained: the snapshot keeps them alive.
  @inline(__always)
  func hooks(of object: ObjectIdentifier) -> Unmanaged<HookList>? {
    ObjectHookTable.hooks(of: object, in: objectChunks)
  }

  func with(classHooks: HookList) -> SiteSnapshot {
    SiteSnapshot(classHooks: classHooks, objectHooks: objectHooks, original: original)
  }

  func with(original: IMP?) -> SiteSnapshot {
    SiteSnapshot(classHooks: classHooks, objectHooks: objectHooks, original: original)
  }

  /// This snapshot with `list` as the hooks of `object`.
  func with(_ list: HookList, for object: ObjectIdentifier) -> SiteSnapshot {
    SiteSnapshot(
      classHooks: classHooks, objectHooks: objectHooks.with(list, for: object), original: original)
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
    self.snapshot = RuntimeLock(SiteSnapshot.empty)
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
      if snapshot.hasObjectHooks {
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
