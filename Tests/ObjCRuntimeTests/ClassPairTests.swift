// Ports of objc4's classpair tests and libobjc2's AllocatePair.m, plus disposal rules.
import ObjCRuntime
import Synchronization
import Testing

/// Raised when the value it watches is released.
private final class Flag: Sendable {
  private let raised = Atomic(false)
  func raise() { raised.store(true, ordering: .relaxed) }
  var isRaised: Bool { raised.load(ordering: .relaxed) }
}

private final class Released {
  let flag: Flag
  init(_ flag: Flag) { self.flag = flag }
  deinit { flag.raise() }
}

private let key: Selector = "ClassPairTests.key"

private let loadCalls = Atomic(0)
private let loadIMP: @convention(c) (id, SEL) -> Void = { _, _ in
  loadCalls.add(1, ordering: .relaxed)
}

@Suite("Class pairs")
struct ClassPairTests {
  @Test("a chain of five classes registered one at a time, each found by name")
  func chain() throws {
    var superclass = TestObject.runtimeClass
    var names: [String] = []
    for letter in ["A", "B", "C", "D", "E"] {
      let name = UniqueName.make("Pair\(letter)")
      let cls = try #require(objc_allocateClassPair(superclass, name, 0))
      #expect(class_getSuperclass(cls) === superclass)
      objc_registerClassPair(cls)
      #expect(objc_getClass(name) === cls)
      names.append(name)
      superclass = cls
    }
    #expect(objc_copyClassList().filter { names.contains($0.name) }.count == 5)
  }

  @Test("a root class made at run time has the root layout and metaclass wiring")
  func runtimeRoot() throws {
    let root = try #require(objc_allocateClassPair(nil, UniqueName.make("PairRoot"), 0))
    objc_registerClassPair(root)
    #expect(class_getSuperclass(root) == nil)
    #expect(class_getInstanceSize(root) == class_getInstanceSize(ObjCObject.runtimeClass))
    let meta = try #require(object_getClass(root))
    #expect(class_getSuperclass(meta) === root)
    #expect(object_getClass(meta) === meta)
  }

  @Test("+load added with class_addMethod is never called")
  func noLoad() throws {
    let cls = try #require(
      objc_allocateClassPair(TestObject.runtimeClass, UniqueName.make("PairLoad"), 0))
    class_addMethod(object_getClass(cls), "load", try IMP(loadIMP), "v@:")
    objc_registerClassPair(cls)
    _ = instance(of: cls)
    #expect(loadCalls.load(ordering: .relaxed) == 0)
  }

  @Test("methods can be added before and after registration")
  func methodsAnyTime() throws {
    let cls = try #require(
      objc_allocateClassPair(TestObject.runtimeClass, UniqueName.make("PairMethods"), 0))
    #expect(class_addMethod(cls, "before", Constant.imp(Constant.one), "q@:"))
    objc_registerClassPair(cls)
    #expect(class_addMethod(cls, "after", Constant.imp(Constant.two), "q@:"))
    let object = instance(of: cls)
    #expect(sendInt(object, "before") == 1)
    #expect(sendInt(object, "after") == 2)
  }

  @Test("disposing removes the class and frees its name; the class's associations are released")
  func dispose() throws {
    let name = UniqueName.make("PairDisposed")
    let cls = try #require(objc_allocateClassPair(TestObject.runtimeClass, name, 0))
    objc_registerClassPair(cls)
    let released = Flag()
    let metaReleased = Flag()
    objc_setAssociatedObject(cls, key, Released(released), .retain)
    objc_setAssociatedObject(object_getClass(cls), key, Released(metaReleased), .retain)
    try cls.dispose()
    #expect(objc_getClass(name) == nil)
    #expect(!objc_copyClassList().contains { $0 === cls })
    #expect(released.isRaised)
    #expect(metaReleased.isRaised)
    #expect(objc_allocateClassPair(TestObject.runtimeClass, name, 0) != nil)
  }

  @Test("a class with live instances or subclasses is refused, and stays usable")
  func disposeInUse() throws {
    let cls = makeClass("PairInUse", methods: [("value", Constant.one)])
    var object: ObjCObject? = instance(of: cls)
    #expect(throws: ObjCRuntimeError.self) { try cls.dispose() }
    #expect(sendInt(object!, "value") == 1)
    object = nil
    let sub = makeClass("PairInUseSub", superclass: cls)
    #expect(throws: ObjCRuntimeError.self) { try cls.dispose() }
    try sub.dispose()
    try cls.dispose()
    #expect(objc_getClass(cls.name) == nil)
  }

  @Test("an object moved to another class no longer counts as an instance")
  func setClassAway() throws {
    let cls = makeClass("PairMoved")
    let object = instance(of: cls)
    #expect(throws: ObjCRuntimeError.self) { try cls.dispose() }
    object_setClass(object, TestObject.runtimeClass)
    try cls.dispose()
  }

  @Test("Swift classes, metaclasses and nil cannot be disposed of")
  func disposeRefused() throws {
    #expect(throws: ObjCRuntimeError.self) { try TestObject.runtimeClass.dispose() }
    let cls = makeClass("PairMeta")
    #expect(throws: ObjCRuntimeError.self) { try cls.metaclass.dispose() }
    objc_disposeClassPair(nil)
    objc_disposeClassPair(TestObject.runtimeClass)
    #expect(objc_getClass("TestObject") === TestObject.runtimeClass)
  }

  @Test("a class still under construction can be disposed of; registering twice is harmless")
  func constructing() throws {
    let name = UniqueName.make("PairUnfinished")
    let cls = try #require(objc_allocateClassPair(TestObject.runtimeClass, name, 0))
    try cls.dispose()
    #expect(objc_allocateClassPair(TestObject.runtimeClass, name, 0) != nil)
    let registered = makeClass("PairTwice")
    objc_registerClassPair(registered)
    #expect(objc_getClass(registered.name) === registered)
  }

  @Test("a subclass name keeps letters, digits and underscores and is one a class pair takes")
  func subclassName() throws {
    let name = TestObject.runtimeClass.subclassName(prefix: "Watched_")
    #expect(name == "Watched_TestObject")
    let cls = try #require(objc_allocateClassPair(TestObject.runtimeClass, name, 0))
    objc_disposeClassPair(cls)
  }
}
