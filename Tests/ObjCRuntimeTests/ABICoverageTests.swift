// ABI coverage: every signature called through ffi_call (Invocation) and through a libffi
// closure called from C (Interceptor), compared with a direct C call.
import CABITestSupport
import Foundation
import ObjCRuntimeGeometry
import Testing

@testable import ObjCRuntime

extension ABIDouble4: ObjCTypeEncodable {
  /// The encoding of the C struct.
  public static var objcTypeEncoding: String { "{ABIDouble4=dddd}" }
}
extension ABIFloat2: ObjCTypeEncodable {
  /// The encoding of the C struct.
  public static var objcTypeEncoding: String { "{ABIFloat2=ff}" }
}
extension ABIMixed: ObjCTypeEncodable {
  /// The encoding of the C struct.
  public static var objcTypeEncoding: String { "{ABIMixed=cdi}" }
}
extension ABINested: ObjCTypeEncodable {
  /// The encoding of the C struct.
  public static var objcTypeEncoding: String { "{ABINested={ABIFloat2=ff}d}" }
}
extension ABIAffine: ObjCTypeEncodable {
  /// The encoding of the C struct.
  public static var objcTypeEncoding: String { "{ABIAffine=dddddd}" }
}
extension ABISmall: ObjCTypeEncodable {
  /// The encoding of the C struct.
  public static var objcTypeEncoding: String { "{ABISmall=ii}" }
}

/// A C function as an IMP.
private func imp<Function>(_ function: Function) -> IMP {
  IMP(rawValue: unsafeBitCast(function, to: UnsafeRawPointer.self))
}

/// An object whose class has `function` as the method `call`, typed `types`.
private func host(_ function: IMP, types: String) -> ObjCObject {
  let cls = makeClass("ABIHost")
  class_addMethod(cls, "call", function, types)
  return instance(of: cls)
}

/// An invocation of `call` on an object whose method is `function`.
private func invocation(_ function: IMP, _ types: String) throws -> Invocation {
  try Invocation(target: host(function, types: types), selector: "call")
}

/// An interceptor that forwards every call to `function` unchanged.
private func passThrough(_ function: IMP, _ types: String) throws -> Interceptor {
  try Interceptor(types: types) { call in call.forward(to: function) }
}

private typealias ExtendFunction =
  @convention(c) (
    UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int8, UInt8, Int16, UInt16, Int32, UInt32
  ) -> Int64

@Suite("ABI coverage")
struct ABICoverageTests {
  @Test("integers of every width are sign- and zero-extended")
  func extension_() throws {
    let function = imp(abi_extend as ExtendFunction)
    let types = "q@:cCsSiI"
    let expected = abi_call_extend(function.rawValue, nil, nil)
    #expect(expected == -100 + 200 - 30_000 + 60_000 - 2_000_000_000 + 4_000_000_000)
    let call = try invocation(function, types)
    try call.setArgument(Int8(-100), at: 2)
    try call.setArgument(UInt8(200), at: 3)
    try call.setArgument(Int16(-30_000), at: 4)
    try call.setArgument(UInt16(60_000), at: 5)
    try call.setArgument(Int32(-2_000_000_000), at: 6)
    try call.setArgument(UInt32(4_000_000_000), at: 7)
    try call.invoke()
    #expect(try call.returnValue(as: Int64.self) == expected)
    let interceptor = try passThrough(function, types)
    #expect(abi_call_extend(interceptor.implementation.rawValue, nil, nil) == expected)
  }

