// IMPs and small helpers shared by the runtime's test suites.
import ObjCRuntime
import Synchronization

/// IMPs no test declares for a Swift class, for the tests that exchange implementations. A
/// declaration (`ObjCMethodDeclaration`) records its class as the IMP's receiver, and the runtime
/// then refuses to exchange that IMP onto an unrelated class; with the shared `Constant`s, the
/// exchange tests failed whenever a test declaring one ran first.
enum Unshared {
  static let one: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
  static let two: @convention(c) (id, SEL) -> Int = { _, _ in 2 }
  static let three: @convention(c) (id, SEL) -> Int = { _, _ in 3 }
  static let four: @convention(c) (id, SEL) -> Int = { _, _ in 4 }
  static let five: @convention(c) (id, SEL) -> Int = { _, _ in 5 }
  static let six: @convention(c) (id, SEL) -> Int = { _, _ in 6 }
}

/// IMPs that return a constant, so a test can tell which implementation answered.
enum Constant {
  static let one: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
  static let two: @convention(c) (id, SEL) -> Int = { _, _ in 2 }
  static let three: @convention(c) (id, SEL) -> Int = { _, _ in 3 }
  static let four: @convention(c) (id, SEL) -> Int = { _, _ in 4 }
  static let five: @convention(c) (id, SEL) -> Int = { _, _ in 5 }
  static let six: @convention(c) (id, SEL) -> Int = { _, _ in 6 }
  static let seven: @convention(c) (id, SEL) -> Int = { _, _ in 7 }

  static func imp(_ function: @convention(c) (id, SEL) -> Int) -> IMP {
    // The functions above all have a valid IMP signature.
    (try? IMP(function))!
  }
}

/// Sends a message returning `Int` with no arguments, or nil when it throws.
func sendInt(_ receiver: ObjCObject, _ selector: Selector) -> Int? {
  try? objc_msgSend(receiver, selector) as Int
}

/// Sends the same message twice, so that the second send hits the cache the first one filled,
/// and returns both results.
func sendTwice(_ receiver: ObjCObject, _ selector: Selector) -> [Int?] {
  [sendInt(receiver, selector), sendInt(receiver, selector)]
}

/// The Swift storage of the objects whose classes tests make at run time.
final class TestObject: ObjCObject {}

/// Makes and registers a class at run time, below `superclass` (by default `TestObject`), with
/// methods returning constants, under a name no other test uses.
func makeClass(
  _ name: String, superclass: Class = TestObject.runtimeClass,
  methods: [(Selector, @convention(c) (id, SEL) -> Int)] = [],
  classMethods: [(Selector, @convention(c) (id, SEL) -> Int)] = []
) -> Class {
  let cls = objc_allocateClassPair(superclass, UniqueName.make(name), 0)!
  for (selector, function) in methods {
    class_addMethod(cls, selector, Constant.imp(function), "q@:")
  }
  for (selector, function) in classMethods {
    class_addMethod(object_getClass(cls), selector, Constant.imp(function), "q@:")
  }
  objc_registerClassPair(cls)
  return cls
}

/// An object whose runtime class is `cls`.
func instance(of cls: Class) -> ObjCObject {
  let object = TestObject()
  object_setClass(object, cls)
  return object
}

/// Names that differ on every call, so that tests running in parallel never share a class.
enum UniqueName {
  private static let counter = Atomic(0)

  static func make(_ base: String) -> String {
    let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
    return "\(base)_\(number)"
  }
}

/// Hands an object to other threads in the concurrency tests.
///
/// `@unchecked Sendable`: the tests only send messages to the object and change its isa, both of
/// which the runtime makes thread-safe; nothing reads or writes the object's Swift state.
struct Shared<Value: AnyObject>: @unchecked Sendable {
  let value: Value
}
