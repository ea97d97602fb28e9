// IMPs made from closures: real C function pointers through libffi.
import CABITestSupport
import Testing

@testable import ObjCRuntime

private final class Thermometer: ObjCObject {
  var celsius = 20.0
}

@Suite("imp_implementationWithBlock", .serialized)
struct BlockIMPTests {
  @Test("a closure IMP can be added, sent to, and called as a C function")
  func addAndSend() throws {
    let imp = try imp_implementationWithBlock {
      (me: Thermometer, offset: Int, factor: Double) -> Double in
      (me.celsius + Double(offset)) * factor
    }
    defer { imp_removeBlock(imp) }
    #expect(imp.declaredTypeEncoding == "d@:qd")
    let cls = makeClass("BlockHost", superclass: Thermometer.runtimeClass)
    #expect(class_addMethod(cls, "scaled:by:", imp, "d@:qd"))
    let thermometer = Thermometer()
    object_setClass(thermometer, cls)
    #expect(try objc_msgSend(thermometer, "scaled:by:", 10, 1.5) as Double == 45)
    let function = unsafeBitCast(
      imp.rawValue, to: (@convention(c) (id, SEL, Int, Double) -> Double).self)
    #expect(function(thermometer.passUnretained(), Selector("x").sel, 0, 2) == 40)
  }

  @Test("every scalar type and six arguments arrive intact")
  func sixArguments() throws {
    let block: (Thermometer, Int8, UInt16, Float, Bool, Selector, ObjCObject?) -> Float = {
      _, a, b, c, d, e, f in
      let integers = Float(a) + Float(b)
      let flags: Float = (d ? 100 : 0) + (f == nil ? 0 : 10_000)
      return integers + c + flags + Float(e.name.count) * 1000
    }
    let imp = try imp_implementationWithBlock(block)
    defer { imp_removeBlock(imp) }
    let cls = makeClass("BlockSix", superclass: Thermometer.runtimeClass)
    class_addMethod(cls, "a:b:c:d:e:f:", imp, "f@:cSfB:@")
    let thermometer = Thermometer()
    object_setClass(thermometer, cls)
    let result: Float = try objc_msgSend(
      thermometer, "a:b:c:d:e:f:", Int8(-3), UInt16(60_000), Float(0.5), true, Selector("ab"),
      thermometer as ObjCObject?)
    let expected: Float = 72_097.5  // -3 + 60,000 + 0.5 + 100 + 2,000 + 10,000
    #expect(result == expected)
  }

  @Test("objects come back retained, Bool and Void closures work")
  func returns() throws {
    let make = try imp_implementationWithBlock { (_: Thermometer) -> ObjCObject? in Thermometer() }
    let check = try imp_implementationWithBlock { (me: Thermometer, limit: Double) -> Bool in
      me.celsius > limit
    }
    let warm = try imp_implementationWithBlock { (me: Thermometer) in me.celsius += 1 }
    defer {
      for imp in [make, check, warm] { imp_removeBlock(imp) }
    }
    let cls = makeClass("BlockReturns", superclass: Thermometer.runtimeClass)
    class_addMethod(cls, "make", make, "@@:")
    class_addMethod(cls, "isAbove:", check, "B@:d")
    class_addMethod(cls, "warm", warm, "v@:")
    let thermometer = Thermometer()
    object_setClass(thermometer, cls)
    let made: Thermometer = try objc_msgSend(thermometer, "make")
    #expect(made.celsius == 20)
    #expect(try objc_msgSend(thermometer, "isAbove:", 19.5) as Bool)
    try objc_msgSend(thermometer, "warm") as Void
    #expect(thermometer.celsius == 21)
  }

