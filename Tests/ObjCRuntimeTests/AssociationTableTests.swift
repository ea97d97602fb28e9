// An object's association table: a list up to 16 entries, a hash table beyond, the same answers
// either way, and every value released once.
import Testing

@testable import ObjCRuntime

private final class Counted {
  static let alive = RuntimeLock(0)
  let number: Int
  init(_ number: Int) {
    self.number = number
    Counted.alive.withLock { $0 += 1 }
  }
  deinit { Counted.alive.withLock { $0 -= 1 } }
}

private final class Keeper: ObjCObject {}

/// Distinct keys, at addresses of one block that lives as long as the process.
/// nonisolated(unsafe): the block is only used for its addresses, never read or written.
nonisolated(unsafe) private let keyBlock = UnsafeMutableRawPointer.allocate(
  byteCount: 20_000, alignment: 16)
private func key(_ number: Int) -> UnsafeRawPointer { UnsafeRawPointer(keyBlock + number) }

@Suite("AssociationTable", .serialized)
struct AssociationTableTests {
  @Test(
    "set, read, replace and remove across the list and the hash table",
    arguments: [1, 16, 17, 33, 1_000, 10_000])
  func manyKeys(count: Int) {
    let keeper = Keeper()
    for number in 0..<count {
      objc_setAssociatedObject(keeper, key(number), Counted(number), .retain)
    }
    #expect(
      (0..<count).allSatisfy {
        (objc_getAssociatedObject(keeper, key($0)) as? Counted)?.number == $0
      })
    #expect(objc_getAssociatedObject(keeper, key(count)) == nil, "a key never set")
    // Replace the even ones, remove every third.
    for number in stride(from: 0, to: count, by: 2) {
      objc_setAssociatedObject(keeper, key(number), Counted(-number), .retain)
    }
    for number in stride(from: 0, to: count, by: 3) {
      objc_setAssociatedObject(keeper, key(number), nil, .retain)
    }
    for number in 0..<count {
      let seen = (objc_getAssociatedObject(keeper, key(number)) as? Counted)?.number
      let expected: Int? = number % 3 == 0 ? nil : (number % 2 == 0 ? -number : number)
      #expect(seen == expected, "key \(number) of \(count)")
    }
    // Removed keys come back.
    objc_setAssociatedObject(keeper, key(0), Counted(7), .retain)
    #expect((objc_getAssociatedObject(keeper, key(0)) as? Counted)?.number == 7)
    objc_removeAssociatedObjects(keeper)
    #expect((0..<count).allSatisfy { objc_getAssociatedObject(keeper, key($0)) == nil })
  }

  @Test("every value is released once, whether removed, replaced or dropped with its object")
  func releases() {
    let before = Counted.alive.withLock { $0 }
    do {
      let keeper = Keeper()
      for number in 0..<500 {
        objc_setAssociatedObject(keeper, key(number), Counted(number), .retain)
      }
      for number in 0..<100 { objc_setAssociatedObject(keeper, key(number), nil, .retain) }
      for number in 100..<200 { objc_setAssociatedObject(keeper, key(number), Counted(0), .retain) }
      #expect(Counted.alive.withLock { $0 } == before + 400)
    }
    #expect(Counted.alive.withLock { $0 } == before, "the object's end released the rest")
  }

  @Test("a hash table's removals keep every probe path: removing in any order finds the rest")
  func removalOrders() {
    let keeper = Keeper()
    let count = 300
    for number in 0..<count {
      objc_setAssociatedObject(keeper, key(number), Counted(number), .retain)
    }
    var generator = SystemRandomNumberGenerator()
    var left = Set(0..<count)
    for number in (0..<count).shuffled(using: &generator).prefix(250) {
      objc_setAssociatedObject(keeper, key(number), nil, .retain)
      left.remove(number)
      #expect(
        left.allSatisfy { (objc_getAssociatedObject(keeper, key($0)) as? Counted)?.number == $0 })
    }
  }

  @Test("the key at address 1, which a hash table keeps for its empty slots, is refused")
  func emptyKeyRefused() {
    let keeper = Keeper()
    let one = UnsafeRawPointer(bitPattern: 1)!
    for number in 0..<40 { objc_setAssociatedObject(keeper, key(number), Counted(number), .retain) }
    let (_, warnings) = Diagnostics.collecting {
      objc_setAssociatedObject(keeper, one, Counted(1), .retain)
    }
    // Diagnostics from every thread reach the observer: only this one is about the key.
    #expect(warnings.filter { $0.message.contains("key at address 0x1") }.count == 1)
    #expect(objc_getAssociatedObject(keeper, one) == nil)
    #expect((objc_getAssociatedObject(keeper, key(39)) as? Counted)?.number == 39)
  }
}
