// A table of bad inputs: each gets a typed error naming the culprit, and changes nothing.
import ObjCRuntime
import Testing

private let takesInt: @convention(c) (id, SEL, Int) -> Int = { _, _, value in value }
private let notAnIMP: @convention(c) (Int) -> Int = { $0 }

/// A class whose declaration has one bad method among good ones.
private final class HalfBroken: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(HalfBroken.self) {
      ObjCMethodDeclaration("good", Constant.one)
      ObjCMethodDeclaration("bad", notAnIMP)
      ObjCMethodDeclaration("good", Constant.two)
    }
  }
}

@Suite("Bad input")
struct BadInputTests {
  @Test("an empty or malformed selector is refused by addMethod")
  func badSelectors() {
    let cls = makeClass("BadSelectors")
    for name in ["", "two words", "tab\tbed"] {
      #expect(throws: ObjCRuntimeError.self) {
        try cls.addMethod(Selector(name), implementation: Constant.imp(Constant.one), types: "q@:")
      }
      #expect(!class_addMethod(cls, Selector(name), Constant.imp(Constant.one), "q@:"))
    }
    #expect(class_copyMethodList(cls).isEmpty)
  }

  @Test(
    "malformed encodings give the offset and what was expected",
    arguments: [
      ("", 0), ("q@:{", 4), ("q@:[3", 5), ("q@:[q]", 4), ("q@:{name=q", 10), ("qZ:", 1), ("q", 1),
    ])
  func malformedEncodings(encoding: String, position: Int) {
    let cls = makeClass("BadEncodings")
    #expect {
      try cls.addMethod("m", implementation: nil, types: encoding)
    } throws: { error in
      guard case .malformedTypeEncoding(let text, let at, _) = error as? ObjCRuntimeError else {
        return false
      }
      return text == encoding && at == position
    }
    #expect(class_getInstanceMethod(cls, "m") == nil)
  }

  @Test("an encoding that disagrees with the IMP's declared signature is refused")
  func encodingMismatch() throws {
    let cls = makeClass("Mismatch")
    let imp = try IMP(takesInt)
    #expect(imp.declaredTypeEncoding == "q@:q")
    #expect(
      throws: ObjCRuntimeError.implementationMismatch(
        MethodReference(className: cls.name, selectorName: "value"), encoding: "q@:",
        implementation: "q@:q")
    ) {
      try cls.addMethod("value", implementation: imp, types: "q@:")
    }
    #expect(!class_addMethod(cls, "value", imp, "v@:q"))
    #expect(class_addMethod(cls, "value", imp, "q16@0:8q16"))
  }

  @Test("unknown classes are a typed error in the typed layer and nil in the C one")
  func unknownClasses() {
    #expect(throws: ObjCRuntimeError.classNotFound("NoSuchClass")) {
      try Class.named("NoSuchClass")
    }
    #expect(objc_getClass("NoSuchClass") == nil)
    #expect(objc_getMetaClass("NoSuchClass") == nil)
  }

  @Test("functions that cannot be IMPs are refused")
  func invalidIMPs() {
    #expect(throws: ObjCRuntimeError.self) { try IMP(notAnIMP) }
    #expect(throws: ObjCRuntimeError.self) { try IMP({ (value: Int) in value }) }
    #expect(throws: ObjCRuntimeError.self) { try IMP(42) }
  }

  @Test("a bad declaration skips the bad methods, reports them, and keeps the good ones")
  func badDeclarations() {
    let object = HalfBroken()
    #expect(sendInt(object, "good") == 1)
    #expect(!object.responds(to: "bad"))
    let problems = DeclarationProblems.all.map(\.description)
    #expect(problems.contains { $0.contains("HalfBroken") && $0.contains("-bad") })
    #expect(problems.contains { $0.contains("HalfBroken") && $0.contains("declared twice") })
  }

  @Test("every error names the culprit and says what to do")
  func descriptions() {
    let reference = MethodReference(className: "Screen", selectorName: "viewWillAppear:")
    let errors: [ObjCRuntimeError] = [
      .unrecognizedSelector(reference), .methodNotFound(reference),
      .methodAlreadyExists(reference), .exchangeWithItself(reference),
      .methodNotInClass(reference, className: "Other"),
      .implementationMismatch(reference, encoding: "v@:", implementation: "v@:B"),
      .signatureMismatch(reference, method: "v@:B", call: "v@:q"),
    ]
    for error in errors {
      #expect(error.description.contains("-[Screen viewWillAppear:]"))
      #expect(error.description.split(separator: ".").count >= 2)
    }
    #expect(
      MethodReference(className: "Screen", selectorName: "new", isClassMethod: true).description
        == "+[Screen new]")
  }
}
