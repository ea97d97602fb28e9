// Where associations live: each object's table of entries, and the global lock and operations
// over them that the association API and the typed keys use.
import CObjCRuntime
import Synchronization

/// The table's header: how many entries it holds, and how it lays them out, in one word whose
/// low half is the count and high half the number of slots, so that a list's word is its count
/// and the getter tells a list from a hash table with one comparison.
internal struct AssociationTableHeader {
  var word: UInt

  /// The number of entries.
  var count: Int {
    get { Int(word & 0xFFFF_FFFF) }
    set { word = (word & ~0xFFFF_FFFF) | UInt(newValue) }
  }

  /// 0 while the entries are a list (in the order added, the last moved into a removed one's
  /// place); else the number of slots of a hash table (a power of two), each an entry or empty.
  var slots: Int {
    get { Int(word >> 32) }
    set { word = (word & 0xFFFF_FFFF) | (UInt(newValue) << 32) }
  }
}

/// An object's associations: one allocation holding the 16-byte entries inline, so that a first
/// association costs one 48-byte block. Up to ``listLimit`` entries are a list, scanned (a few
/// instructions each); beyond, a hash table with linear probing on the key's address, so that a
/// read or a write costs the same at 20 entries or 10,000 (objc4 hashes every object's table).
/// Read and written only while holding the association lock.
internal final class AssociationTable: ManagedBuffer<AssociationTableHeader, AssociationEntry> {
  /// The most entries kept as a list. (Constants here are computed where they are read: a
  /// `static let` may check its initialization on every read, a call in the getter's path.)
  @inline(__always) static var listLimit: Int { 16 }
  /// The key of an empty slot of a hash table: no key is at address 1.
  @inline(__always)
  static var emptyKey: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1).unsafelyUnwrapped }

  static func make(capacity: Int) -> AssociationTable {
    let buffer = AssociationTable.create(minimumCapacity: capacity) { _ in
      AssociationTableHeader(word: 0)
    }
    return unsafeDowncast(buffer, to: AssociationTable.self)
  }

  /// A hash table of `slots` slots (a power of two), every one empty.
  private static func makeHashed(slots: Int) -> AssociationTable {
    let table = make(capacity: slots)
    table.withUnsafeMutablePointers { header, entries in
      header.pointee.slots = slots
      for slot in 0..<slots {
        (entries + slot).initialize(to: AssociationEntry(emptyAt: emptyKey))
      }
    }
    return table
  }

  deinit {
    // Tables are emptied before they are dropped; an entry left here would leak its payload.
    for index in occupied { withUnsafeMutablePointerToElements { $0[index].payload.release() } }
  }

  var count: Int { header.count }

  /// The indices that hold an entry: the list's, or the hash table's full slots.
  var occupied: [Int] {
    withUnsafeMutablePointers { header, entries in
      let slots = header.pointee.slots
      guard slots > 0 else { return Array(0..<header.pointee.count) }
      return (0..<slots).filter { entries[$0].key != AssociationTable.emptyKey }
    }
  }

  /// The key of the entry at `index`.
  func key(at index: Int) -> UnsafeRawPointer {
    withUnsafeMutablePointerToElements { $0[index].key }
  }

  /// The slot where a hash table of `slots` slots starts looking for `key`: the address times a
  /// 64-bit odd constant (Fibonacci hashing), its top bits.
  @inline(__always)
  private static func home(of key: UnsafeRawPointer, slots: Int) -> Int {
    let product = UInt(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: product >> UInt(64 - slots.trailingZeroBitCount))
  }

  /// The index of `key`'s entry.
  func index(of key: UnsafeRawPointer) -> Int? {
    let index = listIndex(of: key)
    return index == AssociationTable.hashed ? hashedIndex(of: key) : (index < 0 ? nil : index)
  }

  /// What ``listIndex(of:)`` answers for a hash table.
  @inline(__always) static var hashed: Int { -2 }

  /// The index of `key`'s entry in a list, -1 when it is not there, or ``hashed`` for a hash
  /// table: a plain loop, with no call, as the getter's cost is mostly this (a call would make
  /// every getter save registers).
  @inline(__always)
  func listIndex(of key: UnsafeRawPointer) -> Int {
    withUnsafeMutablePointers { header, entries in
      let word = header.pointee.word
      // A list's word is its count, at most `listLimit`; a hash table's is far larger.
      guard word <= UInt(AssociationTable.listLimit) else { return AssociationTable.hashed }
      var index = 0
      let end = Int(bitPattern: word)
      while index < end {
        if entries[index].key == key { return index }
        index &+= 1
      }
      return -1
    }
  }

  /// The tagged payload under `key` in a hash table, 0 when there is none; retained when
  /// `retaining`. With the lock held.
  @inline(never)
  func hashedTaggedPayload(for key: UnsafeRawPointer, retaining: Bool) -> UInt {
    hashedIndex(of: key).map { taggedPayload(at: $0, retaining: retaining) } ?? 0
  }

  /// The index of `key`'s entry in a hash table.
  @inline(never)
  func hashedIndex(of key: UnsafeRawPointer) -> Int? {
    // The empty slots' key is no key (`Associations.set` refuses it).
    guard key != AssociationTable.emptyKey else { return nil }
    return withUnsafeMutablePointers { header, entries in
      AssociationTable.probe(for: key, in: entries, slots: header.pointee.slots).found
    }
  }

  /// Where `key` is in a hash table, or the empty slot where it would go.
  @inline(__always)
  private static func probe(
    for key: UnsafeRawPointer, in entries: UnsafeMutablePointer<AssociationEntry>, slots: Int
  ) -> (found: Int?, empty: Int) {
    let mask = slots &- 1
    var slot = home(of: key, slots: slots)
    while true {
      let candidate = entries[slot].key
      if candidate == key { return (slot, slot) }
      if candidate == emptyKey { return (nil, slot) }
      slot = (slot &+ 1) & mask
    }
  }

  /// The tagged payload at `index`, with a new reference to it when `retaining`.
  @inline(__always)
  func taggedPayload(at index: Int, retaining: Bool) -> UInt {
    withUnsafeMutablePointerToElements { entries in
      if retaining { _ = entries[index].payload.retain() }
      return entries[index].tagged
    }
  }

  /// Replaces the entry at `index`; returns the old one's payload, to release outside the lock.
  func replace(at index: Int, with entry: AssociationEntry) -> DetachedPayload {
    withUnsafeMutablePointerToElements { entries in
      let old = DetachedPayload(entries[index])
      entries[index] = entry
      return old
    }
  }

  /// Removes the entry at `index`; returns its payload. A list moves its last entry into the
  /// place; a hash table moves back the entries after the slot that would no longer be found
  /// (deletion without tombstones, so that probes stay short).
  func remove(at index: Int) -> DetachedPayload {
    withUnsafeMutablePointers { header, entries in
      let removed = DetachedPayload(entries[index])
      header.pointee.count -= 1
      let slots = header.pointee.slots
      guard slots > 0 else {
        entries[index] = entries[header.pointee.count]
        return removed
      }
      let mask = slots &- 1
      var hole = index
      var next = (index &+ 1) & mask
      while entries[next].key != AssociationTable.emptyKey {
        let home = AssociationTable.home(of: entries[next].key, slots: slots)
        // The entry at `next` may fill the hole unless its home lies (cyclically) after the
        // hole and up to `next`: then a probe for it would stop before reaching the hole.
        let distanceToHole = (hole &- home) & mask
        let distanceToNext = (next &- home) & mask
        if distanceToHole < distanceToNext {
          entries[hole] = entries[next]
          hole = next
        }
        next = (next &+ 1) & mask
      }
      entries[hole] = AssociationEntry(emptyAt: AssociationTable.emptyKey)
      return removed
    }
  }

  /// Adds `entry` (whose key is not in the table), returning another table holding the same
  /// entries when this one is full: a larger list, or a hash table once the list would pass
  /// ``listLimit``, or a hash table twice as large once it would be more than half full.
  func appending(_ entry: AssociationEntry) -> AssociationTable {
    let slots = header.slots
    if slots == 0 {
      if count < AssociationTable.listLimit {
        let table = count < capacity ? self : grownList()
        table.withUnsafeMutablePointers { header, entries in
          (entries + header.pointee.count).initialize(to: entry)
          header.pointee.count += 1
        }
        return table
      }
      return rehashed(slots: 4 * AssociationTable.listLimit).inserting(entry)
    }
    if (count + 1) * 2 > slots { return rehashed(slots: slots * 2).inserting(entry) }
    return inserting(entry)
  }

  /// Puts `entry` in its slot of this hash table, which has room.
  private func inserting(_ entry: AssociationEntry) -> AssociationTable {
    withUnsafeMutablePointers { header, entries in
      let slot = AssociationTable.probe(
        for: entry.key, in: entries, slots: header.pointee.slots
      ).empty
      entries[slot] = entry
      header.pointee.count += 1
    }
    return self
  }

  private func grownList() -> AssociationTable {
    let larger = AssociationTable.make(capacity: Swift.max(4, capacity * 2))
    withUnsafeMutablePointers { header, entries in
      larger.withUnsafeMutablePointers { newHeader, newEntries in
        newEntries.moveInitialize(from: entries, count: header.pointee.count)
        newHeader.pointee.count = header.pointee.count
      }
      header.pointee.count = 0
    }
    return larger
  }

  /// A hash table of `slots` slots holding this table's entries, which this one gives up.
  private func rehashed(slots: Int) -> AssociationTable {
    let larger = AssociationTable.makeHashed(slots: slots)
    let indices = occupied
    withUnsafeMutablePointers { header, entries in
      for index in indices { _ = larger.inserting(entries[index]) }
      header.pointee.count = 0
      header.pointee.slots = 0
    }
    return larger
  }

  /// Takes every payload out, leaving the table empty.
  func removeAll() -> [DetachedPayload] {
    let indices = occupied
    return withUnsafeMutablePointers { header, entries in
      let payloads = indices.map { DetachedPayload(entries[$0]) }
      for index in indices where header.pointee.slots > 0 {
        entries[index] = AssociationEntry(emptyAt: AssociationTable.emptyKey)
      }
      header.pointee.count = 0
      return payloads
    }
  }
}

