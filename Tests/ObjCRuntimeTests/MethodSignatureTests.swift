// What a signature accepts for its arguments and result, and whether it returns an object: what
// typed hooks check once, at install.
import ObjCRuntime
import Testing

@Suite("MethodSignature")
struct MethodSignatureTests {
  @Test("a Swift type is accepted where it is laid out as the encoding says, and no larger")
  func acceptsByLayoutAndSize() throws {
    let signature = try MethodSignature(types: "q@:qc@")
    #expect(signature.argument(at: 2, accepts: Int.self))
    #expect(signature.argument(at: 2, accepts: UInt.self), "signedness does not matter")
    #expect(!signature.argument(at: 2, accepts: Int?.self), "encoded q, but nine bytes")
    #expect(signature.argument(at: 3, accepts: Int8.self))
    #expect(!signature.argument(at: 3, accepts: Int.self))
    #expect(signature.argument(at: 4, accepts: ObjCObject?.self), "an optional object is a word")
    #expect(!signature.argument(at: 5, accepts: Int.self), "out of range")
    #expect(signature.returnType(accepts: Int.self))
    #expect(!signature.returnType(accepts: Int?.self))
  }

  @Test("an object result: @, # and a block are objects; pointers, selectors and integers not")
  func returnsObject() throws {
    for types in ["@@:", "#@:", "@?@:", "r@@:"] {
      #expect(try MethodSignature(types: types).returnsObject, "\(types)")
    }
    for types in ["^v@:", "*@:", ":@:", "q@:", "v@:", "{CGPoint=dd}@:"] {
      #expect(try !MethodSignature(types: types).returnsObject, "\(types)")
    }
  }
}
