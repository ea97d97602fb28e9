// The send cache's shape: every cached selector stays reachable, in one of its two slots, whatever
// the number of methods and the order their selectors were registered in (issue #36: linear
// probing let one selector of a 1,000-method class read hundreds of slots). A lookup reads two
// slots at most by construction; what these tests hold is that the moves of cuckoo hashing lose
// no Method and mix up none.
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
    "every selector of a large class stays cached, in either slot, and answers its own method",
    arguments: [(10, false), (1_000, false), (10_000, false), (10_000, true)])
  func everySelectorStaysCached(count: Int, reversed: Bool) throws {
    let (cls, selectors) = largeClass(count, reversed: reversed)
    defer { objc_disposeClassPair(cls) }
    let receiver = instance(of: cls)
    func fill() {
      for (index, selector) in selectors.enumerated().reversed() {
        #expect(sendInt(receiver, selector) == index % 7 + 1)
      }
    }
    var flushes = Class.cacheFlushCount
    fill()
    for (index, selector) in selectors.enumerated() {
      // Other tests flush every cache now and then (turning tracing on does): then fill again,
      // as often as it takes. With no flush since the last fill, the cache itself lost it.
      var cached = cls.cachedMethod(for: selector)
      while cached == nil {
        let flushed = Class.cacheFlushCount != flushes
        #expect(flushed, "\(selector) was lost from the cache, with no flush since it was filled")
        guard flushed else { break }
        flushes = Class.cacheFlushCount
        fill()
        cached = cls.cachedMethod(for: selector)
      }
      #expect(cached === class_getInstanceMethod(cls, selector))
      #expect(sendInt(receiver, selector) == index % 7 + 1)
    }
  }

  @Test("a selector never sent is not found in a full cache of a large class")
  func missStaysAMiss() {
    let (cls, selectors) = largeClass(1_000, reversed: false)
    defer { objc_disposeClassPair(cls) }
    let receiver = instance(of: cls)
    for selector in selectors { _ = sendInt(receiver, selector) }
    let unsent = sel_registerName(UniqueName.make("neverSent"))
    // The cache is full of what was sent, so the miss below is a miss of a working cache.
    #expect(selectors.allSatisfy { cls.cachedMethod(for: $0) != nil })
    #expect(cls.cachedMethod(for: unsent) == nil)
    #expect(sendInt(receiver, unsent) == nil, "no method: the send throws")
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
    }
  }
}
