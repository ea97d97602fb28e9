// The selector table: interned names, hashed in place, copied into an arena that is never freed.
import CObjCRuntime
import Synchronization

/// The address of an interned selector name.
///
/// `@unchecked Sendable` is safe: the bytes it points at are written once, before the pointer is
/// published (a release store into the table's slot, under the table's lock), and never changed
/// or freed afterwards.
@usableFromInline
internal struct InternedName: Hashable, @unchecked Sendable {
  @usableFromInline internal let pointer: UnsafePointer<UInt8>

  @inlinable internal init(pointer: UnsafePointer<UInt8>) {
    self.pointer = pointer
  }

  @inlinable internal init(sel: SEL) {
    self.pointer = UnsafeRawPointer(sel).assumingMemoryBound(to: UInt8.self)
  }

  @inlinable internal var sel: SEL {
    UnsafeRawPointer(pointer).assumingMemoryBound(to: objc_selector.self)
  }

  @inlinable internal var raw: UnsafeRawPointer {
    UnsafeRawPointer(pointer)
  }
}

/// The process-wide table of selector names.
///
/// objc4 keeps its selectors in a hash set of C strings under `selLock`; this is the same idea
/// made cheap: the name's UTF-8 bytes are hashed in place (no `String` is made, hashed with
/// SipHash or compared character by character) and looked up without a lock in an
/// open-addressing table (`swk_selector_names`, in C); only a name not found takes the lock,
/// looks again and, when it is new, is copied into an arena that is never freed, since a
/// selector lives as long as the process.
internal final class SelectorTable: Sendable {
  static let shared = SelectorTable()

  private let table = RuntimeLock(InternedNames())

  /// The selector named `name`, registered if it is new. A known name is found without the
  /// lock or the shared table (whose first use costs a `swift_once` check on every read).
  static func register(_ name: String) -> Selector {
    // Native strings hand out their bytes in place; others are made contiguous first.
    if let interned = name.utf8.withContiguousStorageIfAvailable({
      intern(UnsafeRawBufferPointer($0))
    }) {
      return Selector(interned: interned)
    }
    var copy = name
    return Selector(interned: copy.withUTF8 { intern(UnsafeRawBufferPointer($0)) })
  }

  /// The interned copy of `bytes` up to their first NUL (a C string ends there, so a name with an
  /// embedded NUL is the prefix before it).
  @inline(__always)
  private static func intern(_ bytes: UnsafeRawBufferPointer) -> InternedName {
    // A known name is found without looking for a NUL: no interned name holds one, so bytes
    // with one never match, and are cut at it below.
    let quick = InternedNames.hash(bytes, detectingNUL: false)
    if let known = InternedNames.probe(bytes, hash: quick.value).found { return known }
    return internSlowly(bytes)
  }

  /// The lookup and insert of a name the lock-free probe did not find: cut at its first NUL,
  /// looked up again, and added under the lock if it is new.
  @inline(never)
  private static func internSlowly(_ bytes: UnsafeRawBufferPointer) -> InternedName {
    var key = bytes
    var hash = InternedNames.hash(key, detectingNUL: true)
    if hash.containsNUL {
      let length = key.firstIndex(of: 0) ?? key.count
      key = UnsafeRawBufferPointer(rebasing: key[..<length])
      hash = InternedNames.hash(key, detectingNUL: false)
      if let known = InternedNames.probe(key, hash: hash.value).found { return known }
    }
    return shared.table.withLock { $0.intern(key, hash: hash.value) }
  }
}

/// The set of interned names: open addressing with linear probing over a power-of-two array of
/// slots, each holding a name's hash, length and address, in C (`swk_name_buffer`) so that a
/// lookup reads it without a lock; inserts happen under the selector table's lock.
///
/// The hash is a fixed multiply-and-xor over eight bytes at a time: selector names come from
/// the program, not from an adversary, so it is not seeded (and the benchmark's instruction
/// counts stay the same from run to run).
internal struct InternedNames {
  private var arena = NameArena()

  /// The interned copy of `key`, made if there is none. Under the table's lock.
  mutating func intern(_ key: UnsafeRawBufferPointer, hash: UInt64) -> InternedName {
    // Looked for again: another thread may have added it since the lock-free probe.
    let probe = InternedNames.probe(key, hash: hash)
    if let found = probe.found { return found }
    let name = arena.copy(key)
    swk_names_insert(UInt(probe.emptySlot), hash, UInt(key.count), name)
    return InternedName(pointer: name)
  }

  /// The interned name equal to `key` in the buffer in use, or the empty slot its probe ended
  /// at. Lock-free: slots are filled once, and a name is published after its hash and length.
  @inline(__always)
  static func probe(
    _ key: UnsafeRawBufferPointer, hash: UInt64
  ) -> (found: InternedName?, emptySlot: Int) {
    // Never NULL: the table starts with an empty buffer of one slot (SelectorNames.c).
    let buffer = swk_names_current().unsafelyUnwrapped
    let mask = Int(bitPattern: buffer.pointee.mask)
    var index = Int(truncatingIfNeeded: hash) & mask
    while true {
      let slot = swk_names_slot(buffer, UInt(bitPattern: index)).unsafelyUnwrapped
      guard let name = swk_names_slot_name(slot) else { return (nil, index) }
      if slot.pointee.hash == hash, slot.pointee.length == UInt(bitPattern: key.count),
        key.count == 0 || InternedNames.equal(name, key.baseAddress!, count: key.count)
      {
        return (InternedName(pointer: name), index)
      }
      index = (index &+ 1) & mask
    }
  }

