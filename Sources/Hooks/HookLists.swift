// The hook lists a call reads: each method's hooks by position, the per-object table, and the
// snapshot of both, immutable, with the keepers that keep their hooks alive.
import ObjCRuntime

/// Keeps objects alive for immutable lists that hold them as unmanaged references, so that an
/// edit copies references without counting them.
///
/// The lists a chain of edits makes, each from the one before, share the newest keeper. An
/// addition appends what it added. A removal (or, for the per-object table, a list replaced)
/// hands the keeper's objects over to a new keeper, all but the one removed, which the old
/// keeper keeps alone, with the new keeper, for the lists that still hold it: once the calls
/// reading those lists are done (and outside the engine's locks, ``HookEngine``), the removed
/// hook goes, and what its body captured with it. A call that lasts (one that runs the run loop)
/// keeps the hooks removed meanwhile until it returns, through the keepers' chain; arrays kept
/// only those it had. Neither edit counts a reference per object.
///
/// `@unchecked Sendable`: `objects` and `successor` are changed only by an edit, under
/// ``HookEngine``'s lock, while the editor holds a list that holds the keeper; otherwise they
/// are read only by `deinit`, when no list holds the keeper any more.
internal final class Keeper<Object: AnyObject>: @unchecked Sendable {
  private var objects: [Object]
  /// The keeper that took this one's objects when one was removed: the lists that hold this
  /// keeper still read them.
  private var successor: Keeper?

  private init(_ objects: [Object]) {
    self.objects = objects
  }

  // The chain of successors is let go of one link at a time, not by a release in each deinit
  // (which would go as deep as the chain is long).
  deinit {
    var link = successor
    successor = nil
    while var keeper = link {
      link = nil
      guard isKnownUniquelyReferenced(&keeper) else { break }
      link = keeper.successor
      keeper.successor = nil
    }
  }

  /// The keeper of a list edited from one kept by `keeper`, holding `liveCount` objects after
  /// the edit: nil for none; a new keeper of `added` when there was none (a list without a
  /// keeper holds nothing, so `added` is its one object); one that the objects are handed over
  /// to, but `removed`, when the edit removed (or replaced) one; else `keeper` with `added`
  /// appended.
  static func keeper(
    after keeper: Keeper?, liveCount: Int, adding added: Object?, removing removed: Object?
  ) -> Keeper? {
    guard liveCount > 0 else { return nil }
    guard let keeper else {
      guard let added, liveCount == 1 else {
        preconditionFailure("a list of \(liveCount) objects had no keeper")
      }
      return Keeper([added])
    }
    if let removed { return keeper.handOver(removing: removed, adding: added) }
    if let added { keeper.objects.append(added) }
    return keeper
  }

  /// A new keeper with this one's objects but `removed` (and with `added`), which this one
  /// keeps alone, with the new keeper. Moves the references: none is counted.
  private func handOver(removing removed: Object, adding added: Object?) -> Keeper {
    // Only the newest keeper of a chain is edited: a second hand-over would drop objects the
    // lists holding this keeper still read.
    precondition(successor == nil, "a hook list edited from a list that is not the newest")
    var taken: [Object] = []
    swap(&taken, &objects)
    let address = Unmanaged.passUnretained(removed).toOpaque()
    let index = taken.withUnsafeBufferPointer { buffer in
      buffer.firstIndex { Unmanaged.passUnretained($0).toOpaque() == address }
    }
    if let index {
      objects = [taken.remove(at: index)]
    }
    if let added { taken.append(added) }
    let successor = Keeper(taken)
    self.successor = successor
    return successor
  }
}

/// The hooks of one method at one moment, by position, in the order they were added. Immutable:
/// an edit makes a new list, so a call that took the list sees every hook or none of a change.
///
/// The entries are unmanaged references (``FixedBuffer``), kept alive by the list's ``Keeper``:
/// calls walk them without reference counting, and edits copy them without it.
///
/// `@unchecked Sendable`: immutable after init; the buffers are only read.
internal final class HookList: @unchecked Sendable {
  typealias Entries = FixedBuffer<Unmanaged<HookEntry>>
  let before: Entries
  let instead: Entries
  let after: Entries
  /// Whether a call can run these hooks on its registers: every one has a register entry
  /// (``HookBody``).
  let takesRegisters: Bool
  /// Whether a call can run these hooks on its registers around the original: they all take
  /// the registers, and none is an `instead` hook. One test for the per-object way (two
  /// fields' tests cost its every call 2 more).
  let runsAroundOriginalOnRegisters: Bool
  /// Keeps every entry of the buffers alive.
  private let keeper: Keeper<HookEntry>?

