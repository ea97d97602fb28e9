// Ports of objc4's getMethod.m: which Method class_getInstanceMethod returns, and when.
import ObjCRuntime
import Testing

private class LookupSuper: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(LookupSuper.self) {
      ObjCMethodDeclaration("instanceMethod", Constant.one)
      ObjCMethodDeclaration.classMethod("classMethod", Constant.two)
    }
  }
}

private final class LookupSub: LookupSuper {}

private final class LookupOverride: LookupSuper {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(LookupOverride.self) {
      ObjCMethodDeclaration("instanceMethod", Constant.three)
    }
  }
}

@Suite("Method lookup")
struct MethodLookupTests {
  @Test("an inherited method is the superclass's own Method object")
  func inheritedIdentity() throws {
    let superMethod = try #require(
      class_getInstanceMethod(LookupSuper.runtimeClass, "instanceMethod"))
    let subMethod = try #require(class_getInstanceMethod(LookupSub.runtimeClass, "instanceMethod"))
    #expect(superMethod === subMethod)
    #expect(superMethod.owner === LookupSuper.runtimeClass)
  }

  @Test("an override is the subclass's own Method")
  func overrideIdentity() throws {
    let superMethod = try #require(
      class_getInstanceMethod(LookupSuper.runtimeClass, "instanceMethod"))
    let overrideMethod = try #require(
      class_getInstanceMethod(LookupOverride.runtimeClass, "instanceMethod"))
    #expect(superMethod !== overrideMethod)
    #expect(overrideMethod.owner === LookupOverride.runtimeClass)
  }

  @Test("class_getClassMethod is class_getInstanceMethod on the metaclass")
  func classMethods() throws {
    let viaClass = try #require(class_getClassMethod(LookupSub.runtimeClass, "classMethod"))
    let viaMeta = try #require(
      class_getInstanceMethod(object_getClass(LookupSub.runtimeClass), "classMethod"))
    #expect(viaClass === viaMeta)
    #expect(viaClass.isClassMethod)
    #expect(try objc_msgSend(LookupSub.runtimeClass, "classMethod") as Int == 2)
  }

  @Test("missing selectors and nil arguments give nil, and the IMP is _objc_msgForward")
  func missing() {
    #expect(class_getInstanceMethod(LookupSuper.runtimeClass, "nothing") == nil)
    #expect(class_getInstanceMethod(nil, "instanceMethod") == nil)
    #expect(class_getClassMethod(nil, "classMethod") == nil)
    #expect(class_getClassMethod(LookupSuper.runtimeClass, "instanceMethod") == nil)
    #expect(class_getMethodImplementation(LookupSuper.runtimeClass, "nothing") == IMP.forward)
    #expect(class_getMethodImplementation(nil, "nothing") == nil)
  }

  @Test("class_getMethodImplementation returns what a send would run")
  func implementations() throws {
    let imp = try #require(class_getMethodImplementation(LookupSub.runtimeClass, "instanceMethod"))
    #expect(
      imp
        == method_getImplementation(
          class_getInstanceMethod(LookupSuper.runtimeClass, "instanceMethod")))
    #expect(imp == Constant.imp(Constant.one))
  }

  @Test("class_copyMethodList lists the class's own methods only, newest first")
  func methodList() throws {
    let cls = LookupOverride.runtimeClass
    #expect(class_copyMethodList(cls).map(\.selector) == ["instanceMethod"])
    #expect(class_copyMethodList(nil).isEmpty)
    try cls.addMethod("added", implementation: Constant.imp(Constant.four), types: "q@:")
    #expect(class_copyMethodList(cls).map(\.selector) == ["added", "instanceMethod"])
  }

  @Test("method introspection reports the encoding's parts")
  func introspection() throws {
    let method = try #require(class_getInstanceMethod(LookupSuper.runtimeClass, "instanceMethod"))
    #expect(method_getName(method) == "instanceMethod")
    #expect(method_getTypeEncoding(method) == "q@:")
    #expect(method_getNumberOfArguments(method) == 2)
    #expect(method_getReturnType(method) == "q")
    #expect(method_getArgumentType(method, 0) == "@")
    #expect(method_getArgumentType(method, 1) == ":")
    #expect(method_getArgumentType(method, 2) == nil)
    #expect(method_getTypeEncoding(nil) == nil)
    #expect(method_getNumberOfArguments(nil) == 0)
    #expect(method.description == "-[LookupSuper instanceMethod]")
  }
}
