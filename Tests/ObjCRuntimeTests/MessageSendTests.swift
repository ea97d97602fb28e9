// Typed objc_msgSend: every register type, six arguments, super sends and the errors.
import ObjCRuntime
import Testing

private class Calculator: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Calculator.self) {
      ObjCMethodDeclaration("add:to:", Calculator.add32)
      ObjCMethodDeclaration("scale:by:", Calculator.scale)
      ObjCMethodDeclaration("half:", Calculator.half)
      ObjCMethodDeclaration("not:", Calculator.not)
      ObjCMethodDeclaration("widen:", Calculator.widen)
      ObjCMethodDeclaration("narrow:", Calculator.narrow)
      ObjCMethodDeclaration("mix:double:flag:float:object:selector:", Calculator.mix)
      ObjCMethodDeclaration("echo:", Calculator.echo)
      ObjCMethodDeclaration("nothing", Calculator.nothing)
      ObjCMethodDeclaration("fresh", Calculator.fresh)
      ObjCMethodDeclaration("name:", Calculator.name)
      ObjCMethodDeclaration("value", Constant.one)
      ObjCMethodDeclaration.classMethod("shared", Constant.two)
    }
  }

  static let add32: @convention(c) (id, SEL, Int32, Int32) -> Int32 = { _, _, a, b in a &+ b }
  static let scale: @convention(c) (id, SEL, Double, Double) -> Double = { _, _, a, b in a * b }
  static let half: @convention(c) (id, SEL, Float) -> Float = { _, _, value in value / 2 }
  static let not: @convention(c) (id, SEL, Bool) -> Bool = { _, _, value in !value }
  static let widen: @convention(c) (id, SEL, UInt8) -> UInt64 = { _, _, value in UInt64(value) }
  static let narrow: @convention(c) (id, SEL, Int8) -> Int16 = { _, _, value in Int16(value) * 100 }
  static let mix: @convention(c) (id, SEL, Int, Double, Bool, Float, id?, SEL) -> Double = {
    _, _, integer, double, flag, float, object, selector in
    let objectBonus: Double = object == nil ? 0 : 1000
    let selectorBonus = Double(Selector(selector).name.count) * 10_000
    return Double(integer) + double + (flag ? 100 : 0) + Double(float) + objectBonus + selectorBonus
  }
  static let echo: @convention(c) (id, SEL, id?) -> id? = { _, _, object in
    object?.takeUnretainedObject().passRetained()
  }
  static let nothing: @convention(c) (id, SEL) -> id? = { _, _ in nil }
  static let fresh: @convention(c) (id, SEL) -> id? = { _, _ in Calculator().passRetained() }
  static let name: @convention(c) (id, SEL, SEL) -> UnsafePointer<objc_selector> = { _, _, sel in
    sel
  }
}

private final class ScientificCalculator: Calculator {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(ScientificCalculator.self) {
      ObjCMethodDeclaration("value", ScientificCalculator.value)
    }
  }

  /// Overrides `value` and adds 10 to what the superclass's implementation returns.
  static let value: @convention(c) (id, SEL) -> Int = { me, _ in
    let base =
      (try? objc_msgSendSuper(
        ObjCSuper(receiver: me.takeUnretainedObject(), superclass: Calculator.runtimeClass), "value"
      )
        as Int) ?? -1
    return base + 10
  }
}

private final class Unrelated: ObjCObject {}

@Suite("objc_msgSend")
struct MessageSendTests {
  fileprivate let calculator = Calculator()

  @Test("integers of every width travel with their sign")
  func integers() throws {
    #expect(try objc_msgSend(calculator, "add:to:", Int32(-7), Int32(3)) as Int32 == -4)
    #expect(try objc_msgSend(calculator, "add:to:", Int32.max, Int32(1)) as Int32 == Int32.min)
    #expect(try objc_msgSend(calculator, "widen:", UInt8(200)) as UInt64 == 200)
    #expect(try objc_msgSend(calculator, "narrow:", Int8(-5)) as Int16 == -500)
  }