  @Test("narrow integer results come back with their sign")
  func narrowResults() throws {
    typealias Narrow =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int64) -> Int8
    typealias NarrowUnsigned =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int64) -> UInt16
    let signed = try invocation(imp(abi_narrow_signed as Narrow), "c@:q")
    try signed.setArgument(Int64(-1), at: 2)
    try signed.invoke()
    #expect(try signed.returnValue(as: Int8.self) == -1)
    let unsigned = try invocation(imp(abi_narrow_unsigned as NarrowUnsigned), "S@:q")
    try unsigned.setArgument(Int64(0x1_FFFF), at: 2)
    try unsigned.invoke()
    #expect(try unsigned.returnValue(as: UInt16.self) == 0xFFFF)
  }

  @Test("ten integers and ten doubles: more arguments than registers")
  func manyArguments() throws {
    typealias Ten =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int64, Int64, Int64, Int64, Int64,
        Int64,
        Int64, Int64, Int64, Int64
      ) -> Int64
    let integers = imp(abi_ten_integers as Ten)
    let expected = abi_call_ten_integers(integers.rawValue, nil, nil)
    let call = try invocation(integers, "q@:qqqqqqqqqq")
    for (index, value) in [1, -2, 3, -4, 5, -6, 7, -8, 9, -10].enumerated() {
      try call.setArgument(Int64(value), at: index + 2)
    }
    try call.invoke()
    #expect(try call.returnValue(as: Int64.self) == expected)
    let interceptor = try passThrough(integers, "q@:qqqqqqqqqq")
    #expect(abi_call_ten_integers(interceptor.implementation.rawValue, nil, nil) == expected)

    typealias TenDoubles =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double
      ) -> Double
    let doubles = try invocation(imp(abi_ten_doubles as TenDoubles), "d@:dddddddddd")
    for index in 0..<10 { try doubles.setArgument(Double(index) + 0.5, at: index + 2) }
    try doubles.invoke()
    let direct = abi_ten_doubles(nil, nil, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5)
    #expect(try doubles.returnValue(as: Double.self) == direct)
  }

  @Test("floats and doubles mixed with integers in every position")
  func mixed() throws {
    typealias Mix =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int8, Double, UInt16, Float, Int32,
        Double,
        UInt64, Float, Bool, Double
      ) -> Double
    let function = imp(abi_mix as Mix)
    let types = "d@:cdSfidQfBd"
    let expected = abi_call_mix(function.rawValue, nil, nil)
    let call = try invocation(function, types)
    try call.setArgument(Int8(-5), at: 2)
    try call.setArgument(1.5, at: 3)
    try call.setArgument(UInt16(65_000), at: 4)
    try call.setArgument(Float(2.25), at: 5)
    try call.setArgument(Int32(-70_000), at: 6)
    try call.setArgument(3.5, at: 7)
    try call.setArgument(UInt64(1) << 40, at: 8)
    try call.setArgument(Float(0.125), at: 9)
    try call.setArgument(true, at: 10)
    try call.setArgument(-4.75, at: 11)
    try call.invoke()
    #expect(try call.returnValue(as: Double.self) == expected)
    let interceptor = try passThrough(function, types)
    #expect(abi_call_mix(interceptor.implementation.rawValue, nil, nil) == expected)
  }

  @Test("Bool and Float results")
  func smallResults() throws {
    typealias Not =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Bool) -> Bool
    typealias Half =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Float) -> Float
    let not = try invocation(imp(abi_not as Not), "B@:B")
    try not.setArgument(false, at: 2)
    try not.invoke()
    #expect(try not.returnValue(as: Bool.self))
    let half = try invocation(imp(abi_half as Half), "f@:f")
    try half.setArgument(Float(5), at: 2)
    try half.invoke()
    #expect(try half.returnValue(as: Float.self) == 2.5)
  }

  @Test("{double x4} is passed and returned in memory")
  func largeStruct() throws {
    typealias Scale =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, ABIDouble4, Double
      ) -> ABIDouble4
    let function = imp(abi_scale4 as Scale)
    let types = "{ABIDouble4=dddd}@:{ABIDouble4=dddd}d"
    let expected = abi_call_scale4(function.rawValue, nil, nil)
    #expect(expected.d == 10)
    let call = try invocation(function, types)
    try call.setArgument(ABIDouble4(a: 1, b: 2, c: 3, d: 4), at: 2)
    try call.setArgument(2.5, at: 3)
    try call.invoke()
    let result = try call.returnValue(as: ABIDouble4.self)
    #expect(
      [result.a, result.b, result.c, result.d] == [expected.a, expected.b, expected.c, expected.d])

    let seen = RuntimeLock<Double>(0)
    let interceptor = try Interceptor(types: types) { call in
      seen.withLock { $0 = call.argument(at: 2, as: ABIDouble4.self)?.c ?? -1 }
      call.forward(to: function)
    }
    let viaClosure = abi_call_scale4(interceptor.implementation.rawValue, nil, nil)
    #expect(viaClosure.a == expected.a && viaClosure.d == expected.d)
    #expect(seen.withLock { $0 } == 3)
  }

  @Test("{float, float} travels in one vector register, and a closure can answer it itself")
  func floatPair() throws {
    typealias Swap =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, ABIFloat2) -> ABIFloat2
    let function = imp(abi_swap2 as Swap)
    let types = "{ABIFloat2=ff}@:{ABIFloat2=ff}"
    let call = try invocation(function, types)
    try call.setArgument(ABIFloat2(x: 1.5, y: -2.5), at: 2)
    try call.invoke()
    let swapped = try call.returnValue(as: ABIFloat2.self)
    #expect(swapped.x == -2.5 && swapped.y == 1.5)
    let interceptor = try Interceptor(types: types) { call in
      guard let value = call.argument(at: 2, as: ABIFloat2.self) else { return }
      call.setReturnValue(ABIFloat2(x: value.y * 10, y: value.x * 10))
    }
    let viaClosure = abi_call_swap2(interceptor.implementation.rawValue, nil, nil)
    #expect(viaClosure.x == -25 && viaClosure.y == 15)
  }

  @Test("{char, double, int} mixes register classes")
  func mixedStruct() throws {
    typealias Mixed =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, ABIMixed, Int8
      ) -> ABIMixed
    let function = imp(abi_mixed as Mixed)
    let types = "{ABIMixed=cdi}@:{ABIMixed=cdi}c"
    let expected = abi_call_mixed(function.rawValue, nil, nil)
    let call = try invocation(function, types)
    try call.setArgument(ABIMixed(c: 97, d: 1.25, i: 40), at: 2)
    try call.setArgument(Int8(2), at: 3)
    try call.invoke()
    let result = try call.returnValue(as: ABIMixed.self)
    #expect(result.c == expected.c && result.d == expected.d && result.i == expected.i)
    // The call leaves the stored argument alone, so a second invoke gives the same result.
    let argument = try call.argument(at: 2, as: ABIMixed.self)
    #expect(argument.c == 97 && argument.d == 1.25 && argument.i == 40)
    try call.invoke()
    let again = try call.returnValue(as: ABIMixed.self)
    #expect(again.c == expected.c && again.d == expected.d && again.i == expected.i)
    let interceptor = try passThrough(function, types)
    let viaClosure = abi_call_mixed(interceptor.implementation.rawValue, nil, nil)
    #expect(viaClosure.c == expected.c && viaClosure.d == 2.5 && viaClosure.i == 42)
  }

  @Test("nested structs and a six-double affine transform")
  func nestedAndAffine() throws {
    typealias Nested =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, ABINested) -> ABINested
    let nested = try invocation(
      imp(abi_nested as Nested), "{ABINested={ABIFloat2=ff}d}@:{ABINested={ABIFloat2=ff}d}")
    try nested.setArgument(ABINested(inner: ABIFloat2(x: 1, y: 2), z: 3), at: 2)
    try nested.invoke()
    let result = try nested.returnValue(as: ABINested.self)
    #expect(result.inner.x == 2 && result.inner.y == 1 && result.z == 4)

    typealias Concat =
      @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, ABIAffine, ABIAffine
      ) -> ABIAffine
    let function = imp(abi_concat as Concat)
    let types = "{ABIAffine=dddddd}@:{ABIAffine=dddddd}{ABIAffine=dddddd}"
    let expected = abi_call_concat(function.rawValue, nil, nil)
    #expect(expected.a == 2 && expected.d == 3 && expected.tx == 10 && expected.ty == 20)
    let call = try invocation(function, types)
    try call.setArgument(ABIAffine(a: 2, b: 0, c: 0, d: 3, tx: 0, ty: 0), at: 2)
    try call.setArgument(ABIAffine(a: 1, b: 0, c: 0, d: 1, tx: 10, ty: 20), at: 3)
    try call.invoke()
    let product = try call.returnValue(as: ABIAffine.self)
    #expect(product.a == 2 && product.tx == 10 && product.ty == 20)
    let interceptor = try passThrough(function, types)
    #expect(abi_call_concat(interceptor.implementation.rawValue, nil, nil).ty == 20)

    // Foundation's AffineTransform has the C layout of CGAffineTransform.
    let foundation = try invocation(function, types)
    try foundation.setArgument(AffineTransform(scaleByX: 2, byY: 3), at: 2)
    try foundation.setArgument(AffineTransform(translationByX: 10, byY: 20), at: 3)
    try foundation.invoke()
    let transformed = try foundation.returnValue(as: AffineTransform.self)
    #expect(transformed.m11 == 2 && transformed.m22 == 3 && transformed.tX == 10)
  }

  @Test("a small struct comes back in registers")
  func smallStruct() throws {
    typealias Small =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32, Int32) -> ABISmall
    let function = imp(abi_small as Small)
    let call = try invocation(function, "{ABISmall=ii}@:ii")
    try call.setArgument(Int32(-7), at: 2)
    try call.setArgument(Int32(9), at: 3)
    try call.invoke()
    let result = try call.returnValue(as: ABISmall.self)
    #expect(result.low == -7 && result.high == 9)
    let interceptor = try passThrough(function, "{ABISmall=ii}@:ii")
    let viaClosure = abi_call_small(interceptor.implementation.rawValue, nil, nil)
    #expect(viaClosure.low == -7 && viaClosure.high == 9)
  }

  @Test("objects and selectors pass through an invocation and a closure IMP")
  func objectsAndSelectors() throws {
    let echo = try imp_implementationWithBlock {
      (_: TestObject, object: ObjCObject?, selector: Selector) -> ObjCObject? in
      selector == "keep" ? object : nil
    }
    defer { imp_removeBlock(echo) }
    let target = host(echo, types: "@@:@:")
    let call = try Invocation(target: target, selector: "call")
    try call.setArgument(target as ObjCObject?, at: 2)
    try call.setArgument(Selector("keep"), at: 3)
    try call.invoke()
    #expect(try call.returnValue(as: ObjCObject?.self) === target)
    try call.setArgument(Selector("drop"), at: 3)
    try call.invoke()
    #expect(try call.returnValue(as: ObjCObject?.self) == nil)
  }

  @Test("a struct signature with a union or bit field is refused, not miscalled")
  func unsupported() {
    #expect(throws: ObjCRuntimeError.self) {
      try Invocation(methodSignature: MethodSignature(types: "v@:(u=id)"))
    }
    #expect(throws: ObjCRuntimeError.self) {
      try Interceptor(types: "v@:{s=b3}") { _ in }
    }
  }
}