  static let empty = HookList(before: Entries(), instead: Entries(), after: Entries(), keeper: nil)

  private init(before: Entries, instead: Entries, after: Entries, keeper: Keeper<HookEntry>?) {
    self.before = before
    self.instead = instead
    self.after = after
    self.keeper = keeper
    func takeRegisters(_ entries: Entries) -> Bool {
      entries.elements.allSatisfy { BorrowedReference($0).with { $0.body.takesRegisters } }
    }
    self.takesRegisters = takeRegisters(before) && takeRegisters(instead) && takeRegisters(after)
    self.runsAroundOriginalOnRegisters = takesRegisters && instead.isEmpty
  }

  deinit {
    before.deallocate()
    instead.deallocate()
    after.deallocate()
  }

  /// Runs every entry of `entries` with `invocation`, without reference counting.
  @inline(__always)
  static func run(_ entries: Entries, _ invocation: HookInvocation) {
    for entry in entries.elements {
      _ = BorrowedReference(entry).with { $0.run(invocation) }
    }
  }

  /// Runs the register entry of every entry of `entries` with `registers`.
  ///
  /// - Precondition: the list they are of ``takesRegisters``.
  @inline(__always)
  static func run(_ entries: Entries, _ registers: HookRegisters) {
    for entry in entries.elements {
      _ = BorrowedReference(entry).with { $0.run(registers) }
    }
  }

  /// Whether a call with these hooks has no `instead` hook, and goes straight to the original.
  @inline(__always)
  static func noInstead(
    _ classHooks: BorrowedReference<HookList>, _ objectHooks: BorrowedReference<HookList>?
  ) -> Bool {
    classHooks.with { $0.instead.isEmpty } && (objectHooks?.with { $0.instead.isEmpty } ?? true)
  }

  /// How many `instead` hooks a call with these hooks runs through before the original.
  @inline(__always)
  static func chainLength(
    _ classHooks: BorrowedReference<HookList>, _ objectHooks: BorrowedReference<HookList>?
  ) -> Int {
    classHooks.with { $0.instead.count } &+ (objectHooks?.with { $0.instead.count } ?? 0)
  }

  /// The `instead` hook at `depth` of a call's chain: per-object hooks outside class-wide ones,
  /// newest outermost; nil when the chain is done.
  @inline(__always)
  static func insteadEntry(
    at depth: Int, _ classHooks: BorrowedReference<HookList>,
    _ objectHooks: BorrowedReference<HookList>?
  ) -> Unmanaged<HookEntry>? {
    // Wrapping arithmetic: the counts are of buffers, and `depth` is at most their sum.
    let objectInstead = objectHooks?.with { $0.instead } ?? Entries()
    let classInstead = classHooks.with { $0.instead }
    let objectCount = objectInstead.count
    if depth < objectCount { return objectInstead[objectCount &- 1 &- depth] }
    let classDepth = depth &- objectCount
    if classDepth < classInstead.count {
      return classInstead[classInstead.count &- 1 &- classDepth]
    }
    return nil
  }

  var count: Int { before.count + instead.count + after.count }
  var isEmpty: Bool { count == 0 }
  /// Every entry, retained: for the hook map and checks, not for calls.
  var all: [HookEntry] { before.objects() + instead.objects() + after.objects() }

  func adding(_ entry: HookEntry) -> HookList {
    let added = Unmanaged.passUnretained(entry)
    // Each list frees its own buffers: the unchanged ones are copied too.
    func edited(_ entries: Entries, _ position: HookPosition) -> Entries {
      entry.position == position ? entries.appending(added) : Entries(entries.elements)
    }
    return made(
      edited(before, .before), edited(instead, .instead), edited(after, .after), adding: entry,
      removing: nil)
  }

