// The doors for callers outside Swift: the method a send runs, the implementation word, the
// flush count, and selector references read through their tables. (Installing a failed-forward
// reporter is process-wide: GNUObjCTests tries it, after the loader installed its own.)
import ObjCRuntime
import Testing

@Suite("Foreign callers")
struct ForeignCallersTests {
  @Test("cachedMethod answers only once a send filled the cache; method(sending:) always")
  func lookups() throws {
    let cls = makeClass("ForeignLookup", methods: [("value", Constant.one)])
    let object = instance(of: cls)
    #expect(MessageLookup.cachedMethod(sending: "value", to: object) == nil)
    let found = try #require(MessageLookup.method(sending: "value", to: object))
    #expect(found.takeUnretainedValue().selector == "value")
    #expect(
      MessageLookup.cachedMethod(sending: "value", to: object)?.toOpaque() == found.toOpaque())
    #expect(MessageLookup.method(sending: "nothingAnswers", to: object) == nil)
    let superclass = try #require(cls.superclass)
    #expect(
      MessageLookup.method(sendingSuper: "value", to: object, startingAt: superclass) == nil,
      "the superclass has no value")
  }

  @Test("the implementation word follows an exchange; a flush counts, an exchange does not")
  func implementationWordAndFlushes() throws {
    let cls = makeClass("ForeignWord", methods: [("one", Constant.one), ("two", Constant.two)])
    let one = try #require(class_getInstanceMethod(cls, "one"))
    let two = try #require(class_getInstanceMethod(cls, "two"))
    let word = one.implementationWordAddress
    #expect(word.load(as: UInt.self) == UInt(bitPattern: Constant.imp(Constant.one).rawValue))
    let flushes = MessageLookup.flushGeneration
    method_exchangeImplementations(one, two)
    #expect(word.load(as: UInt.self) == UInt(bitPattern: Constant.imp(Constant.two).rawValue))
    #expect(class_addMethod(cls, "three", Constant.imp(Constant.three), "q@:"))
    #expect(MessageLookup.flushGeneration > flushes)
  }

  @Test("a reference in a registered table stands for its selector; other addresses are themselves")
  func selectorReferences() {
    let table = UnsafeMutablePointer<UnsafeRawPointer>.allocate(capacity: 4)  // never freed
    let selector: Selector = "foreignReferenced:"
    for index in 0..<4 { table[index] = UnsafeRawPointer(selector.sel) }
    let base = UnsafeRawPointer(table)
    func read(_ address: UnsafeRawPointer) -> Selector {
      Selector(address.assumingMemoryBound(to: objc_selector.self))
    }
    // Not yet registered, an empty table and a stride below a pointer's: nothing stands for it.
    SelectorReferenceTables.register(base: base, count: 0, stride: 8)
    SelectorReferenceTables.register(base: base, count: 4, stride: 4)
    #expect(read(base + 8) != selector)
    SelectorReferenceTables.register(base: base, count: 4, stride: 8)
    SelectorReferenceTables.register(base: base, count: 4, stride: 8)  // twice: no change
    #expect(read(base) == selector)
    #expect(read(base + 24) == selector)
    #expect(read(UnsafeRawPointer(selector.sel)) == selector, "a selector is itself")
    // A huge count that would overflow the address space is ignored.
    SelectorReferenceTables.register(base: base, count: .max / 2, stride: 16)
    #expect(read(base + 32).sel == (base + 32).assumingMemoryBound(to: objc_selector.self))
  }
}