// MARK: - Invoked again: every shape, twice on one invocation and through invoke(using:)

/// A value the matrix passes and compares: its fields as doubles.
private protocol ABIValue: ObjCTypeEncodable {
  var fields: [Double] { get }
}

extension Int8: ABIValue { fileprivate var fields: [Double] { [Double(self)] } }
extension UInt8: ABIValue { fileprivate var fields: [Double] { [Double(self)] } }
extension Int16: ABIValue { fileprivate var fields: [Double] { [Double(self)] } }
extension UInt16: ABIValue { fileprivate var fields: [Double] { [Double(self)] } }
extension Int32: ABIValue { fileprivate var fields: [Double] { [Double(self)] } }
extension UInt32: ABIValue { fileprivate var fields: [Double] { [Double(self)] } }
extension Int64: ABIValue { fileprivate var fields: [Double] { [Double(self)] } }
extension UInt64: ABIValue { fileprivate var fields: [Double] { [Double(self)] } }
extension Bool: ABIValue { fileprivate var fields: [Double] { [self ? 1 : 0] } }
extension Float: ABIValue { fileprivate var fields: [Double] { [Double(self)] } }
extension Double: ABIValue { fileprivate var fields: [Double] { [self] } }
extension ABIDouble4: ABIValue { fileprivate var fields: [Double] { [a, b, c, d] } }
extension ABIFloat2: ABIValue { fileprivate var fields: [Double] { [Double(x), Double(y)] } }
extension ABIMixed: ABIValue { fileprivate var fields: [Double] { [Double(c), d, Double(i)] } }
extension ABINested: ABIValue { fileprivate var fields: [Double] { inner.fields + [z] } }
extension ABIAffine: ABIValue { fileprivate var fields: [Double] { [a, b, c, d, tx, ty] } }
extension ABISmall: ABIValue { fileprivate var fields: [Double] { [Double(low), Double(high)] } }