  @Test("closure IMPs exchange like any other")
  func exchange() throws {
    let one = try imp_implementationWithBlock { (_: Thermometer) -> Int in 1 }
    let two = try imp_implementationWithBlock { (_: Thermometer) -> Int in 2 }
    defer {
      imp_removeBlock(one)
      imp_removeBlock(two)
    }
    let cls = makeClass("BlockExchange", superclass: Thermometer.runtimeClass)
    class_addMethod(cls, "one", one, "q@:")
    class_addMethod(cls, "two", two, "q@:")
    method_exchangeImplementations(
      class_getInstanceMethod(cls, "one"), class_getInstanceMethod(cls, "two"))
    let thermometer = Thermometer()
    object_setClass(thermometer, cls)
    #expect(sendTwice(thermometer, "one") == [2, 2])
  }

  @Test("a closure IMP called from C receives integers of every width extended correctly")
  func calledFromC() throws {
    let block: (Thermometer, Int8, UInt8, Int16, UInt16, Int32, UInt32) -> Int64 = {
      _, a, b, c, d, e, f in
      Int64(a) + Int64(b) + Int64(c) + Int64(d) + Int64(e) + Int64(f)
    }
    let imp = try imp_implementationWithBlock(block)
    defer { imp_removeBlock(imp) }
    let thermometer = Thermometer()
    let viaC = abi_call_extend(
      imp.rawValue, UnsafeMutableRawPointer(thermometer.passUnretained()), nil)
    #expect(viaC == -100 + 200 - 30_000 + 60_000 - 2_000_000_000 + 4_000_000_000)
  }

  @Test("closures that fit in registers get a stub of their own, the others a libffi closure")
  func bothPaths() throws {
    // Other suites make stubs in parallel (hooks do), so the test asks about its own IMPs
    // rather than counting every stub.
    let registers = try imp_implementationWithBlock { (me: Thermometer, x: Double) -> Double in
      me.celsius * x
    }
    #expect(registers.closureKind == .trampoline)
    let wide = try imp_implementationWithBlock {
      (_: Thermometer, a: Int, b: Int, c: Int, d: Int) -> Int in a + b + c + d
    }
    #expect(wide.closureKind == .libffiClosure, "four integers: libffi")
    let cls = makeClass("BlockPaths", superclass: Thermometer.runtimeClass)
    class_addMethod(cls, "times:", registers, "d@:d")
    class_addMethod(cls, "a:b:c:d:", wide, "q@:qqqq")
    let thermometer = Thermometer()
    object_setClass(thermometer, cls)
    #expect(try objc_msgSend(thermometer, "times:", 2.0) as Double == 40)
    #expect(try objc_msgSend(thermometer, "a:b:c:d:", 1, 2, 3, 4) as Int == 10)
    imp_removeBlock(registers)
    imp_removeBlock(wide)
  }

  @Test("every register form receives its arguments in order, kinds interleaved")
  func registerForms() throws {
    let threeIntegers = try imp_implementationWithBlock {
      (_: Thermometer, a: Int, b: Int, c: Int) -> Int in a * 100 + b * 10 + c
    }
    let threeDoubles = try imp_implementationWithBlock {
      (_: Thermometer, a: Double, b: Double, c: Double) -> Double in a * 100 + b * 10 + c
    }
    let interleaved = try imp_implementationWithBlock {
      (_: Thermometer, a: Double, b: Int32, c: Float, d: UInt8) -> Double in
      a * 1000 + Double(b) * 100 + Double(c) * 10 + Double(d)
    }
    let void = try imp_implementationWithBlock { (me: Thermometer, value: Double) in
      me.celsius = value
    }
    defer {
      for imp in [threeIntegers, threeDoubles, interleaved, void] { imp_removeBlock(imp) }
    }
    for imp in [threeIntegers, threeDoubles, interleaved, void] {
      #expect(imp.closureKind == .trampoline)
    }
    let cls = makeClass("BlockForms", superclass: Thermometer.runtimeClass)
    class_addMethod(cls, "ints:::", threeIntegers, "q@:qqq")
    class_addMethod(cls, "doubles:::", threeDoubles, "d@:ddd")
    class_addMethod(cls, "mixed::::", interleaved, "d@:difC")
    class_addMethod(cls, "set:", void, "v@:d")
    let thermometer = Thermometer()
    object_setClass(thermometer, cls)
    #expect(try objc_msgSend(thermometer, "ints:::", 1, 2, 3) as Int == 123)
    #expect(try objc_msgSend(thermometer, "doubles:::", 1.0, 2.0, 3.0) as Double == 123)
    let mixed: Double = try objc_msgSend(
      thermometer, "mixed::::", 4.0, Int32(-3), Float(2), UInt8(1))
    #expect(mixed == 4000 - 300 + 20 + 1)
    try objc_msgSend(thermometer, "set:", 36.6) as Void
    #expect(thermometer.celsius == 36.6)
  }