/// The association store: every table hangs off its object, and one lock guards them all, as in
/// objc4 (`AssociationsManager`). The lock is a C global (`swk_association_lock`).
internal enum Associations {
  /// Runs `body` holding the association lock.
  @inline(__always)
  static func withLock<Result>(_ body: () -> Result) -> Result {
    swk_association_lock_acquire()
    defer { swk_association_lock_release() }
    return body()
  }

  @inline(__always)
  static func table(of object: ObjCObject) -> Unmanaged<AssociationTable>? {
    let word = object.associationWord.load(ordering: .acquiring)
    guard let address = UnsafeRawPointer(bitPattern: word) else { return nil }
    return Unmanaged.fromOpaque(address)
  }

  /// Points the object at `table` (which it then owns) or at none, and releases the table it had
  /// unless that is `table` itself. Call with the lock held.
  static func setTable(_ table: AssociationTable?, of object: ObjCObject) {
    let old = object.associationWord.load(ordering: .acquiring)
    let new = table.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0
    guard new != old else { return }
    if let table { _ = Unmanaged.passRetained(table) }
    object.associationWord.store(new, ordering: .releasing)
    if let address = UnsafeRawPointer(bitPattern: old) {
      Unmanaged<AssociationTable>.fromOpaque(address).release()
    }
  }

