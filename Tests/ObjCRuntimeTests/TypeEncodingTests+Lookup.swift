// The encoding of a type found without the conformance check where it can be
// (`objcTypeEncoding(of:)`): it must agree with what the conformance says, for every kind of type.
import ObjCRuntime
import Testing

@testable import ObjCRuntime

extension TypeEncodingTests {
  /// What the conformance says, by the dynamic check the lookup avoids.
  private func conformanceEncoding(_ type: Any.Type) -> String? {
    (type as? any ObjCTypeEncodable.Type)?.objcTypeEncoding
  }

  @Test(
    "a type's encoding found without the conformance check is the conformance's",
    arguments: [
      TestObject.self, ObjCObject.self, Class.self, Optional<Class>.self, id.self,
      Optional<id>.self, SEL.self, Optional<SEL>.self, Selector.self, Bool.self, Int.self,
      UInt.self, Int32.self, UInt16.self, Double.self, Float.self, UnsafeRawPointer.self,
      Optional<UnsafeMutableRawPointer>.self, OpaquePointer.self, Optional<TestObject>.self,
      String.self, Void.self,
    ] as [Any.Type])
  func lookupAgreesWithConformance(type: Any.Type) {
    #expect(objcTypeEncoding(of: type) == conformanceEncoding(type), "\(type)")
  }

  @Test("a type is an optional by its metadata's kind, whatever it wraps")
  func optionalByKind() {
    #expect(isOptional(Int?.self))
    #expect(isOptional(TestObject?.self))
    #expect(isOptional(Int??.self))
    #expect(isOptional((@convention(c) () -> Void)?.self))
    #expect(!isOptional(Int.self))
    #expect(!isOptional(TestObject.self))
    #expect(!isOptional(String.self))
    #expect(!isOptional([Int?].self))
    #expect(!isOptional((@convention(c) () -> Void).self))
  }

  @Test("an optional ivar has its wrapped type's encoding, and reads nil as nil")
  func optionalIvarEncoding() throws {
    let cls = try #require(object_getClass(OptionalIvars()))
    let writable = try #require(class_getInstanceVariable(cls, "_shadow"))
    let readOnly = try #require(class_getInstanceVariable(cls, "_count"))
    let flag = try #require(class_getInstanceVariable(cls, "_flag"))
    #expect(ivar_getTypeEncoding(writable) == "@")
    #expect(ivar_getTypeEncoding(readOnly) == "q")
    #expect(ivar_getTypeEncoding(flag) == "B")
    let object = OptionalIvars()
    #expect(object_getIvar(object, writable) == nil)
    #expect(object_getIvar(object, readOnly) == nil)
    object.shadow = TestObject()
    object.count = 3
    #expect(object_getIvar(object, writable) as? TestObject === object.shadow)
    #expect(object_getIvar(object, readOnly) as? Int == 3)
    #expect(object_getIvar(object, flag) as? Bool == true)
  }
}

/// Ivars of optional types, and one that is not, for
/// ``TypeEncodingTests/optionalIvarEncoding()``.
private final class OptionalIvars: ObjCObject {
  var shadow: TestObject?
  var count: Int?
  let flag = true

  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(OptionalIvars.self) {
      ObjCIvarDeclaration("_shadow", \OptionalIvars.shadow)
      ObjCIvarDeclaration("_count", readOnly: \OptionalIvars.count)
      ObjCIvarDeclaration("_flag", readOnly: \OptionalIvars.flag)
    }
  }
}
