// `+initialize`, as objc4 sends it: lazily before a class's first message (or its instances'),
// superclasses first, once per class, through the table; inherited by a class without its own;
// re-entrant on the initializing thread; one initialization when threads race.
import Foundation
import ObjCRuntime
import Synchronization
import Testing

/// The classes whose `initialize` ran, in order, by the name of the class it ran for.
private let initialized = Mutex<[String]>([])

private func ran(_ cls: AnyClass) {
  initialized.withLock { $0.append("\(cls)") }
}

private func reset() {
  initialized.withLock { $0 = [] }
}

private let nothing: @convention(c) (id, SEL) -> Void = { _, _ in }

private class InitParent: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(InitParent.self) { ObjCMethodDeclaration("ping", nothing) }
  }
  override class func initialize() { ran(self) }
}

private final class InitChild: InitParent {
  override class func initialize() { ran(self) }
}

/// No `initialize` of its own: its superclass's runs for it too.
private class InheritingParent: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(InheritingParent.self) { ObjCMethodDeclaration("ping", nothing) }
  }
  override class func initialize() { ran(self) }
}

private final class InheritingChild: InheritingParent {}

/// Messages itself while it initializes.
private final class Reentrant: ObjCObject {
  static let answer = Mutex<Int?>(nil)
  static let value: @convention(c) (id, SEL) -> Int = { _, _ in 42 }
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Reentrant.self) {
      ObjCMethodDeclaration("value", Reentrant.value)
      ObjCMethodDeclaration.classMethod("classValue", Reentrant.value)
    }
  }
  override class func initialize() {
    let fromClass = try? objc_msgSend(Reentrant.runtimeClass, "classValue") as Int
    let fromInstance = try? objc_msgSend(Reentrant(), "value") as Int
    answer.withLock { $0 = (fromClass ?? 0) + (fromInstance ?? 0) }
  }
}

/// Slow to initialize, so that racing threads arrive while it runs.
private final class Slow: ObjCObject {
  static let runs = Atomic(0)
  static let finished = Atomic(false)
  static let sawFinished: @convention(c) (id, SEL) -> Bool = { _, _ in
    Slow.finished.load(ordering: .acquiring)
  }
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Slow.self) { ObjCMethodDeclaration("sawFinished", Slow.sawFinished) }
  }
  override class func initialize() {
    runs.add(1, ordering: .relaxed)
    usleep(20_000)
    finished.store(true, ordering: .releasing)
  }
}

/// Answers whether its `+initialize` had run when the method ran.
private final class PerformedFirst: ObjCObject {
  static let done = Atomic(false)
  static let check: @convention(c) (id, SEL) -> id? = { _, _ in
    (PerformedFirst.done.load(ordering: .acquiring) ? PerformedFirst() : nil)?.passRetained()
  }
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(PerformedFirst.self) {
      ObjCMethodDeclaration("initializedWhenRun", PerformedFirst.check)
    }
  }
  override class func initialize() { done.store(true, ordering: .releasing) }
}

/// Two classes whose `+initialize` each message the other, once both have started: on two
/// threads, each waits for the other's.
private enum Crossing {
  static let started = Atomic(0)
  static func meet() {
    started.add(1, ordering: .acquiringAndReleasing)
    let deadline = Date().addingTimeInterval(5)
    while started.load(ordering: .acquiring) < 2, Date() < deadline { sched_yield() }
  }
}

private final class CrossingA: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(CrossingA.self) { ObjCMethodDeclaration.classMethod("ping", nothing) }
  }
  override class func initialize() {
    Crossing.meet()
    try? objc_msgSend(CrossingB.runtimeClass, "ping") as Void
  }
}

private final class CrossingB: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(CrossingB.self) { ObjCMethodDeclaration.classMethod("ping", nothing) }
  }
  override class func initialize() {
    Crossing.meet()
    try? objc_msgSend(CrossingA.runtimeClass, "ping") as Void
  }
}

@Suite("+initialize", .serialized)
struct InitializeTests {
  @Test("lazy: nothing before the first message; then superclass first, once per class")
  func lazyAndOrdered() throws {
    reset()
    let child = InitChild()
    #expect(!InitChild.runtimeClass.isInitialized, "making an object sends no message")
    try objc_msgSend(child, "ping") as Void
    #expect(initialized.withLock { $0 } == ["InitParent", "InitChild"])
    #expect(InitParent.runtimeClass.isInitialized && InitChild.runtimeClass.isInitialized)
    try objc_msgSend(InitParent(), "ping") as Void
    try objc_msgSend(child, "ping") as Void
    #expect(initialized.withLock { $0 }.count == 2, "once per class")
  }

  @Test("a class without its own initialize inherits its superclass's, which runs again")
  func inherited() throws {
    reset()
    try objc_msgSend(InheritingChild(), "ping") as Void
    #expect(initialized.withLock { $0 } == ["InheritingParent", "InheritingChild"])
  }

