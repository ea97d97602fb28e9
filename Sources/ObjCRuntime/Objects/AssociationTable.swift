// Where associations live: each object's table of entries, a list or a hash table. The lock and
// the operations over the tables are in Associations.swift.
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
    forEachEntry { entry in entry.pointee.payload.release() }
  }

  var count: Int { header.count }

  /// Calls `body` with each entry: the list's, or the hash table's full slots.
  func forEachEntry(_ body: (UnsafeMutablePointer<AssociationEntry>) -> Void) {
    withUnsafeMutablePointers { header, entries in
      let slots = header.pointee.slots
      for index in 0..<(slots > 0 ? slots : header.pointee.count)
      where slots == 0 || entries[index].key != AssociationTable.emptyKey {
        body(entries + index)
      }
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
    forEachEntry { entry in _ = larger.inserting(entry.pointee) }
    header.word = 0
    return larger
  }

  /// Takes every payload out, leaving the table empty.
  func removeAll() -> [DetachedPayload] {
    var payloads: [DetachedPayload] = []
    payloads.reserveCapacity(count)
    forEachEntry { entry in
      payloads.append(DetachedPayload(entry.pointee))
      entry.pointee = AssociationEntry(emptyAt: AssociationTable.emptyKey)
    }
    // A list is empty at count 0; a hash table keeps its (now empty) slots.
    header.count = 0
    return payloads
  }
}