/// One signature of the ABI tests: its C function, its encoding, the arguments the matrix passes
/// and a value of its return type.
private struct ABIShape: CustomTestStringConvertible, @unchecked Sendable {
  // @unchecked Sendable: the values are plain numbers and structs of numbers, never mutated.
  let name: String
  let function: IMP
  let types: String
  let arguments: [any ABIValue]
  /// A value of the return type, unlike what the call returns.
  let result: any ABIValue

  var testDescription: String { name }

  private static func set<T: ABIValue>(_ value: T, _ call: Invocation, _ index: Int) throws {
    try call.setArgument(value, at: index)
  }

  private static func read<T: ABIValue>(_ value: T, _ call: Invocation, _ index: Int) throws
    -> [Double]
  {
    try call.argument(at: index, as: T.self).fields
  }

  private static func returned<T: ABIValue>(_ value: T, _ call: Invocation) throws -> [Double] {
    try call.returnValue(as: T.self).fields
  }

  func setArguments(_ call: Invocation) throws {
    for (offset, value) in arguments.enumerated() { try Self.set(value, call, offset + 2) }
  }

  func readArguments(_ call: Invocation) throws -> [[Double]] {
    try arguments.enumerated().map { offset, value in try Self.read(value, call, offset + 2) }
  }

  func readResult(_ call: Invocation) throws -> [Double] { try Self.returned(result, call) }
}