  @Test("initialize goes through the table: a method added to the metaclass runs instead")
  func throughTheTable() throws {
    let cls = try #require(
      objc_allocateClassPair(ObjCObject.runtimeClass, "InitializedByTable", 0))
    objc_registerClassPair(cls)
    let calls = Mutex(0)
    let imp = try imp_implementationWithBlock { (_: Class) in calls.withLock { $0 += 1 } }
    #expect(class_addMethod(object_getClass(cls), "initialize", imp, "v@:"))
    let object = ObjCObject()
    object_setClass(object, cls)
    _ = try objc_msgSend(object, "hash") as UInt
    _ = try objc_msgSend(object, "hash") as UInt
    #expect(calls.withLock { $0 } == 1)
    #expect(cls.isInitialized)
  }

  @Test("a first message sent by an invocation initializes the class too")
  func throughAnInvocation() throws {
    let cls = try #require(
      objc_allocateClassPair(ObjCObject.runtimeClass, "InitializedByInvocation", 0))
    objc_registerClassPair(cls)
    let calls = Mutex(0)
    let initialize = try imp_implementationWithBlock { (_: Class) in calls.withLock { $0 += 1 } }
    #expect(class_addMethod(object_getClass(cls), "initialize", initialize, "v@:"))
    let object = ObjCObject()
    object_setClass(object, cls)
    let invocation = try Invocation(target: object, selector: "hash")
    try invocation.invoke()
    #expect(calls.withLock { $0 } == 1 && cls.isInitialized)
  }

  @Test("the initializing thread may message the class and its instances: no deadlock")
  func reentrant() throws {
    _ = try objc_msgSend(Reentrant(), "value") as Int
    #expect(Reentrant.answer.withLock { $0 } == 84)
  }

  @Test("threads racing to a class's first message: one initialize, all after it ended")
  func racing() async throws {
    let results = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 {
        group.addTask { (try? objc_msgSend(Slow(), "sawFinished") as Bool) ?? false }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Slow.runs.load(ordering: .relaxed) == 1)
    #expect(results == Array(repeating: true, count: 8), "every send waited for initialize")
  }

  @Test("an initialize that cannot be sent is reported once, and the class still works")
  func badInitialize() throws {
    let cls = try #require(
      objc_allocateClassPair(ObjCObject.runtimeClass, "InitializeOfOtherTypes", 0))
    objc_registerClassPair(cls)
    let wrong: @convention(c) (id, SEL) -> Int = { _, _ in 7 }
    // Declared returning a long: the runtime's `void` send of it is a signature mismatch.
    #expect(class_addMethod(object_getClass(cls), "initialize", try IMP(wrong), "q@:"))
    let object = ObjCObject()
    object_setClass(object, cls)
    let (_, warnings) = try Diagnostics.collecting {
      _ = try objc_msgSend(object, "hash") as UInt
      _ = try objc_msgSend(object, "hash") as UInt
    }
    // Collecting sees every thread's diagnostics: other tests' run meanwhile.
    let own = warnings.filter { $0.message.contains("InitializeOfOtherTypes") }
    #expect(own.count == 1 && own.first?.message.contains("initialize") == true)
    #expect(cls.isInitialized)
  }

  @Test("a first message through perform runs +initialize first, and later sends do not skip it")
  func performFirst() throws {
    let answer = try PerformedFirst().perform("initializedWhenRun")
    #expect(answer != nil, "the method ran after +initialize")
    #expect(PerformedFirst.runtimeClass.isInitialized)
  }

  // objc4 deadlocks when two classes' +initialize message each other from two threads; the
  // runtime sees the cycle, says so, and lets the messages go on (Docs/Reliability.md, 5).
  @Test("two +initialize messaging each other from two threads: reported, no hang")
  func crossingInitializers() throws {
    let (_, warnings) = Diagnostics.collecting {
      let group = DispatchGroup()
      for cls in [CrossingA.runtimeClass, CrossingB.runtimeClass] {
        group.enter()
        Thread {
          try? objc_msgSend(cls, "ping") as Void
          group.leave()
        }.start()
      }
      #expect(group.wait(timeout: .now() + 10) == .success, "both sends returned")
    }
    let deadlock = warnings.filter { $0.kind == .initializeDeadlock }
    #expect(deadlock.count >= 1)
    // It names both methods (the wording around them is free to change).
    #expect(
      deadlock.allSatisfy {
        $0.message.contains("+[CrossingA initialize]")
          && $0.message.contains("+[CrossingB initialize]")
      })
    #expect(CrossingA.runtimeClass.isInitialized && CrossingB.runtimeClass.isInitialized)
  }
}

/// Counts its own `+initialize` runs (with `self` the Swift class, as Swift gives it).
private final class ObservedFirst: ObjCObject {
  static let runs = Atomic(0)
  var level = 0
  static let setLevel: @convention(c) (id, SEL, Int) -> Void = { me, _, value in
    me.takeUnretainedObject(as: ObservedFirst.self)?.level = value
  }
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(ObservedFirst.self) {
      ObjCMethodDeclaration("setLevel:", ObservedFirst.setLevel)
      ObjCIvarDeclaration("_level", \ObservedFirst.level)
    }
  }
  override class func initialize() {
    guard self == ObservedFirst.self else { return }
    runs.add(1, ordering: .relaxed)
  }
}

private final class Silent: ObjCObject {
  override func observeValue(
    forKeyPath keyPath: String, of object: ObjCObject, change: KeyValueChange,
    context: UnsafeMutableRawPointer?
  ) {}
}

@Suite("+initialize through isa layers")
struct InitializeLayerTests {
  // An observer's hidden class is not a class of the program: its superclass's +initialize,
  // inherited, must not run again for it (`self` there is the Swift class: the guard cannot
  // tell them apart).
  @Test("a class first touched by an observer runs its +initialize once, not again for the layer")
  func observedFirst() throws {
    let object = ObservedFirst()
    let observer = Silent()
    try object.addObserver(observer, forKeyPath: "level", options: .new)
    try objc_msgSend(object, "setLevel:", 2) as Void
    #expect(ObservedFirst.runs.load(ordering: .relaxed) == 1)
    try object.removeObserver(observer, forKeyPath: "level")
  }
}
