// Selectors: interning, identity, validation and scale.
import ObjCRuntime
import Synchronization
import Testing

/// A reference nothing else reads, so that the test sees its first read.
private let referenced = SelectorReference("selectorReference.test:")

@Suite("Selector")
struct SelectorTests {
  @Test("the same name gives the same pointer")
  func interning() {
    let first = sel_registerName("selectorTests.interning:")
    let second: Selector = "selectorTests.interning:"
    #expect(first == second)
    #expect(first.sel == second.sel)
    #expect(sel_isEqual(first, second))
    #expect(NSSelectorFromString("selectorTests.interning:") == first)
  }

  @Test("different names give different selectors")
  func distinctNames() {
    #expect(Selector("selectorTests.a") != Selector("selectorTests.b"))
    #expect(Selector("selectorTests.a").hashValue == Selector("selectorTests.a").hashValue)
  }

  @Test("names round-trip through sel_getName and NSStringFromSelector")
  func roundTrip() {
    let name = "application:didFinishLaunchingWithOptions:"
    #expect(sel_getName(sel_registerName(name)) == name)
    #expect(NSStringFromSelector(Selector(name)) == name)
    #expect(Selector(name).colonCount == 2)
    #expect(Selector(name).description == name)
  }

  @Test("a selector is one pointer wide")
  func size() {
    #expect(MemoryLayout<Selector>.size == MemoryLayout<UnsafeRawPointer>.size)
    #expect(MemoryLayout<Selector?>.size == MemoryLayout<UnsafeRawPointer>.size)
  }

  @Test("_cmd converts back to the selector it came from")
  func fromSEL() {
    let selector: Selector = "selectorTests.fromSEL"
    #expect(Selector(selector.sel) == selector)
  }

  @Test(
    "names no method could have are refused with the reason",
    arguments: [
      ("", "empty"), ("has space", "white space"), ("tab\there", "white space"),
      ("nul\0inside", "NUL"), ("bell\u{07}", "control"), ("nbsp\u{A0}x", "white space"),
    ])
  func invalidNames(name: String, reason: String) {
    #expect {
      try Selector(validating: name)
    } throws: { error in
      guard case .invalidSelectorName(let refused, let why) = error as? ObjCRuntimeError else {
        return false
      }
      return refused == name && why.contains(reason)
    }
  }

  @Test("valid names pass validation, Unicode included")
  func validNames() throws {
    #expect(try Selector(validating: "wr_viewWillAppear:") == Selector("wr_viewWillAppear:"))
    #expect(try Selector(validating: "größe:") == Selector("größe:"))
  }

  @Test("NSSelectorFromString answers a selector for every name, the empty one too, as on iOS")
  func emptyFromString() {
    #expect(NSSelectorFromString("") == Selector(""))
    #expect(NSSelectorFromString("viewWillAppear:") == Selector("viewWillAppear:"))
  }

  @Test("a name is cut at its first NUL, as a C string would be")
  func embeddedNUL() {
    #expect(Selector("prefix\0suffix") == Selector("prefix"))
  }

  @Test("names of every length up to 40 bytes, and ones differing in one byte, stay apart")
  func lengthsAndNearNames() {
    // The table hashes and compares eight bytes at a time, then the last one to seven: every
    // length exercises another split, and a name differing only in its last byte, its first
    // byte or its length must not be taken for another.
    var seen: [Selector: String] = [:]
    for length in 0...40 {
      let base = String(repeating: "a", count: length)
      for name in [base, base + "b", "b" + base.dropFirst(), base + "é"] {
        let selector = sel_registerName(name)
        #expect(sel_getName(selector) == name)
        #expect(sel_registerName(String(name)) == selector)
        if let other = seen[selector] { #expect(other == name) }
        seen[selector] = name
      }
    }
    #expect(Selector("abcdefghij\0klm") == Selector("abcdefghij"))
    #expect(Selector("abcdefgh\0") == Selector("abcdefgh"))
    #expect(Selector("\0abc") == Selector(""))
  }

  @Test("a name from a bridged or sliced string registers as the same selector")
  func nonNativeStrings() {
    let long = String(repeating: "slice", count: 10) + ":"
    let substring = long.dropFirst(5)
    #expect(sel_registerName(String(substring)) == sel_registerName(String(long.dropFirst(5))))
    #expect(sel_getName(sel_registerName(String(substring))) == String(substring))
  }

  @Test("names start on 16-byte boundaries, as the method caches' hash expects")
  func aligned() {
    // Short names registered one after another would share a cache's first slot if they were
    // packed closer (swk_cache_hash drops the low four bits of the address).
    let selectors = (0..<64).map { Selector("aligned\($0):") } + [Selector("a"), Selector("b")]
    #expect(selectors.allSatisfy { UInt(bitPattern: $0.sel) % 16 == 0 })
  }

  @Test("a million distinct selectors register and round-trip")
  func millionSelectors() {
    var mismatches = 0
    var selectors: [Selector] = []
    selectors.reserveCapacity(1_000_000)
    for index in 0..<1_000_000 {
      selectors.append(sel_registerName("million.\(index):"))
    }
    for (index, selector) in selectors.enumerated()
    where sel_getName(selector) != "million.\(index):" {
      mismatches += 1
    }
    #expect(mismatches == 0)
    #expect(Set(selectors).count == 1_000_000)
  }

  @Test("a selector reference registers on its first read, then reads the same selector")
  func selectorReference() {
    #expect(referenced.registeredSelector == nil)
    let first = referenced.selector
    #expect(first == Selector("selectorReference.test:"))
    #expect(referenced.registeredSelector == first)
    #expect(referenced.selector == first)
    #expect(sel_getName(first) == "selectorReference.test:")
  }

  @Test("known names are found without the lock while another thread grows the table")
  func lookupsDuringGrowth() async {
    // 20,000 new names grow the table several times (it doubles when half full); the readers
    // probe whichever buffer they loaded, old or new, and must always find the known names.
    let known = (0..<256).map { "growth.known.\($0):" }
    let expected = known.map { Selector($0) }
    // The readers go on until the writer is done, so that they overlap every growth.
    let writing = WritingFlag()
    let allFound = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for index in 0..<20_000 { _ = Selector("growth.new.\(index)") }
        writing.isOn.store(false, ordering: .releasing)
        return true
      }
      for _ in 0..<3 {
        group.addTask {
          var found = true
          repeat {
            for (name, selector) in zip(known, expected) where Selector(name) != selector {
              found = false
            }
          } while writing.isOn.load(ordering: .acquiring)
          return found
        }
      }
      var all = true
      for await found in group { all = all && found }
      return all
    }
    #expect(allFound)
    #expect(Selector("growth.new.19999") == Selector("growth.new.19999\0tail"))
  }

  @Test("registering from many threads at once gives one selector per name")
  func concurrentRegistration() async {
    let results = await withTaskGroup(of: [Selector].self) { group in
      for _ in 0..<4 {
        group.addTask { (0..<2_000).map { Selector("concurrent.\($0)") } }
      }
      var all: [[Selector]] = []
      for await batch in group { all.append(batch) }
      return all
    }
    for batch in results.dropFirst() {
      #expect(batch == results[0])
    }
  }
}

/// Whether a writer still runs, read by the tasks that race it.
private final class WritingFlag: Sendable {
  let isOn = Atomic<Bool>(true)
}
