// The send cache's shape: a send to any cached selector reads at most two slots, whatever the
// number of methods and the order their selectors were registered in (issue #36: linear probing
// let one selector of a 1,000-method class read hundreds of slots).
import ObjCRuntime
import Testing

@Suite("Method cache")
struct MethodCacheTests {
  private static let answers = [
    Constant.one, Constant.two, Constant.three, Constant.four, Constant.five, Constant.six,
    Constant.seven,
  ]

  /// A class with `count` methods whose selectors are registered interleaved with names no class
  /// uses, answering `index % 7 + 1` for method `index`; `reversed` registers them last first.
  private func largeClass(_ count: Int, reversed: Bool) -> (Class, [Selector]) {
    let cls = objc_allocateClassPair(TestObject.runtimeClass, UniqueName.make("ManyMethods"), 0)!
    var selectors: [Selector] = []
    let order = reversed ? Array((0..<count).reversed()) : Array(0..<count)
    for index in order {
      _ = sel_registerName(UniqueName.make("cacheFiller\(index)_"))
      selectors.append(sel_registerName(UniqueName.make("cacheMethod\(index)_")))
    }
    if reversed { selectors.reverse() }
    for (index, selector) in selectors.enumerated() {
      class_addMethod(cls, selector, Constant.imp(MethodCacheTests.answers[index % 7]), "q@:")
    }
    objc_registerClassPair(cls)
    return (cls, selectors)
  }

  @Test(
    "every selector of a large class is one or two slots away, and answers its own method",
    arguments: [(10, false), (1_000, false), (10_000, false), (10_000, true)])
  func boundedProbes(count: Int, reversed: Bool) throws {
    let (cls, selectors) = largeClass(count, reversed: reversed)
    defer { objc_disposeClassPair(cls) }
    let receiver = instance(of: cls)
    for (index, selector) in selectors.enumerated().reversed() {
      #expect(sendInt(receiver, selector) == index % 7 + 1)
    }
    var worst = 0
    for (index, selector) in selectors.enumerated() {
      let cached = try #require(cls.cachedMethod(for: selector))
      #expect(cached === class_getInstanceMethod(cls, selector))
      #expect(sendInt(receiver, selector) == index % 7 + 1)
      worst = max(worst, cls.cacheProbeLength(for: selector))
    }
    #expect(worst <= 2)
  }

  @Test("a selector never sent misses after at most two slots")
  func missIsBounded() {
    let (cls, selectors) = largeClass(1_000, reversed: false)
    defer { objc_disposeClassPair(cls) }
    let receiver = instance(of: cls)
    for selector in selectors { _ = sendInt(receiver, selector) }
    let unsent = sel_registerName(UniqueName.make("neverSent"))
    #expect(cls.cachedMethod(for: unsent) == nil)
    #expect(cls.cacheProbeLength(for: unsent) <= 2)
  }

  @Test("a flush empties the cache, and sends fill it again with the same answers")
  func flushAndRefill() throws {
    let (cls, selectors) = largeClass(100, reversed: false)
    defer { objc_disposeClassPair(cls) }
    let receiver = instance(of: cls)
    for selector in selectors { _ = sendInt(receiver, selector) }
    // Adding a method flushes the class's cache, as objc4's class_addMethod does.
    class_addMethod(
      cls, sel_registerName(UniqueName.make("added")), Constant.imp(Constant.one), "q@:")
    #expect(cls.cachedMethod(for: selectors[0]) == nil)
    for (index, selector) in selectors.enumerated() {
      #expect(sendInt(receiver, selector) == index % 7 + 1)
      #expect(cls.cacheProbeLength(for: selector) <= 2)
    }
  }
}
