// The root class: isa, identity, the NSObject protocol methods and object_setClass.
import ObjCRuntime
import Testing

private class TestAnimal: ObjCObject {}
private final class TestDog: TestAnimal {}
private final class Stone: ObjCObject {}

/// A class whose equality is overridden in Swift.
private final class Point: ObjCObject {
  let x: Int
  init(x: Int) {
    self.x = x
    super.init()
  }
  override func isEqual(_ other: ObjCObject?) -> Bool {
    (other as? Point)?.x == x
  }
  override var hash: Int { x }
}

@Suite("ObjCObject")
struct ObjCObjectTests {
  @Test("isKind(of:) and isMember(of:) follow the runtime class")
  func kindAndMember() {
    let dog = TestDog()
    #expect(dog.isKind(of: TestAnimal.runtimeClass))
    #expect(dog.isKind(of: ObjCObject.runtimeClass))
    #expect(!dog.isKind(of: Stone.runtimeClass))
    #expect(dog.isMember(of: TestDog.runtimeClass))
    #expect(!dog.isMember(of: TestAnimal.runtimeClass))
  }

  @Test("responds(to:) sees the root class's methods")
  func respondsToRootMethods() {
    let dog = TestDog()
    #expect(dog.responds(to: "class"))
    #expect(dog.responds(to: "isEqual:"))
    #expect(!dog.responds(to: "bark"))
  }

  @Test("-class answers the isa, +class the class itself")
  func classMessages() throws {
    let dog = TestDog()
    #expect(try objc_msgSend(dog, "class") as Class === TestDog.runtimeClass)
    #expect(try objc_msgSend(TestDog.runtimeClass, "class") as Class === TestDog.runtimeClass)
    #expect(dog.objcClass === TestDog.runtimeClass)
  }

  @Test("a root instance method answers class messages, as in objc4")
  func rootInstanceMethodsAnswerClassMessages() throws {
    let cls = TestDog.runtimeClass
    #expect(try objc_msgSend(cls, "isKindOfClass:", ObjCObject.runtimeClass) as Bool)
  }

  @Test("equality and hash go through isEqual: and hash, Swift overrides first")
  func equality() throws {
    #expect(Point(x: 3) == Point(x: 3))
    #expect(Point(x: 3) != Point(x: 4))
    #expect(Set([Point(x: 1), Point(x: 1), Point(x: 2)]).count == 2)
    let dog = TestDog()
    #expect(dog == dog)
    #expect(dog != TestDog())
    #expect(try objc_msgSend(Point(x: 5), "isEqual:", Point(x: 5)) as Bool)
    #expect(try objc_msgSend(Point(x: 5), "hash") as UInt == 5)
  }

  @Test("description names the runtime class")
  func description() {
    #expect(TestDog().description.hasPrefix("<TestDog: 0x"))
  }

  @Test("perform(_:) returns objects and nil for void methods, and throws for the rest")
  func perform() throws {
    let dog = TestDog()
    #expect(try dog.perform("self") === dog)
    // isEqual: returns a Bool, which performSelector: cannot hand back: refused, not garbage.
    #expect(throws: ObjCRuntimeError.self) { try dog.perform("isEqual:", with: dog) }
    #expect(
      throws: ObjCRuntimeError.unrecognizedSelector(
        MethodReference(className: "TestDog", selectorName: "fetch"))
    ) {
      try dog.perform("fetch")
    }
  }

  @Test("an object can only become a class its Swift storage fits")
  func setClassStorage() throws {
    let dog = TestDog()
    // Up the chain: fine, the storage is a superset.
    #expect(try dog.setClass(TestAnimal.runtimeClass) === TestDog.runtimeClass)
    #expect(object_getClass(dog) === TestAnimal.runtimeClass)
    #expect(try dog.setClass(TestDog.runtimeClass) === TestAnimal.runtimeClass)
    // Across: refused, and the object is unchanged.
    #expect(
      throws: ObjCRuntimeError.incompatibleClass(
        objectType: "TestDog", targetClass: "Stone", storageClass: "Stone")
    ) {
      try dog.setClass(Stone.runtimeClass)
    }
    #expect(object_getClass(dog) === TestDog.runtimeClass)
    #expect(object_setClass(dog, Stone.runtimeClass) == nil)
    #expect(object_setClass(nil, Stone.runtimeClass) == nil)
    #expect(object_setClass(dog, nil) == nil)
    #expect(object_getClass(dog) === TestDog.runtimeClass)
  }

  @Test("a runtime-made subclass can receive an object of its Swift superclass")
  func dynamicSubclass() throws {
    let dog = TestDog()
    let dynamic = try #require(
      objc_allocateClassPair(TestDog.runtimeClass, "ObjCObjectTests.Dog_Dyn", 0))
    objc_registerClassPair(dynamic)
    #expect(try dog.setClass(dynamic) === TestDog.runtimeClass)
    #expect(object_getClass(dog) === dynamic)
    #expect(dog.isKind(of: TestDog.runtimeClass))
    #expect(type(of: dog) == TestDog.self)
  }

  @Test("IMPs take objects unretained and return them retained")
  func crossingTheBoundary() {
    let dog = TestDog()
    let id = dog.passUnretained()
    #expect(id.takeUnretainedObject() === dog)
    #expect(id.takeUnretainedObject(as: TestDog.self) === dog)
    #expect(id.takeUnretainedObject(as: Stone.self) == nil)
    let retained = dog.passRetained()
    #expect(retained.takeRetainedObject() === dog)
  }
}