  /// Makes the entry for `value` under `policy`, copying first when the policy says so. Runs
  /// before the lock is taken, as objc4 retains or copies the new value before locking.
  static func entry(
    key: UnsafeRawPointer, value: Any, policy: objc_AssociationPolicy, object: ObjCObject
  ) throws(ObjCRuntimeError) -> AssociationEntry {
    guard type(of: value) is AnyClass else {
      return AssociationEntry(key: key, storage: .value, payload: ValueAssociation(value))
    }
    return try entry(key: key, reference: value as AnyObject, policy: policy, object: object)
  }

  /// The entry that holds the object `reference` under `key` with `policy` (weakly, a copy, or
  /// the object itself), for `object`.
  static func entry(
    key: UnsafeRawPointer, reference: AnyObject, policy: objc_AssociationPolicy,
    object: ObjCObject
  ) throws(ObjCRuntimeError) -> AssociationEntry {
    if policy == .OBJC_ASSOCIATION_ASSIGN {
      return AssociationEntry(key: key, storage: .weak, payload: WeakAssociation(reference))
    }
    if policy.copies {
      guard let copyable = reference as? ObjCCopying else {
        throw .notCopyable(
          valueType: _typeName(type(of: reference), qualified: false),
          objectClass: object.isa.takeUnretainedValue().name)
      }
      return AssociationEntry(key: key, storage: .object, payload: copyable.copy())
    }
    return AssociationEntry(key: key, storage: .object, payload: reference)
  }