  /// A name's hash, and whether the bytes hashed contained a NUL.
  struct Hash {
    var value: UInt64
    var containsNUL: Bool
  }

  /// The hash of a name's bytes, eight at a time, noting a NUL byte on the way when
  /// `detectingNUL` (else `containsNUL` is false whatever the bytes; the hash is the same).
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer, detectingNUL: Bool) -> Hash {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var hash: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: bytes.count)
    guard let base = bytes.baseAddress else {
      // An empty name without storage hashes as an empty one with storage does.
      return Hash(value: hash ^ (hash &>> 32), containsNUL: false)
    }
    var zeros: UInt64 = 0
    var offset = 0
    while offset &+ 8 <= bytes.count {
      let word = (base + offset).loadUnaligned(as: UInt64.self)
      // Non-zero when some byte of the word is zero (the classic "has a zero byte" test).
      if detectingNUL { zeros |= (word &- ones) & ~word & highs }
      hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
      hash ^= hash &>> 29
      offset &+= 8
    }
    let rest = bytes.count &- offset
    if rest > 0 {
      // The last one to seven bytes, as the low bytes of a word whose other bytes are 0xFF, so
      // that only a real zero byte is seen as one. A name of eight bytes or more has them at the
      // top of its last eight bytes, read in one load; a shorter one is read byte by byte.
      let fill = UInt64.max &<< UInt64(truncatingIfNeeded: 8 &* rest)
      var tail: UInt64
      if bytes.count >= 8 {
        let last = (base + (bytes.count &- 8)).loadUnaligned(as: UInt64.self)
        tail = (last &>> UInt64(truncatingIfNeeded: 8 &* (8 &- rest))) | fill
      } else {
        tail = fill
        var shift: UInt64 = 0
        while offset < bytes.count {
          tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &<< shift
          shift &+= 8
          offset &+= 1
        }
      }
      if detectingNUL { zeros |= (tail &- ones) & ~tail & highs }
      hash = (hash ^ tail) &* 0x9E37_79B9_7F4A_7C15
    }
    return Hash(value: hash ^ (hash &>> 32), containsNUL: zeros != 0)
  }

  /// Whether two names' bytes are equal; `lhs` and `rhs` have `count` bytes each. Eight bytes
  /// at a time, the last eight read in one load that overlaps the word before it.
  @inline(__always)
  private static func equal(
    _ lhs: UnsafePointer<UInt8>, _ rhs: UnsafeRawPointer, count: Int
  ) -> Bool {
    let left = UnsafeRawPointer(lhs)
    guard count >= 8 else {
      var offset = 0
      while offset < count {
        if left.load(fromByteOffset: offset, as: UInt8.self)
          != rhs.load(fromByteOffset: offset, as: UInt8.self)
        {
          return false
        }
        offset &+= 1
      }
      return true
    }
    var offset = 0
    while offset &+ 8 < count {
      if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        return false
      }
      offset &+= 8
    }
    let last = count &- 8
    return left.loadUnaligned(fromByteOffset: last, as: UInt64.self)
      == rhs.loadUnaligned(fromByteOffset: last, as: UInt64.self)
  }
}

/// Memory for interned names: NUL-terminated copies, bump-allocated from 16 KiB chunks (a long
/// name gets a block of its own) and never freed, as a selector outlives everything.
///
/// Every name starts on a 16-byte boundary, as a `malloc`ed one would. The method caches hash the
/// whole address by multiplication (`swk_cache_mix`), so neither this alignment nor the order in
/// which names arrive decides how well a class's selectors spread over its cache.
private struct NameArena {
  private static let chunkSize = 16 * 1024
  private static let alignment = 16
  private var next: UnsafeMutableRawPointer?
  private var remaining = 0

  /// A NUL-terminated copy of `bytes` that lives as long as the process.
  mutating func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
    let size = (bytes.count + 1 + NameArena.alignment - 1) & ~(NameArena.alignment - 1)
    let storage: UnsafeMutableRawPointer
    if size > NameArena.chunkSize / 4 {
      storage = .allocate(byteCount: size, alignment: NameArena.alignment)
    } else {
      if size > remaining {
        next = .allocate(byteCount: NameArena.chunkSize, alignment: NameArena.alignment)
        remaining = NameArena.chunkSize
      }
      storage = next!
      next = storage + size
      remaining -= size
    }
    if let base = bytes.baseAddress {
      storage.copyMemory(from: base, byteCount: bytes.count)
    }
    storage.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
    return UnsafePointer(storage.bindMemory(to: UInt8.self, capacity: bytes.count + 1))
  }
}
