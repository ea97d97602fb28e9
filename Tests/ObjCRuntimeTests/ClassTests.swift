// Classes: realization from Swift types, names, the metaclass chain, class lists.
import ObjCRuntime
import Testing

private class Vehicle: ObjCObject {}
private final class Bicycle: Vehicle {}
private class RealizedLate: ObjCObject {}

/// Named by the class-list test only, and never instantiated.
private final class OnlyInTheClassList: ObjCObject {}

private enum Outer {
  final class Nested: ObjCObject {}
}

@Suite("Class")
struct ClassTests {
  @Test("a Swift subclass gets its class on first use, with its Swift superclass chain")
  func realization() {
    let bicycle = Bicycle()
    let cls = object_getClass(bicycle)
    #expect(cls?.name == "Bicycle")
    #expect(class_getSuperclass(cls)?.name == "Vehicle")
    #expect(class_getSuperclass(class_getSuperclass(cls))?.name == "ObjCObject")
    #expect(class_getSuperclass(class_getSuperclass(class_getSuperclass(cls))) == nil)
    #expect(cls === Bicycle.runtimeClass)
  }

  @Test("objc_getClass finds a realized class by plain and by module-qualified name")
  func lookupByName() {
    _ = Vehicle.runtimeClass
    #expect(objc_getClass("Vehicle") === Vehicle.runtimeClass)
    #expect(objc_getClass("ObjCRuntimeTests.Vehicle") === Vehicle.runtimeClass)
    #expect(objc_getClass("NoSuchClassAnywhere") == nil)
  }

  @Test("nested types are named with their outer type")
  func nestedNames() {
    #expect(Outer.Nested.runtimeClass.name == "Outer.Nested")
    #expect(objc_getClass("ObjCRuntimeTests.Outer.Nested") === Outer.Nested.runtimeClass)
  }

  @Test("metaclass chain has objc4's shape, root case included")
  func metaclassShape() throws {
    let root = ObjCObject.runtimeClass
    let vehicle = Vehicle.runtimeClass
    let bicycle = Bicycle.runtimeClass
    let rootMeta = try #require(object_getClass(root))
    let bicycleMeta = try #require(object_getClass(bicycle))

    #expect(class_isMetaClass(rootMeta))
    #expect(!class_isMetaClass(root))
    // A metaclass's superclass is the superclass's metaclass...
    #expect(class_getSuperclass(bicycleMeta) === object_getClass(vehicle))
    // ...the root metaclass's superclass is the root class...
    #expect(class_getSuperclass(rootMeta) === root)
    // ...and every metaclass's isa is the root metaclass, the root metaclass's too.
    #expect(object_getClass(bicycleMeta) === rootMeta)
    #expect(object_getClass(rootMeta) === rootMeta)
    #expect(objc_getMetaClass("Bicycle") === bicycleMeta)
    #expect(bicycleMeta.name == "Bicycle")
  }

  @Test("objc_getClassList returns the total and fills at most the buffer, no metaclasses")
  func classList() {
    _ = Bicycle.runtimeClass
    let total = objc_getClassList(nil, 0)
    #expect(total >= 3)
    let buffer = UnsafeMutablePointer<Class?>.allocate(capacity: 2)
    buffer.initialize(repeating: nil, count: 2)
    defer { buffer.deinitialize(count: 2).deallocate() }
    #expect(objc_getClassList(buffer, 2) >= total)
    #expect(buffer[0] != nil && buffer[1] != nil)
    let all = objc_copyClassList()
    #expect(all.allSatisfy { !$0.isMetaClass })
    #expect(all.contains { $0 === Bicycle.runtimeClass })
  }

  @Test("objc_getClass, objc_lookUpClass and NSClassFromString find a class nothing has used")
  func unusedClassIsFound() throws {
    // Nothing but this test names the class, and it only reads its name: as in objc4, which
    // realizes every class of an image when asked, the class list holds it anyway.
    let cls = try #require(objc_getClass("RealizedLate"))
    #expect(cls.swiftClass.map(ObjectIdentifier.init) == ObjectIdentifier(RealizedLate.self))
    #expect(objc_lookUpClass("RealizedLate") === cls)
    #expect(NSClassFromString("RealizedLate") === cls)
    #expect(objc_copyClassList().contains { $0 === cls })
    #expect(RealizedLate.runtimeClass === cls, "first use finds the class realized")
    #expect(objc_getClass("NoSuchClassAnywhere") == nil)
  }

  @Test("every ObjCObject subclass of the process is in the class list; none twice")
  func classListIsComplete() {
    let list = objc_copyClassList()
    let swiftClasses = Set(list.compactMap { $0.swiftClass.map(ObjectIdentifier.init) })
    #expect(swiftClasses.contains(ObjectIdentifier(OnlyInTheClassList.self)))
    #expect(swiftClasses.count == list.filter { $0.swiftClass != nil }.count, "no duplicates")
    #expect(list.allSatisfy { !$0.isMetaClass })
    #expect(!swiftClasses.contains(ObjectIdentifier(Class.self)), "the runtime's Class is not")
  }

  @Test("class_getName answers \"nil\" for nil, as objc4 does")
  func nilName() {
    #expect(class_getName(nil) == "nil")
    #expect(class_getSuperclass(nil) == nil)
    #expect(!class_isMetaClass(nil))
    #expect(object_getClass(nil) == nil)
  }

  @Test("classes made at run time sit in the hierarchy like any other")
  func classPairs() throws {
    let cls = try #require(objc_allocateClassPair(Vehicle.runtimeClass, "ClassTests.Truck", 0))
    #expect(objc_getClass("ClassTests.Truck") == nil)
    objc_registerClassPair(cls)
    #expect(objc_getClass("ClassTests.Truck") === cls)
    #expect(class_getSuperclass(cls) === Vehicle.runtimeClass)
    #expect(class_getSuperclass(object_getClass(cls)) === object_getClass(Vehicle.runtimeClass))
    #expect(cls.storageType == Vehicle.self)
    #expect(objc_allocateClassPair(Vehicle.runtimeClass, "ClassTests.Truck", 0) == nil)
  }

  @Test("a superclass still under construction is refused, as in objc4")
  func constructingSuperclass() throws {
    let parent = try #require(objc_allocateClassPair(nil, "ClassTests.UnfinishedRoot", 0))
    #expect(objc_allocateClassPair(parent, "ClassTests.ChildOfUnfinished", 0) == nil)
    objc_registerClassPair(parent)
    #expect(objc_allocateClassPair(parent, "ClassTests.ChildOfUnfinished", 0) != nil)
    // A new root: its metaclass's superclass is the class itself.
    #expect(class_getSuperclass(object_getClass(parent)) === parent)
  }

  @Test("inherits(from:) follows the superclass chain")
  func inheritance() {
    #expect(Bicycle.runtimeClass.inherits(from: Vehicle.runtimeClass))
    #expect(Bicycle.runtimeClass.inherits(from: Bicycle.runtimeClass))
    #expect(!Vehicle.runtimeClass.inherits(from: Bicycle.runtimeClass))
  }
}