  /// Stores or erases an association. The old value is released after the lock is dropped.
  static func set(_ object: ObjCObject, key: UnsafeRawPointer, entry: AssociationEntry?) {
    guard key != AssociationTable.emptyKey else {
      // The one address a hash table keeps for its empty slots; nothing lives there.
      entry.map { DetachedPayload($0).release() }
      Diagnostics.warn("objc_setAssociatedObject: the key at address 0x1 is no key; nothing set")
      return
    }
    let released = withLock { () -> DetachedPayload? in
      let table = table(of: object)?.takeUnretainedValue()
      if let table, let index = table.index(of: key) {
        if let entry {
          return table.replace(at: index, with: entry)
        }
        swk_association_count_add(-1)
        let old = table.remove(at: index)
        if table.count == 0 { setTable(nil, of: object) }
        return old
      }
      guard let entry else { return nil }
      swk_association_count_add(1)
      let grown = (table ?? AssociationTable.make(capacity: 1)).appending(entry)
      setTable(grown, of: object)
      return nil
    }
    #if SWIZZLEKIT_INTERNAL_CHECKS
      withLock { checkConsistency(of: object) }
    #endif
    released?.release()
  }

  #if SWIZZLEKIT_INTERNAL_CHECKS
    /// Checks, with the lock held, that the object has a table exactly when it has associations,
    /// that no key appears twice in it, and that the process-wide count is not negative.
    static func checkConsistency(of object: ObjCObject) {
      let table = table(of: object)?.takeUnretainedValue()
      InternalChecks.require(
        table.map { $0.count > 0 } ?? true, "an object keeps an empty association table")
      if let table {
        var keys = Set<UnsafeRawPointer>()
        let indices = table.occupied
        InternalChecks.require(indices.count == table.count, "an association table miscounts")
        for index in indices {
          InternalChecks.require(
            keys.insert(table.key(at: index)).inserted, "an association key appears twice")
          InternalChecks.require(
            table.index(of: table.key(at: index)) == index, "an association cannot be found")
        }
      }
      InternalChecks.require(swk_association_count() >= 0, "the association count is negative")
    }
  #endif

  /// The value stored under `key`, retained under the lock so that a concurrent replace cannot
  /// free it before the caller has it.
  @inline(__always)
  static func get(_ object: ObjCObject, key: UnsafeRawPointer) -> Any? {
    get(Unmanaged.passUnretained(object), key: key)
  }

  /// The getter proper, on an unmanaged reference: the caller keeps the object alive, and a
  /// retain here would cost as much as the lookup.
  @inline(__always)
  static func get(_ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer) -> Any? {
    let tagged = retainedTaggedPayload(holder, key: key)
    return isBoxed(tagged) ? boxedValue(tagged) : takeUnboxedObject(tagged)
  }

  /// Whether a tagged payload is a weak or value box rather than an object stored as itself (or
  /// no payload, 0): two instructions, so that the common case is decided first.
  @inline(__always)
  static func isBoxed(_ tagged: UInt) -> Bool {
    tagged & 0xF != AssociationStorage.object.rawValue
  }

  /// The object of an unboxed tagged payload, consuming its reference; nil for 0.
  @inline(__always)
  static func takeUnboxedObject(_ tagged: UInt) -> AnyObject? {
    UnsafeRawPointer(bitPattern: tagged).map {
      Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue()
    }
  }

  /// The value in a weak or value box, consuming the payload's reference.
  @inline(never)
  static func boxedValue(_ tagged: UInt) -> Any? {
    DetachedPayload(tagged: tagged).take()
  }

