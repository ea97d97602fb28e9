// The README's "A first swizzle", verbatim, so the front page never lies.
import ObjCRuntime
import Testing

private final class Greeter: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Greeter.self) {
      ObjCMethodDeclaration("greet", Greeter.greet)  // encoding "q@:", from the signature
      ObjCMethodDeclaration("loudGreet", Greeter.loudGreet)
    }
  }
  static let greet: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
  static let loudGreet: @convention(c) (id, SEL) -> Int = { me, _ in
    // After the swizzle, "loudGreet" holds the original implementation.
    ((try? objc_msgSend(me.takeUnretainedObject(), "loudGreet") as Int) ?? 0) * 100
  }
}

@Suite("README")
struct ReadmeExampleTests {
  @Test("a first swizzle prints 100")
  func firstSwizzle() throws {
    let greeter = Greeter()
    try Greeter.runtimeClass.swizzleInstanceMethod("greet", with: "loudGreet")  // the safe pattern
    #expect(try objc_msgSend(greeter, "greet") as Int == 100)
    #expect(method_getTypeEncoding(class_getInstanceMethod(Greeter.runtimeClass, "greet")) == "q@:")
  }
}
