// Dynamic subclasses: per-object methods, the KVO trick, and two isa-swizzlers stacked.
import Dispatch
import Synchronization
import Testing

@testable import ObjCRuntime

private class Person: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Person.self) {
      ObjCMethodDeclaration("name", Person.name)
    }
  }
  static let name: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
}

private let incrementKey: Selector = "IsaSwizzlingTests.increment"
private let noteKey: Selector = "IsaSwizzlingTests.note"
private let roundKey: Selector = "IsaSwizzlingTests.round"

/// A minimal isa-swizzler, as KVO and Aspects make them: a subclass of the object's current
/// class whose `name` adds `increment` to the superclass's answer, and a restore that only puts
/// the old class back if the object still has ours.
private final class Swizzler {
  let dynamicClass: Class
  let increment: Int
  private(set) var original: Class?

  init(_ label: String, increment: Int, over cls: Class) {
    self.increment = increment
    dynamicClass = objc_allocateClassPair(cls, UniqueName.make(label), 0)!
    objc_registerClassPair(dynamicClass)
    objc_setAssociatedObject(dynamicClass, incrementKey, increment, .retain)
    class_addMethod(dynamicClass, "name", try! IMP(Swizzler.nameIMP), "q@:")
  }

  /// `-name` of a dynamic class: the superclass's answer plus this class's increment.
  static let nameIMP: @convention(c) (id, SEL) -> Int = { me, cmd in
    let object = me.takeUnretainedObject()
    // Find the dynamic class this IMP belongs to by walking up from the isa, like super calls do.
    var cls = object_getClass(object)
    var total = 0
    var superAnswer = 0
    while let current = cls {
      if let increment = objc_getAssociatedObject(current, incrementKey) as? Int {
        total += increment
        cls = class_getSuperclass(current)
        continue
      }
      superAnswer =
        (try? objc_msgSendSuper(ObjCSuper(receiver: object, superclass: current), "name") as Int)
        ?? 0
      break
    }
    return total + superAnswer
  }

  func install(on object: ObjCObject) {
    original = object_setClass(object, dynamicClass)
  }

  /// Restores the original class if the object still has ours; returns whether it did.
  func remove(from object: ObjCObject) -> Bool {
    guard object_getClass(object) === dynamicClass, let original else { return false }
    object_setClass(object, original)
    return true
  }
}

@Suite("Isa-swizzling")
struct IsaSwizzlingTests {
  @Test("a dynamic subclass changes one object; its Swift type and other objects are untouched")
  func perObject() throws {
    let hooked = Person()
    let other = Person()
    let swizzler = Swizzler("Person_KVO", increment: 10, over: Person.runtimeClass)
    swizzler.install(on: hooked)
    #expect(sendInt(hooked, "name") == 11)
    #expect(sendInt(other, "name") == 1)
    #expect(object_getClass(hooked) === swizzler.dynamicClass)
    #expect(type(of: hooked) == Person.self)
  }

  @Test("the KVO trick: overriding -class hides the dynamic subclass")
  func kvoHiding() throws {
    let person = Person()
    let dynamic = try #require(
      objc_allocateClassPair(Person.runtimeClass, UniqueName.make("NSKVONotifying_Person"), 0))
    let hide: @convention(c) (id, SEL) -> id = { _, _ in Person.runtimeClass.passRetained() }
    class_addMethod(dynamic, "class", try IMP(hide), "#@:")
    objc_registerClassPair(dynamic)
    object_setClass(person, dynamic)
    #expect(person.objcClass === Person.runtimeClass)
    #expect(person.isMember(of: Person.runtimeClass))
    #expect(object_getClass(person) === dynamic)
  }

  @Test("two isa-swizzlers stack, and unstack last-in first-out")
  func stackLIFO() {
    let person = Person()
    let kvo = Swizzler("Person_A", increment: 10, over: Person.runtimeClass)
    kvo.install(on: person)
    let aspects = Swizzler("Person_B", increment: 100, over: kvo.dynamicClass)
    aspects.install(on: person)
    #expect(sendInt(person, "name") == 111)
    #expect(aspects.remove(from: person))
    #expect(sendInt(person, "name") == 11)
    #expect(kvo.remove(from: person))
    #expect(sendInt(person, "name") == 1)
  }

  @Test("unstacking in the other order loses nobody's methods: the first waits for the second")
  func stackOutOfOrder() {
    let person = Person()
    let kvo = Swizzler("Person_A", increment: 10, over: Person.runtimeClass)
    kvo.install(on: person)
    let aspects = Swizzler("Person_B", increment: 100, over: kvo.dynamicClass)
    aspects.install(on: person)
    #expect(!kvo.remove(from: person))  // not on top: it must not clobber the other's class
    #expect(sendInt(person, "name") == 111)
    #expect(aspects.remove(from: person))
    #expect(sendInt(person, "name") == 11)
    #expect(kvo.remove(from: person))
    #expect(sendInt(person, "name") == 1)
  }

  @Test("associations survive stacking and unstacking")
  func associationsSurvive() {
    let person = Person()
    objc_setAssociatedObject(person, noteKey, "kept", .retain)
    let swizzler = Swizzler("Person_Assoc", increment: 1, over: Person.runtimeClass)
    swizzler.install(on: person)
    #expect(objc_getAssociatedObject(person, noteKey) as? String == "kept")
    _ = swizzler.remove(from: person)
    #expect(objc_getAssociatedObject(person, noteKey) as? String == "kept")
  }

  @Test("swizzling isas while other threads send and associate stays consistent")
  func concurrentStacking() {
    let person = Person()
    let swizzler = Swizzler("Person_Race", increment: 10, over: Person.runtimeClass)
    let shared = Shared(value: person)
    let shadow = Shared(value: swizzler)
    let invalid = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 3) { worker in
      for round in 0..<2_000 {
        switch worker {
        case 0:
          if round.isMultiple(of: 2) {
            shadow.value.install(on: shared.value)
          } else {
            _ = shadow.value.remove(from: shared.value)
          }
        case 1:
          if ![1, 11].contains(sendInt(shared.value, "name")) {
            invalid.add(1, ordering: .relaxed)
          }
        default:
          objc_setAssociatedObject(shared.value, roundKey, round, .retain)
        }
      }
    }
    #expect(invalid.load(ordering: .relaxed) == 0)
  }
}