  /// The payload under `key`, with a reference of its own taken under the lock.
  @inline(__always)
  static func payload(_ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer) -> DetachedPayload? {
    let tagged = retainedTaggedPayload(holder, key: key)
    return tagged == 0 ? nil : DetachedPayload(tagged: tagged)
  }

  /// The tagged payload under `key` (see ``AssociationEntry``) with a reference of its own, taken
  /// under the lock so that a concurrent replace cannot free it first; 0 when there is none.
  @inline(__always)
  static func retainedTaggedPayload(_ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer) -> UInt
  {
    taggedPayload(holder, key: key, retaining: true)
  }

  /// The tagged payload under `key`, found under the lock and retained there when `retaining`
  /// (a constant at every call site, so the test folds away); 0 when there is none.
  @inline(__always)
  static func taggedPayload(
    _ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer, retaining: Bool
  ) -> UInt {
    if holder._withUnsafeGuaranteedRef({ $0.associationWord.load(ordering: .relaxed) }) == 0 {
      return 0
    }
    var tagged: UInt = 0
    swk_association_lock_acquire()
    let word = holder._withUnsafeGuaranteedRef { $0.associationWord.load(ordering: .relaxed) }
    if let address = UnsafeRawPointer(bitPattern: word) {
      Unmanaged<AssociationTable>.fromOpaque(address)._withUnsafeGuaranteedRef { table in
        let index = table.listIndex(of: key)
        if index >= 0 {
          tagged = table.taggedPayload(at: index, retaining: retaining)
        } else if index == AssociationTable.hashed {
          // Out of line, and nothing but its result is needed after it: the list's path
          // saves no more registers than it did before there were hash tables.
          tagged = table.hashedTaggedPayload(for: key, retaining: retaining)
        }
      }
    }
    swk_association_lock_release()
    return tagged
  }

  /// The object under `key`, retained: the fast getter's body. An object stored as itself (no
  /// tag bits) is returned at once; boxes are opened out of line.
  @inline(__always)
  static func object(_ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer) -> AnyObject? {
    let tagged = retainedTaggedPayload(holder, key: key)
    return isBoxed(tagged) ? boxedObject(tagged) : takeUnboxedObject(tagged)
  }

  /// The object in a weak box, or nil for a value box, consuming the payload's reference.
  @inline(never)
  static func boxedObject(_ tagged: UInt) -> AnyObject? {
    DetachedPayload(tagged: tagged).takeObject()
  }

  /// The object under `key` without a reference of its own: objc4's non-atomic read. The lock is
  /// still taken, because a concurrent write may replace the whole table.
  @inline(__always)
  static func unretainedObject(
    _ holder: Unmanaged<ObjCObject>, key: UnsafeRawPointer
  ) -> Unmanaged<AnyObject>? {
    let tagged = taggedPayload(holder, key: key, retaining: false)
    guard isBoxed(tagged) else {
      return UnsafeRawPointer(bitPattern: tagged).map { Unmanaged.fromOpaque($0) }
    }
    return unretainedBoxedObject(tagged)
  }

  /// The object of a weak box (alive only while someone else keeps it so, as with objc4's
  /// ASSIGN); nil for a value box. Out of line, so that the common path stays short.
  @inline(never)
  static func unretainedBoxedObject(_ tagged: UInt) -> Unmanaged<AnyObject>? {
    guard tagged & 0xF == AssociationStorage.weak.rawValue,
      let address = UnsafeRawPointer(bitPattern: tagged & ~0xF)
    else { return nil }
    let box = Unmanaged<WeakAssociation>.fromOpaque(address).takeUnretainedValue()
    return box.object.map { Unmanaged.passUnretained($0) }
  }

  /// Removes every association; the values are released after the lock is dropped.
  static func removeAll(_ object: ObjCObject) {
    let released = withLock { () -> [DetachedPayload] in
      guard let table = table(of: object)?.takeUnretainedValue() else { return [] }
      let payloads = table.removeAll()
      swk_association_count_add(-payloads.count)
      setTable(nil, of: object)
      return payloads
    }
    for payload in released { payload.release() }
  }

  /// The number of live associations in the process.
  static var liveCount: Int { withLock { swk_association_count() } }
}