private typealias P = UnsafeMutableRawPointer?

private let abiShapes: [ABIShape] = [
  ABIShape(
    name: "six integer widths", function: imp(abi_extend as ExtendFunction), types: "q@:cCsSiI",
    arguments: [
      Int8(-100), UInt8(200), Int16(-30_000), UInt16(60_000), Int32(-2_000_000_000),
      UInt32(4_000_000_000),
    ], result: Int64(0)),
  ABIShape(
    name: "a narrow signed result",
    function: imp(abi_narrow_signed as @convention(c) (P, P, Int64) -> Int8), types: "c@:q",
    arguments: [Int64(-1)], result: Int8(0)),
  ABIShape(
    name: "a narrow unsigned result",
    function: imp(abi_narrow_unsigned as @convention(c) (P, P, Int64) -> UInt16), types: "S@:q",
    arguments: [Int64(0x1_FFFF)], result: UInt16(0)),
  ABIShape(
    name: "ten integers",
    function: imp(
      abi_ten_integers
        as @convention(c) (
          P, P, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64
        ) -> Int64), types: "q@:qqqqqqqqqq", arguments: (1...10).map { Int64($0) },
    result: Int64(0)),
  ABIShape(
    name: "ten doubles",
    function: imp(
      abi_ten_doubles
        as @convention(c) (
          P, P, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double
        ) -> Double), types: "d@:dddddddddd", arguments: (1...10).map { Double($0) / 4 },
    result: Double(0)),
  ABIShape(
    name: "integers and floats mixed",
    function: imp(
      abi_mix
        as @convention(c) (
          P, P, Int8, Double, UInt16, Float, Int32, Double, UInt64, Float, Bool, Double
        ) -> Double), types: "d@:cdSfidQfBd",
    arguments: [
      Int8(-3), Double(1.5), UInt16(7), Float(0.25), Int32(-11), Double(2.75), UInt64(13),
      Float(-0.5), true, Double(100),
    ], result: Double(0)),
  ABIShape(
    name: "a Bool", function: imp(abi_not as @convention(c) (P, P, Bool) -> Bool), types: "B@:B",
    arguments: [true], result: true),
  ABIShape(
    name: "a Float", function: imp(abi_half as @convention(c) (P, P, Float) -> Float),
    types: "f@:f", arguments: [Float(3)], result: Float(0)),
  ABIShape(
    name: "{double x4} in memory",
    function: imp(abi_scale4 as @convention(c) (P, P, ABIDouble4, Double) -> ABIDouble4),
    types: "{ABIDouble4=dddd}@:{ABIDouble4=dddd}d",
    arguments: [ABIDouble4(a: 1, b: 2, c: 3, d: 4), Double(0.5)],
    result: ABIDouble4(a: 0, b: 0, c: 0, d: 0)),
  ABIShape(
    name: "{float, float} in a vector register",
    function: imp(abi_swap2 as @convention(c) (P, P, ABIFloat2) -> ABIFloat2),
    types: "{ABIFloat2=ff}@:{ABIFloat2=ff}", arguments: [ABIFloat2(x: 1.5, y: -2.5)],
    result: ABIFloat2(x: 0, y: 0)),
  ABIShape(
    name: "{char, double, int} in memory",
    function: imp(abi_mixed as @convention(c) (P, P, ABIMixed, Int8) -> ABIMixed),
    types: "{ABIMixed=cdi}@:{ABIMixed=cdi}c",
    arguments: [ABIMixed(c: 97, d: 1.25, i: 40), Int8(2)], result: ABIMixed(c: 0, d: 0, i: 0)),
  ABIShape(
    name: "a nested struct",
    function: imp(abi_nested as @convention(c) (P, P, ABINested) -> ABINested),
    types: "{ABINested={ABIFloat2=ff}d}@:{ABINested={ABIFloat2=ff}d}",
    arguments: [ABINested(inner: ABIFloat2(x: 1, y: 2), z: 3)],
    result: ABINested(inner: ABIFloat2(x: 0, y: 0), z: 0)),
  ABIShape(
    name: "two affine transforms",
    function: imp(abi_concat as @convention(c) (P, P, ABIAffine, ABIAffine) -> ABIAffine),
    types: "{ABIAffine=dddddd}@:{ABIAffine=dddddd}{ABIAffine=dddddd}",
    arguments: [
      ABIAffine(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: 20),
      ABIAffine(a: 1, b: 0.5, c: -0.5, d: 1, tx: 3, ty: 4),
    ], result: ABIAffine(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)),
  ABIShape(
    name: "a small struct in registers",
    function: imp(abi_small as @convention(c) (P, P, Int32, Int32) -> ABISmall),
    types: "{ABISmall=ii}@:ii", arguments: [Int32(-7), Int32(9)],
    result: ABISmall(low: 0, high: 0)),
]

@Suite("ABI re-invocation")
struct ABIReinvocationTests {
  @Test(
    "invoked twice, through invoke(using:) and a closure IMP: same result, arguments unchanged",
    arguments: abiShapes)
  fileprivate func reinvoked(shape: ABIShape) throws {
    let call = try invocation(shape.function, shape.types)
    try shape.setArguments(call)
    let arguments = try shape.readArguments(call)
    #expect(arguments == shape.arguments.map(\.fields), "what was set reads back")
    try call.invoke()
    let result = try shape.readResult(call)
    #expect(result != shape.result.fields, "the call wrote a result")
    #expect(try shape.readArguments(call) == arguments, "the call left the arguments alone")
    try call.invoke()
    #expect(try shape.readResult(call) == result, "a second invoke gives the same result")
    try call.invoke(using: shape.function)
    #expect(try shape.readResult(call) == result, "invoke(using:) too")
    let interceptor = try passThrough(shape.function, shape.types)
    for _ in 0..<2 {
      try call.invoke(using: interceptor.implementation)
      #expect(try shape.readResult(call) == result, "through a closure IMP that forwards")
    }
    #expect(try shape.readArguments(call) == arguments, "after five calls")
  }
}