  @Test("floating point travels in its own registers, Float included")
  func floatingPoint() throws {
    #expect(try objc_msgSend(calculator, "scale:by:", 1.5, 4.0) as Double == 6.0)
    #expect(try objc_msgSend(calculator, "half:", Float(3)) as Float == 1.5)
  }

  @Test("Bool results read only the low byte")
  func booleans() throws {
    #expect(try objc_msgSend(calculator, "not:", false) as Bool)
    #expect(!(try objc_msgSend(calculator, "not:", true) as Bool))
  }

  @Test("six mixed arguments arrive in order")
  func sixArguments() throws {
    let result: Double = try objc_msgSend(
      calculator, "mix:double:flag:float:object:selector:", 1, 0.5, true, Float(0.25),
      calculator as ObjCObject?, Selector("ab"))
    #expect(result == 1 + 0.5 + 100 + 0.25 + 1000 + 20_000)
  }

  @Test("objects come back retained and survive the call")
  func objects() throws {
    let echoed: ObjCObject? = try objc_msgSend(calculator, "echo:", calculator as ObjCObject?)
    #expect(echoed === calculator)
    let nothing: ObjCObject? = try objc_msgSend(calculator, "nothing")
    #expect(nothing == nil)
    let fresh: Calculator = try objc_msgSend(calculator, "fresh")
    #expect(fresh !== calculator)
    #expect(fresh.isKind(of: Calculator.runtimeClass))
  }

  @Test("selectors travel as _cmd does")
  func selectors() throws {
    #expect(try objc_msgSend(calculator, "name:", Selector("zork")) as Selector == "zork")
  }

  @Test("class methods are sent to the class object")
  func classMethods() throws {
    #expect(try objc_msgSend(Calculator.runtimeClass, "shared") as Int == 2)
    #expect(try objc_msgSend(ScientificCalculator.runtimeClass, "shared") as Int == 2)
  }

  @Test("objc_msgSendSuper starts the lookup at the given superclass")
  func superSend() throws {
    #expect(try objc_msgSend(ScientificCalculator(), "value") as Int == 11)
    #expect(try objc_msgSend(calculator, "value") as Int == 1)
  }

  @Test("an unknown selector is a thrown error naming -[Class selector], never a crash")
  func unrecognized() {
    #expect(
      throws: ObjCRuntimeError.unrecognizedSelector(
        MethodReference(className: "Calculator", selectorName: "divide:"))
    ) {
      try objc_msgSend(calculator, "divide:", 1) as Int
    }
    #expect(
      throws: ObjCRuntimeError.unrecognizedSelector(
        MethodReference(className: "Calculator", selectorName: "make", isClassMethod: true))
    ) {
      try objc_msgSend(Calculator.runtimeClass, "make") as Void
    }
  }

  @Test("a call whose types disagree with the method's encoding is refused before the call")
  func signatureMismatch() {
    #expect(
      throws: ObjCRuntimeError.signatureMismatch(
        MethodReference(className: "Calculator", selectorName: "add:to:"), method: "i@:ii",
        call: "q@:qq")
    ) {
      try objc_msgSend(calculator, "add:to:", 1, 2) as Int
    }
    // The mismatch is caught on a cache hit too.
    _ = try? objc_msgSend(calculator, "scale:by:", 1.0, 1.0) as Double
    #expect(throws: ObjCRuntimeError.self) {
      try objc_msgSend(calculator, "scale:by:", 1.0, 1.0) as Float
    }
  }

  @Test("a returned object of the wrong class, or nil where none is allowed, is an error")
  func wrongReturnedObject() {
    #expect(throws: ObjCRuntimeError.self) {
      try objc_msgSend(calculator, "echo:", calculator as ObjCObject?) as Unrelated
    }
    #expect(throws: ObjCRuntimeError.self) {
      try objc_msgSend(calculator, "nothing") as Calculator
    }
  }
}
