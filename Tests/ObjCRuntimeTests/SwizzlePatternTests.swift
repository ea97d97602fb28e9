// The classic swizzling bug (naive exchange on an inherited method) and the safe pattern.
import ObjCRuntime
import Testing

/// `-[Greeter greet]` returns 1; subclasses inherit it. The replacement, `swz_greet`, returns the
/// original's result plus 2000 by sending `swz_greet` to self, as swizzled methods do.
private let swzGreet: @convention(c) (id, SEL) -> Int = { me, _ in
  ((try? objc_msgSend(me.takeUnretainedObject(), "swz_greet") as Int) ?? -1_000_000) + 2000
}

private struct GreeterFamily {
  let base = makeClass("Greeter", methods: [("greet", Unshared.one)])
  let naiveSub: Class
  let safeSub: Class
  let sibling: Class

  init() {
    naiveSub = makeClass("NaiveSub", superclass: base)
    safeSub = makeClass("SafeSub", superclass: base)
    sibling = makeClass("Sibling", superclass: base)
    for cls in [naiveSub, safeSub] {
      class_addMethod(cls, "swz_greet", try! IMP(swzGreet), "q@:")
    }
  }
}

@Suite("Swizzle patterns")
struct SwizzlePatternTests {
  @Test("the naive exchange on an inherited method swaps the superclass's own method")
  func naiveExchangeBreaksTheSuperclass() {
    let family = GreeterFamily()
    let plainBase = instance(of: family.base)
    let sibling = instance(of: family.sibling)
    _ = sendTwice(plainBase, "greet")

    let original = class_getInstanceMethod(family.naiveSub, "greet")
    let replacement = class_getInstanceMethod(family.naiveSub, "swz_greet")
    #expect(original?.owner === family.base)  // the trap: this is Greeter's Method
    method_exchangeImplementations(original, replacement)

    #expect(sendInt(instance(of: family.naiveSub), "greet") == 2001)
    // Greeter and every sibling now run swz_greet, which sends swz_greet, which they lack.
    // On objc4 and GNU this aborts the process; here it is a thrown error the IMP turned into -1.
    #expect(sendInt(plainBase, "greet") == -1_000_000 + 2000)
    #expect(sendInt(sibling, "greet") == -1_000_000 + 2000)
  }

  @Test("the safe pattern changes only the subclass")
  func safePatternChangesOnlyTheSubclass() throws {
    let family = GreeterFamily()
    let cls = family.safeSub
    let original = try #require(class_getInstanceMethod(cls, "greet"))
    let replacement = try #require(class_getInstanceMethod(cls, "swz_greet"))
    if class_addMethod(
      cls, "greet", method_getImplementation(replacement), method_getTypeEncoding(replacement))
    {
      class_replaceMethod(
        cls, "swz_greet", method_getImplementation(original), method_getTypeEncoding(original))
    } else {
      method_exchangeImplementations(original, replacement)
    }
    #expect(sendTwice(instance(of: cls), "greet") == [2001, 2001])
    #expect(sendTwice(instance(of: family.base), "greet") == [1, 1])
    #expect(sendTwice(instance(of: family.sibling), "greet") == [1, 1])
  }

  @Test("swizzleInstanceMethod is the safe pattern, and twice restores the original")
  func typedSwizzle() throws {
    let family = GreeterFamily()
    let object = instance(of: family.safeSub)
    try family.safeSub.swizzleInstanceMethod("greet", with: "swz_greet")
    #expect(sendTwice(object, "greet") == [2001, 2001])
    #expect(sendTwice(instance(of: family.base), "greet") == [1, 1])
    try family.safeSub.swizzleInstanceMethod("greet", with: "swz_greet")
    #expect(sendTwice(object, "greet") == [1, 1])
  }

  @Test("swizzleInstanceMethod refuses missing methods and different signatures")
  func typedSwizzleErrors() throws {
    let family = GreeterFamily()
    #expect(
      throws: ObjCRuntimeError.methodNotFound(
        MethodReference(className: family.safeSub.name, selectorName: "wave"))
    ) {
      try family.safeSub.swizzleInstanceMethod("greet", with: "wave")
    }
    #expect(throws: ObjCRuntimeError.self) {
      try family.safeSub.swizzleInstanceMethod("greet", with: "isEqual:")
    }
    #expect(sendTwice(instance(of: family.safeSub), "greet") == [1, 1])
  }
}