  func removing(_ entry: HookEntry) -> HookList {
    let removed = Unmanaged.passUnretained(entry).toOpaque()
    func edited(_ entries: Entries) -> Entries {
      entries.removingAll { $0.toOpaque() == removed }
    }
    return made(edited(before), edited(instead), edited(after), adding: nil, removing: entry)
  }

  /// The list of these buffers, with the keeper that keeps them alive.
  private func made(
    _ before: Entries, _ instead: Entries, _ after: Entries, adding added: HookEntry?,
    removing removed: HookEntry?
  ) -> HookList {
    let keeper = Keeper.keeper(
      after: keeper, liveCount: before.count + instead.count + after.count, adding: added,
      removing: removed)
    return HookList(before: before, instead: instead, after: after, keeper: keeper)
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
  struct Pair: BitwiseCopyable {
    let object: ObjectIdentifier
    let list: Unmanaged<HookList>
  }
  typealias Pairs = FixedBuffer<Pair>

  /// Pairs sorted by object, shared by the tables that did not edit it.
  final class Chunk: @unchecked Sendable {
    let pairs: Pairs
    init(_ pairs: Pairs) { self.pairs = pairs }
    deinit { pairs.deallocate() }
  }

  /// The chunks, in order of their objects; none is empty.
  private let chunks: [Chunk]
  /// Each chunk's pairs, for calls: `chunks` keeps them alive.
  let chunkPairs: FixedBuffer<Pairs>
  /// How many objects have hooks.
  let count: Int
  private let keeper: Keeper<HookList>?

  /// A chunk that grows past this splits in two.
  private static let chunkCapacity = 64

  static let empty = ObjectHookTable(chunks: [], count: 0, keeper: nil)

  private init(chunks: [Chunk], count: Int, keeper: Keeper<HookList>?) {
    self.chunks = chunks
    self.chunkPairs = FixedBuffer(chunks.lazy.map(\.pairs))
    self.count = count
    self.keeper = keeper
    checkSorted()
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
  private static func chunk(of object: ObjectIdentifier, in chunks: FixedBuffer<Pairs>) -> Int {
    var low = 0
    var high = chunks.count - 1
    while low < high {
      let middle = (low + high) / 2
      let pairs = chunks[middle]
      if pairs[pairs.count - 1].object < object { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The hooks of `object` in the table whose chunks are `chunks`, unretained.
  @inline(__always)
  static func hooks(of object: ObjectIdentifier, in chunks: FixedBuffer<Pairs>)
    -> BorrowedReference<HookList>?
  {
    guard !chunks.isEmpty else { return nil }
    let pairs = chunks[chunks.count == 1 ? 0 : chunk(of: object, in: chunks)]
    // A few objects: a scan costs less than a search.
    if pairs.count <= 8 {
      for pair in pairs.elements where pair.object == object { return BorrowedReference(pair.list) }
      return nil
    }
    let index = index(of: object, in: pairs)
    guard index < pairs.count, pairs[index].object == object else { return nil }
    return BorrowedReference(pairs[index].list)
  }

  /// The hooks of `object`, retained: for edits.
  func list(of object: ObjectIdentifier) -> HookList {
    Self.hooks(of: object, in: chunkPairs)?.object ?? .empty
  }

  /// Every object's list, retained: for the hook map and checks.
  var lists: [HookList] {
    chunkPairs.elements.flatMap { $0.elements.map { $0.list.takeUnretainedValue() } }
  }

  /// This table with `list` as the hooks of `object`, or none when `list` is empty.
  func with(_ list: HookList, for object: ObjectIdentifier) -> ObjectHookTable {
    let position = chunks.isEmpty ? 0 : Self.chunk(of: object, in: chunkPairs)
    let pairs = chunks.isEmpty ? Pairs() : chunkPairs[position]
    let index = Self.index(of: object, in: pairs)
    let present = index < pairs.count && pairs[index].object == object
    let edited = pairs.replacing(
      index..<(present ? index + 1 : index),
      with: list.isEmpty ? [] : [Pair(object: object, list: Unmanaged.passUnretained(list))])
    let count = self.count - (present ? 1 : 0) + (list.isEmpty ? 0 : 1)

    // The edited chunk: split in two past the capacity, gone when empty.
    var replacement: [Chunk] = []
    if edited.count > Self.chunkCapacity {
      let half = edited.count / 2
      replacement = [Chunk(edited.slice(0..<half)), Chunk(edited.slice(half..<edited.count))]
      edited.deallocate()
    } else if !edited.isEmpty {
      replacement = [Chunk(edited)]
    }
    var chunks = self.chunks
    if chunks.isEmpty {
      chunks = replacement
    } else {
      chunks.replaceSubrange(position..<(position + 1), with: replacement)
    }

    // The list replaced goes from here with the calls that read it: its keeper may keep a hook
    // removed since, and the table's keeper holds exactly the lists in force.
    let previous = present ? pairs[index].list.takeUnretainedValue() : nil
    let keeper = Keeper.keeper(
      after: keeper, liveCount: count, adding: list.isEmpty ? nil : list, removing: previous)
    return ObjectHookTable(chunks: chunks, count: count, keeper: keeper)
  }

  /// Checks, in builds with `SWIZZLEKIT_INTERNAL_CHECKS`, that the objects are in order across
  /// the chunks, each once, and that the count agrees.
  private func checkSorted() {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      var previous: ObjectIdentifier?
      var seen = 0
      for pairs in chunkPairs.elements {
        pairs._checkInvariants()
        InternalChecks.require(!pairs.isEmpty, "an empty chunk of per-object hooks")
        for pair in pairs.elements {
          InternalChecks.require(
            previous.map { $0 < pair.object } ?? true, "per-object hooks out of order")
          previous = pair.object
          seen += 1
        }
      }
      InternalChecks.require(seen == count, "\(seen) hooked objects, but \(count) counted")
    #endif
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
  let borrowedClassHooks: BorrowedReference<HookList>
  /// `objectHooks.chunkPairs`, for calls, which hold the snapshot.
  private let objectChunks: FixedBuffer<ObjectHookTable.Pairs>
  /// Whether a call can run its class-wide hooks on its registers (``HookList/takesRegisters``);
  /// a call decides for the hooks of its receiver when it finds them.
  let takesRegisters: Bool
  /// The way a call of a register-shape method takes through these hooks (``RegisterWay``),
  /// decided when the snapshot is made.
  let registerWay: RegisterWay
  /// Whether ``registerWay`` is the short way: a field of its own, so that the site tests it
  /// alone (tests of one field were merged, and the short way paid for the others').
  let takesShortWay: Bool
  /// The ways a call of a register-shape method takes through a snapshot's hooks, each a
  /// function of the site's that does only what its hooks need.
  enum RegisterWay: UInt8 {
    /// Class-wide hooks only, all on the registers, no `instead` hook: the short way.
    case classHooks
    /// Class-wide hooks only, all on the registers, with an `instead` chain.
    case classChain
    /// Per-object hooks only (the site of an object's own subclass, where class-wide hooks are
    /// rare): the receiver's hooks, found, decide.
    case objectHooks
    /// Any other mix, or hooks that need a frame.
    case general
  }

  static let empty = SiteSnapshot(classHooks: .empty, objectHooks: .empty, original: nil)

  // Inlined: out of line, it retained the two lists it was lent, where its callers hand over
  // their own (197 instructions of an install and a removal).
  @inline(__always)
  private init(classHooks: HookList, objectHooks: ObjectHookTable, original: IMP?) {
    self.classHooks = classHooks
    self.borrowedClassHooks = BorrowedReference(classHooks)
    self.objectHooks = objectHooks
    self.objectChunks = objectHooks.chunkPairs
    self.original = original
    self.takesRegisters = classHooks.takesRegisters
    let way: RegisterWay =
      if !classHooks.takesRegisters {
        .general
      } else if objectChunks.isEmpty {
        classHooks.instead.isEmpty ? .classHooks : .classChain
      } else {
        classHooks.isEmpty ? .objectHooks : .general
      }
    self.registerWay = way
    self.takesShortWay = way == .classHooks
  }

  var isEmpty: Bool { classHooks.isEmpty && objectChunks.isEmpty }
  var hasObjectHooks: Bool { !objectChunks.isEmpty }

  /// The hooks of `object`, if it has any here, unretained: the snapshot keeps them alive.
  @inline(__always)
  func hooks(of object: ObjectIdentifier) -> BorrowedReference<HookList>? {
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
