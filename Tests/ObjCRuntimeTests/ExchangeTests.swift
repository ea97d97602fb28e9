// Port of objc4's exchangeImp.m, plus method_setImplementation, on instance and class methods.
import ObjCRuntime
import Testing

/// Super has the two methods; A inherits them; B overrides the target; C is unrelated. Each test
/// builds its own set.
private struct ExchangeWorld {
  let superclass = makeClass(
    "ExchangeSuper",
    methods: [("swizzleTarget", Unshared.one), ("swizzleReplacement", Unshared.two)],
    classMethods: [("classTarget", Unshared.three), ("classReplacement", Unshared.four)])
  let classA: Class
  let classB: Class
  let classC = makeClass("ExchangeC", methods: [("swizzleTarget", Unshared.six)])

  init() {
    classA = makeClass("ExchangeA", superclass: superclass)
    classB = makeClass(
      "ExchangeB", superclass: superclass, methods: [("swizzleTarget", Unshared.five)])
  }

  var superObject: ObjCObject { instance(of: superclass) }
  var a: ObjCObject { instance(of: classA) }
  var b: ObjCObject { instance(of: classB) }
  var c: ObjCObject { instance(of: classC) }
  var target: Method { class_getInstanceMethod(superclass, "swizzleTarget")! }
  var replacement: Method { class_getInstanceMethod(superclass, "swizzleReplacement")! }
}

@Suite("method_exchangeImplementations")
struct ExchangeTests {

  @Test("every class that inherits the methods sees the swap; overriders and strangers do not")
  func exchange() {
    let world = ExchangeWorld()
    let (superObject, a, b, c) = (world.superObject, world.a, world.b, world.c)
    let (target, replacement) = (world.target, world.replacement)
    for object in [superObject, a, b, c] as [ObjCObject] {
      _ = sendTwice(object, "swizzleTarget")
    }
    method_exchangeImplementations(target, replacement)
    #expect(sendTwice(superObject, "swizzleTarget") == [2, 2])
    #expect(sendTwice(superObject, "swizzleReplacement") == [1, 1])
    #expect(sendTwice(a, "swizzleTarget") == [2, 2])
    #expect(sendTwice(a, "swizzleReplacement") == [1, 1])
    #expect(sendTwice(b, "swizzleTarget") == [5, 5])
    #expect(sendTwice(b, "swizzleReplacement") == [1, 1])
    #expect(sendTwice(c, "swizzleTarget") == [6, 6])

    method_exchangeImplementations(target, replacement)
    #expect(sendTwice(superObject, "swizzleTarget") == [1, 1])
    #expect(sendTwice(a, "swizzleTarget") == [1, 1])
    #expect(sendTwice(a, "swizzleReplacement") == [2, 2])
  }

  @Test("only the IMPs move: selectors and encodings stay with their Methods")
  func onlyIMPsMove() {
    let world = ExchangeWorld()
    let (target, replacement) = (world.target, world.replacement)
    let targetIMP = method_getImplementation(target)
    method_exchangeImplementations(target, replacement)
    #expect(method_getName(target) == "swizzleTarget")
    #expect(method_getTypeEncoding(target) == "q@:")
    #expect(method_getImplementation(replacement) == targetIMP)
  }

  @Test("nil arguments and a method exchanged with itself change nothing")
  func degenerate() {
    let world = ExchangeWorld()
    let (a, target) = (world.a, world.target)
    method_exchangeImplementations(nil, nil)
    method_exchangeImplementations(target, nil)
    method_exchangeImplementations(target, target)
    #expect(sendTwice(a, "swizzleTarget") == [1, 1])
    #expect(
      throws: ObjCRuntimeError.exchangeWithItself(
        MethodReference(className: world.superclass.name, selectorName: "swizzleTarget"))
    ) {
      try target.exchangeImplementation(with: target)
    }
  }

  @Test("class methods exchange through the metaclass, after the class was messaged")
  func classMethods() throws {
    let world = ExchangeWorld()
    let cls = world.classA
    #expect(try objc_msgSend(cls, "classTarget") as Int == 3)
    let first = try #require(class_getClassMethod(world.superclass, "classTarget"))
    let second = try #require(class_getClassMethod(world.superclass, "classReplacement"))
    method_exchangeImplementations(first, second)
    #expect(try objc_msgSend(cls, "classTarget") as Int == 4)
    #expect(try objc_msgSend(world.superclass, "classTarget") as Int == 4)
    #expect(try objc_msgSend(cls, "classReplacement") as Int == 3)
  }

  @Test("method_setImplementation returns the old IMP, reaches inheritors, and ignores nil")
  func setImplementation() {
    let world = ExchangeWorld()
    let (a, b, target) = (world.a, world.b, world.target)
    _ = sendTwice(a, "swizzleTarget")
    let old = method_setImplementation(target, Constant.imp(Constant.seven))
    #expect(old == Constant.imp(Unshared.one))
    #expect(sendTwice(a, "swizzleTarget") == [7, 7])
    #expect(sendTwice(b, "swizzleTarget") == [5, 5])
    #expect(method_setImplementation(target, nil) == nil)
    #expect(method_setImplementation(nil, Constant.imp(Constant.one)) == nil)
    method_setImplementation(target, old)
    #expect(sendTwice(a, "swizzleTarget") == [1, 1])
  }

  @Test("the typed exchange refuses methods of another class and different signatures")
  func typedExchange() throws {
    let world = ExchangeWorld()
    let (a, target) = (world.a, world.target)
    let foreign = try #require(class_getInstanceMethod(world.classC, "swizzleTarget"))
    #expect(
      throws: ObjCRuntimeError.methodNotInClass(
        MethodReference(className: world.classC.name, selectorName: "swizzleTarget"),
        className: world.classA.name)
    ) {
      try world.classA.exchangeImplementations(target, foreign)
    }
    let isEqual = try #require(class_getInstanceMethod(world.classA, "isEqual:"))
    #expect(throws: ObjCRuntimeError.self) {
      try world.classA.exchangeImplementations(target, isEqual)
    }
    #expect(sendTwice(a, "swizzleTarget") == [1, 1])
  }
}
