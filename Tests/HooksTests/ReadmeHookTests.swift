// The README's first hook, compiled and run as written.
import Hooks
import ObjCRuntime
import Testing

/// The README's Greeter.
private final class Greeter: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Greeter.self) {
      ObjCMethodDeclaration("greet", Greeter.greet)
    }
  }
  static let greet: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
}

@Suite("README hook example")
struct ReadmeHookTests {
  @Test("the README's first hook works as written")
  func firstHook() throws {
    let greeter = Greeter()
    let printed = Journal()
    let token = try Greeter.hook(after: "greet", returning: Int.self) { greeter, result in
      result + 1  // every Greeter now answers one more
    }
    let once = try greeter.hook(before: "greet") { greeter in printed.note("only this greeter") }
    #expect(try objc_msgSend(greeter, "greet") as Int == 2)
    #expect(try objc_msgSend(Greeter(), "greet") as Int == 2)
    #expect(printed.take() == ["only this greeter"])
    token.remove()
    once.remove()
    #expect(try objc_msgSend(greeter, "greet") as Int == 1)
  }
}
