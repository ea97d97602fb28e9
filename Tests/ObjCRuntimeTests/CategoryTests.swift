// Categories attached to a class, and `method(for:)`: the IMP of a send, kept.
import ObjCRuntime
import Testing

@Suite("Categories")
struct CategoryTests {
  @Test("a category's method wins over the class's; of two categories, the last attached wins")
  func lastAttachedWins() throws {
    let cls = makeClass("CategoryTarget", methods: [("value", Constant.one)])
    let object = instance(of: cls)
    #expect(sendTwice(object, "value") == [1, 1], "cached before the category comes")
    try cls.attachCategory(
      "First", methods: [CategoryMethod("value", Constant.imp(Constant.two), "q@:")])
    #expect(sendTwice(object, "value") == [2, 2], "the cache was flushed")
    try cls.attachCategory(
      "Second", methods: [CategoryMethod("value", Constant.imp(Constant.three), "q@:")])
    #expect(sendInt(object, "value") == 3)
    // All three stay in the list, newest first; no send reaches the shadowed ones.
    let values = cls.methods.filter { $0.selector == "value" }.map(\.implementation)
    #expect(
      values == [
        Constant.imp(Constant.three), Constant.imp(Constant.two), Constant.imp(Constant.one),
      ])
    #expect(
      method_getImplementation(class_getInstanceMethod(cls, "value"))
        == Constant.imp(Constant.three))
  }

  @Test("a category's instance and class methods attach together, or neither when one is refused")
  func bothListsOrNeither() throws {
    let cls = makeClass("CategoryBoth", methods: [("value", Constant.one)])
    #expect(throws: ObjCRuntimeError.self) {
      try cls.attachCategory(
        "HalfBad", methods: [CategoryMethod("value", Constant.imp(Constant.two), "q@:")],
        classMethods: [
          CategoryMethod("made", Constant.imp(Constant.two), "q@:"),
          CategoryMethod("made", Constant.imp(Constant.three), "q@:"),
        ])
    }
    #expect(sendInt(instance(of: cls), "value") == 1, "the instance method was not attached")
    #expect(class_getClassMethod(cls, "made") == nil)
    try cls.attachCategory(
      "Whole", methods: [CategoryMethod("value", Constant.imp(Constant.two), "q@:")],
      classMethods: [CategoryMethod("made", Constant.imp(Constant.three), "q@:")])
    #expect(sendInt(instance(of: cls), "value") == 2)
    #expect(try objc_msgSend(cls, "made") as Int == 3)
    // Empty lists attach nothing and refuse nothing.
    try cls.attachCategory("Empty", methods: [], classMethods: [])
    #expect(sendInt(instance(of: cls), "value") == 2)
  }

  @Test("a category that names a selector twice, or a bad encoding, attaches nothing")
  func badCategories() {
    let cls = makeClass("CategoryRefused", methods: [("value", Constant.one)])
    #expect(throws: ObjCRuntimeError.self) {
      try cls.attachCategory(
        "Twice",
        methods: [
          CategoryMethod("other", Constant.imp(Constant.two), "q@:"),
          CategoryMethod("other", Constant.imp(Constant.three), "q@:"),
        ])
    }
    #expect(throws: ObjCRuntimeError.self) {
      try cls.attachCategory(
        "Malformed",
        methods: [
          CategoryMethod("value", Constant.imp(Constant.two), "q@:"),
          CategoryMethod("third", Constant.imp(Constant.three), "q@:{"),
        ])
    }
    #expect(sendInt(instance(of: cls), "value") == 1)
    #expect(class_getInstanceMethod(cls, "other") == nil)
    #expect(throws: Never.self) { try cls.attachCategory("Empty", methods: []) }
  }

  @Test("method(for:) is the IMP a send runs now; a swizzle after does not change the kept one")
  func methodForSelector() throws {
    let cls = makeClass("MethodForTarget", methods: [("value", Constant.one)])
    let object = instance(of: cls)
    let kept = object.method(for: "value")
    method_setImplementation(class_getInstanceMethod(cls, "value"), Constant.imp(Constant.four))
    typealias Value = @convention(c) (id, SEL) -> Int
    let call = unsafeBitCast(kept.rawValue, to: Value.self)
    #expect(
      withExtendedLifetime(object) { call(object.passUnretained(), Selector("value").sel) } == 1)
    #expect(sendInt(object, "value") == 4)
    #expect(object.method(for: "missing") == IMP.forward)
  }
}