  @Test("imp_getBlock returns the closure; imp_removeBlock frees it once")
  func getAndRemove() throws {
    let imp = try imp_implementationWithBlock { (_: Thermometer) -> Int in 7 }
    let block = try #require(imp_getBlock(imp) as? (Thermometer) -> Int)
    #expect(block(Thermometer()) == 7)
    #expect(imp_removeBlock(imp))
    #expect(!imp_removeBlock(imp))
    #expect(imp_getBlock(imp) == nil)
    #expect(imp_getBlock(Constant.imp(Constant.one)) == nil)
    #expect(!imp_removeBlock(nil))
  }

  @Test("a receiver of another class gets zero, not a crash")
  func wrongReceiver() throws {
    let imp = try imp_implementationWithBlock { (me: Thermometer) -> Double in me.celsius }
    defer { imp_removeBlock(imp) }
    let cls = makeClass("BlockWrong")
    class_addMethod(cls, "celsius", imp, "d@:")
    // The object is a TestObject, not a Thermometer: the closure is not called.
    #expect(try objc_msgSend(instance(of: cls), "celsius") as Double == 0)
  }

  @Test("20,000 interceptors of a register method made, called and dropped leave no stub behind")
  func interceptorStubsFreed() throws {
    // An interceptor of a method with integer-register arguments has a stub of its own (its
    // entry's), which the interceptor frees when it goes.
    let stubsBefore = ClosureIMPStatistics.liveTrampolines
    let thermometer = Thermometer()
    var total = 0
    for index in 0..<20_000 {
      let interceptor = try Interceptor(types: "q@:q") { call in
        call.setReturnValue((call.argument(at: 2, as: Int.self) ?? 0) + index)
      }
      let function = unsafeBitCast(
        interceptor.implementation.rawValue, to: (@convention(c) (id, SEL, Int) -> Int).self)
      total &+= function(thermometer.passUnretained(), Selector("f:").sel, 1)
    }
    // Other suites make stubs in parallel (see the test below); a leak here would leave 20,000.
    #expect(abs(ClosureIMPStatistics.liveTrampolines - stubsBefore) < 10_000)
    #expect(total == (1...20_000).reduce(0, +))
  }

  @Test("100,000 closures made, called and removed leave none behind")
  func noLeaks() throws {
    let before = ClosureIMPStatistics.live
    let stubsBefore = ClosureIMPStatistics.liveTrampolines
    let thermometer = Thermometer()
    var total = 0
    for index in 0..<100_000 {
      let imp = try imp_implementationWithBlock { (_: Thermometer, x: Int) -> Int in x + index }
      let function = unsafeBitCast(imp.rawValue, to: (@convention(c) (id, SEL, Int) -> Int).self)
      total &+= function(thermometer.passUnretained(), Selector("f:").sel, 1)
      imp_removeBlock(imp)
    }
    // Other suites make closures and stubs in parallel (the matrix tests install and remove
    // every plugin's hooks per cell: thousands at a time); a leak here would leave 100,000.
    #expect(abs(ClosureIMPStatistics.live - before) < 10_000)
    #expect(abs(ClosureIMPStatistics.liveTrampolines - stubsBefore) < 10_000)
    #expect(total == (1...100_000).reduce(0, +))
  }
}
