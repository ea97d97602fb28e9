// Port of objc4's addMethod.m: the class_addMethod / class_replaceMethod return matrix.
import ObjCRuntime
import Testing

/// Super has `superOnly` and `both`; Sub overrides `both` and adds `subOnly`. Each test builds its
/// own pair, and warms both caches first, so every check also proves the caches were flushed.
private struct Matrix {
  let superclass: Class
  let subclass: Class
  let base: ObjCObject
  let sub: ObjCObject

  init() {
    superclass = makeClass(
      "MatrixSuper", methods: [("superOnly", Constant.one), ("both", Constant.two)])
    subclass = makeClass(
      "MatrixSub", superclass: superclass,
      methods: [("both", Constant.three), ("subOnly", Constant.four)])
    base = instance(of: superclass)
    sub = instance(of: subclass)
    for selector: Selector in ["superOnly", "both", "subOnly"] {
      _ = sendTwice(base, selector)
      _ = sendTwice(sub, selector)
    }
  }
}

@Suite("class_addMethod and class_replaceMethod")
struct AddReplaceMethodTests {
  @Test("adding an inherited selector overrides it in the subclass only")
  func addOverridesInherited() {
    let matrix = Matrix()
    #expect(class_addMethod(matrix.subclass, "superOnly", Constant.imp(Constant.five), "q@:"))
    #expect(sendTwice(matrix.sub, "superOnly") == [5, 5])
    #expect(sendTwice(matrix.base, "superOnly") == [1, 1])
    #expect(class_getInstanceMethod(matrix.subclass, "superOnly")?.owner === matrix.subclass)
  }

  @Test("adding a selector the class has returns false and changes nothing")
  func addExistingFails() {
    let matrix = Matrix()
    #expect(!class_addMethod(matrix.subclass, "both", Constant.imp(Constant.six), "q@:"))
    #expect(sendTwice(matrix.sub, "both") == [3, 3])
    #expect(
      throws: ObjCRuntimeError.methodAlreadyExists(
        MethodReference(className: matrix.subclass.name, selectorName: "subOnly"))
    ) {
      try matrix.subclass.addMethod(
        "subOnly", implementation: Constant.imp(Constant.six), types: "q@:")
    }
    #expect(sendTwice(matrix.sub, "subOnly") == [4, 4])
  }

  @Test("adding a new selector to a superclass reaches the subclass")
  func addNewReachesSubclasses() {
    let matrix = Matrix()
    #expect(sendInt(matrix.sub, "brandNew") == nil)
    #expect(class_addMethod(matrix.superclass, "brandNew", Constant.imp(Constant.seven), "q@:"))
    #expect(sendTwice(matrix.base, "brandNew") == [7, 7])
    #expect(sendTwice(matrix.sub, "brandNew") == [7, 7])
  }

  @Test("replacing the class's own method returns the old IMP and ignores the types")
  func replaceOwn() {
    let matrix = Matrix()
    let old = class_replaceMethod(
      matrix.subclass, "subOnly", Constant.imp(Constant.six), "v@:")
    #expect(old == Constant.imp(Constant.four))
    #expect(sendTwice(matrix.sub, "subOnly") == [6, 6])
    #expect(method_getTypeEncoding(class_getInstanceMethod(matrix.subclass, "subOnly")) == "q@:")
  }

  @Test("replacing an inherited method adds an override, returns nil, and leaves the superclass")
  func replaceInherited() {
    let matrix = Matrix()
    let replacement = Constant.imp(Constant.seven)
    #expect(class_replaceMethod(matrix.subclass, "superOnly", replacement, "q@:") == nil)
    #expect(sendTwice(matrix.sub, "superOnly") == [7, 7])
    #expect(sendTwice(matrix.base, "superOnly") == [1, 1])
    #expect(
      class_getMethodImplementation(matrix.superclass, "superOnly") == Constant.imp(Constant.one))
  }

  @Test("replacing a method nobody has adds it and returns nil")
  func replaceMissing() {
    let matrix = Matrix()
    #expect(
      class_replaceMethod(matrix.subclass, "fresh", Constant.imp(Constant.five), "q@:") == nil)
    #expect(sendTwice(matrix.sub, "fresh") == [5, 5])
    #expect(sendInt(matrix.base, "fresh") == nil)
  }

  @Test("an added method without IMP hides the inherited one and forwards")
  func addNilIMP() {
    let matrix = Matrix()
    #expect(class_addMethod(matrix.subclass, "superOnly", nil, "q@:"))
    #expect(class_getMethodImplementation(matrix.subclass, "superOnly") == IMP.forward)
    #expect(
      throws: ObjCRuntimeError.unrecognizedSelector(
        MethodReference(className: matrix.subclass.name, selectorName: "superOnly"))
    ) {
      try objc_msgSend(matrix.sub, "superOnly") as Int
    }
    #expect(!matrix.sub.responds(to: "superOnly"))
    #expect(sendTwice(matrix.base, "superOnly") == [1, 1])
  }

  @Test("class methods are added to the metaclass")
  func classMethods() throws {
    let matrix = Matrix()
    #expect(
      class_addMethod(object_getClass(matrix.superclass), "make", Constant.imp(Constant.two), "q@:")
    )
    #expect(try objc_msgSend(matrix.subclass, "make") as Int == 2)
    #expect(sendInt(matrix.base, "make") == nil)
  }

  @Test("nil classes and nil types are tolerated")
  func nilArguments() {
    let matrix = Matrix()
    #expect(!class_addMethod(nil, "x", Constant.imp(Constant.one), "q@:"))
    #expect(!class_addMethod(matrix.subclass, "x", Constant.imp(Constant.one), nil))
    #expect(class_replaceMethod(nil, "x", Constant.imp(Constant.one), "q@:") == nil)
    #expect(class_replaceMethod(matrix.subclass, "x", nil, "q@:") == nil)
  }
}
