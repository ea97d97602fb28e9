// Type encodings: parsing objc4's format and deriving encodings from Swift signatures.
import ObjCRuntime
import Testing

@Suite("Type encodings")
struct TypeEncodingTests {
  @Test(
    "method encodings split into return and argument types, offsets dropped",
    arguments: [
      ("i16@0:8", "i", ["@", ":"]),
      ("@24@0:8:16", "@", ["@", ":", ":"]),
      ("v@:@B", "v", ["@", ":", "@", "B"]),
      ("{CGRect={CGPoint=dd}{CGSize=dd}}@:", "{CGRect={CGPoint=dd}{CGSize=dd}}", ["@", ":"]),
      ("v@:^{?=i}[4f](u=ic)b3", "v", ["@", ":", "^{?=i}", "[4f]", "(u=ic)", "b3"]),
      ("rn^vVv@:@?@\"UIView\"", "rn^v", ["Vv", "@", ":", "@?", "@\"UIView\""]),
      ("{P=\"x\"d\"y\"d}@:", "{P=\"x\"d\"y\"d}", ["@", ":"]),
    ])
  func parsing(encoding: String, returnType: String, arguments: [String]) throws {
    let parsed = try MethodEncoding(parsing: encoding)
    #expect(parsed.returnType == returnType)
    #expect(parsed.argumentTypes == arguments)
  }

  @Test("random input never crashes the parser: it parses or throws")
  func fuzz() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("cislqCISLQfdBv*@#:?^[]{}()=b0123456789rnNoORV\"xZ ")
    var parsed = 0
    for _ in 0..<200_000 {
      let length = Int.random(in: 0...24, using: &generator)
      let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
      if (try? MethodEncoding(parsing: text)) != nil { parsed += 1 }
    }
    #expect(parsed > 0)
  }

  @Test("IMPs get their encoding from their Swift signature")
  func derivedEncodings() throws {
    let void: @convention(c) (id, SEL) -> Void = { _, _ in }
    let mixed: @convention(c) (id, SEL, Int32, UInt16, Double, Float, Bool, id?, SEL) -> UInt8 = {
      _, _, _, _, _, _, _, _, _ in 0
    }
    let pointers:
      @convention(c) (id, SEL, UnsafeRawPointer, UnsafeMutablePointer<Int32>) ->
        UnsafeMutableRawPointer? = { _, _, _, _ in nil }
    #expect(try IMP(void).declaredTypeEncoding == "v@:")
    #expect(try IMP(mixed).declaredTypeEncoding == "C@:iSdfB@:")
    #expect(try IMP(pointers).declaredTypeEncoding == "^v@:r^v^i")
  }

  @Test("Swift types report objc4's encodings")
  func typeEncodings() {
    #expect(Int.objcTypeEncoding == "q")
    #expect(UInt.objcTypeEncoding == "Q")
    #expect(Int8.objcTypeEncoding == "c")
    #expect(Bool.objcTypeEncoding == "B")
    #expect(Double.objcTypeEncoding == "d")
    #expect(Selector.objcTypeEncoding == ":")
    #expect(ObjCObject.objcTypeEncoding == "@")
    #expect(Class.objcTypeEncoding == "#")
    #expect(id.objcTypeEncoding == "@")
    #expect(SEL.objcTypeEncoding == ":")
    #expect(UnsafeMutablePointer<Double>.objcTypeEncoding == "^d")
    #expect(Optional<UnsafeRawPointer>.objcTypeEncoding == "r^v")
  }
}
