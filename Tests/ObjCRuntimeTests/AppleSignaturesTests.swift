// The C-level API with the types of Apple's Swift overlay: metatypes for classes, the class list
// into an AutoreleasingUnsafeMutablePointer, exposeMethod for what `@objc` does.
import ObjCRuntime
import Testing

private class Lamp: ObjCObject {
  var lit = false
  func toggle() { lit.toggle() }
  func brightness(times factor: Int) -> Int { (lit ? 10 : 0) * factor }
}
private final class DeskLamp: Lamp {}

/// A Swift class outside the object model: it has no runtime class.
private final class NotAnObject {}

/// The seeds' own protocol, declared by the code that walks the class list.
private protocol LampAware: AnyObject { static func awake() }

private final class AwareLamp: Lamp, LampAware {
  nonisolated(unsafe) static var awoken = 0  // written by one test, on its thread
  static func awake() { awoken += 1 }
}

@Suite("Apple's signatures")
struct AppleSignaturesTests {
  @Test("class_getInstanceMethod and its kin take a metatype, as Apple's overlay does")
  func metatypes() {
    let isEqual: Selector = "isEqual:"
    #expect(class_getInstanceMethod(Lamp.self, isEqual) != nil)
    #expect(
      class_getInstanceMethod(Lamp.self, isEqual) === Lamp.runtimeClass.instanceMethod(for: isEqual)
    )
    #expect(
      class_getClassMethod(Lamp.self, "resolveInstanceMethod:")
        === class_getClassMethod(Lamp.runtimeClass, "resolveInstanceMethod:"))
    #expect(class_respondsToSelector(DeskLamp.self, isEqual))
    #expect(class_getName(DeskLamp.self) == "DeskLamp")
    #expect(!class_isMetaClass(DeskLamp.self))
    #expect(class_copyMethodList(Lamp.self).count == class_copyMethodList(Lamp.runtimeClass).count)
    #expect(class_getMethodImplementation(Lamp.self, isEqual) != nil)
  }

  @Test("a Swift class outside the object model answers as Nil does")
  func metatypeWithoutRuntimeClass() {
    #expect(class_getInstanceMethod(NotAnObject.self, "description") == nil)
    #expect(class_getName(NotAnObject.self) == "nil")
    #expect(!class_respondsToSelector(NotAnObject.self, "description"))
    #expect(!class_addMethod(NotAnObject.self, "glow", nil, "v@:"))
    #expect(!Lamp().isKind(of: NotAnObject.self))
    // nil still selects the Class? form, whose answers are objc4's.
    #expect(class_getInstanceMethod(nil, "description") == nil)
  }

  @Test("isKind(of:) and isMember(of:) take a metatype")
  func kindAndMember() {
    let lamp = DeskLamp()
    #expect(lamp.isKind(of: Lamp.self))
    #expect(lamp.isKind(of: ObjCObject.self))
    #expect(!lamp.isMember(of: Lamp.self))
    #expect(lamp.isMember(of: DeskLamp.self))
    #expect(!Lamp().isKind(of: DeskLamp.self))
  }

  @Test("=== and !== compare metatypes, as a class method compares self with a class")
  func identity() {
    // Swift Testing's #expect takes an operator apart into a generic call, which knows only the
    // standard library's ===; the comparisons are made first.
    let cls: AnyClass = DeskLamp.self
    let none: AnyClass? = nil
    let same = cls === DeskLamp.self
    let different = cls !== Lamp.self
    let bothNil = none === nil
    let nilAndClass = none !== Lamp.self
    #expect(same && different && bothNil && nilAndClass)
    let notSame = cls === Lamp.self
    #expect(!notSame)
  }

  @Test(
    "the seeds' walk of objc_getClassList compiles as written and awakes the protocol's classes")
  func classListWalk() {
    AwareLamp.awoken = 0
    // The seeds' text, unchanged: a buffer of optional classes, never initialized.
    let typeCount = Int(objc_getClassList(nil, 0))
    let types = UnsafeMutablePointer<AnyClass?>.allocate(capacity: typeCount)
    let autoreleasingTypes = AutoreleasingUnsafeMutablePointer<AnyClass>(types)
    objc_getClassList(autoreleasingTypes, Int32(typeCount))
    for index in 0..<typeCount { (types[index] as? LampAware.Type)?.awake() }
    types.deallocate()
    #expect(AwareLamp.awoken == 1)
    #expect(typeCount > 10)
  }

  @Test("the class list writes an uninitialized buffer without reading it, in both forms")
  func classListIntoGarbage() {
    // Memory that holds a pointer-shaped garbage word: releasing it would crash.
    let count = Int(objc_copyClassList().count)
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: count * MemoryLayout<Int>.stride, alignment: MemoryLayout<Int>.alignment)
    defer { raw.deallocate() }
    raw.initializeMemory(as: UInt.self, repeating: 0xdead_beef_0bad_f00d, count: count)
    let objects = raw.bindMemory(to: Class?.self, capacity: count)
    // Other suites may make classes meanwhile: the total can only have grown.
    #expect(objc_getClassList(objects, Int32(count)) >= Int32(count))
    #expect((0..<count).allSatisfy { objects[$0] != nil })

    raw.initializeMemory(as: UInt.self, repeating: 0xdead_beef_0bad_f00d, count: count)
    let metatypes = raw.bindMemory(to: AnyClass?.self, capacity: count)
    let swiftCount = Int(
      objc_getClassList(AutoreleasingUnsafeMutablePointer(metatypes), Int32(count)))
    #expect(swiftCount <= count)
    let listsLamp = (0..<swiftCount).contains { index in metatypes[index] === Lamp.self }
    #expect(listsLamp)
  }

  @Test("a zero or negative count writes nothing and still counts")
  func classListCounts() {
    let swiftCount = objc_getClassList(nil, 0)
    let untouched = UnsafeMutablePointer<AnyClass?>.allocate(capacity: 1)
    defer { untouched.deallocate() }
    untouched.initialize(to: nil)
    #expect(objc_getClassList(AutoreleasingUnsafeMutablePointer(untouched), -5) == swiftCount)
    #expect(untouched.pointee == nil)
    #expect(Int(swiftCount) <= objc_copyClassList().count)
  }

  @Test("exposeMethod puts a Swift method in the table: found, sent and exchanged like @objc")
  func exposeMethod() throws {
    let lamp = Lamp()
    try Lamp.exposeMethod("lampTests_toggle", Lamp.toggle)
    try Lamp.exposeMethod("lampTests_brightnessTimes:", Lamp.brightness)
    let toggle = try #require(class_getInstanceMethod(Lamp.self, "lampTests_toggle"))
    #expect(method_getTypeEncoding(toggle) == "v@:")
    try objc_msgSend(lamp, "lampTests_toggle")
    #expect(lamp.lit)
    let brightness: Int = try objc_msgSend(lamp, "lampTests_brightnessTimes:", 3)
    #expect(brightness == 30)
    // A subclass inherits it, as it would an @objc method.
    #expect(class_respondsToSelector(DeskLamp.self, "lampTests_toggle"))
  }

  @Test("exposing a selector twice is refused with the method named, and nothing changes")
  func exposeTwice() throws {
    try DeskLamp.exposeMethod("lampTests_twice", DeskLamp.toggle)
    let first = class_getMethodImplementation(DeskLamp.self, "lampTests_twice")
    #expect {
      try DeskLamp.exposeMethod("lampTests_twice", DeskLamp.toggle)
    } throws: { error in
      guard case .methodAlreadyExists(let method) = error as? ObjCRuntimeError else { return false }
      return "\(method)" == "-[DeskLamp lampTests_twice]"
    }
    #expect(class_getMethodImplementation(DeskLamp.self, "lampTests_twice") == first)
    #expect(throws: ObjCRuntimeError.self) {
      try DeskLamp.exposeMethod("", DeskLamp.toggle)
    }
  }

  @Test("class_addMethod answers false for an IMP of other types, and a warning says why")
  func addMethodMismatchSaysWhy() throws {
    let takesInt = try imp_implementationWithBlock { (_: Lamp, _: Int) in }
    let (added, refused) = Diagnostics.collecting(kind: .refusedCall) {
      class_addMethod(Lamp.self, "lampTests_dim:", takesInt, "v@:d")
    }
    // Diagnostics from every thread reach the observer: other suites' run meanwhile.
    let ours = refused.filter { $0.method?.description == "-[Lamp lampTests_dim:]" }
    #expect(!added)
    #expect(ours.count == 1)
    #expect(ours.first?.message.hasPrefix("class_addMethod: ") == true)
    // A selector the class has is objc4's plain NO, with nothing to say.
    #expect(class_addMethod(Lamp.self, "lampTests_dim:", takesInt, "v@:q"))
    let (again, quiet) = Diagnostics.collecting(kind: .refusedCall) {
      class_addMethod(Lamp.self, "lampTests_dim:", takesInt, "v@:q")
    }
    #expect(!again && !quiet.contains { $0.method?.description == "-[Lamp lampTests_dim:]" })
  }
}
