// Key-value observing and per-object hooks on one object, stacked in either order: both run,
// `-class` answers the original class, and each comes off leaving the other working (Aspects
// crashed here: it and KVO both isa-swizzled the object and each undid the other).
import Hooks
import ObjCRuntime
import Synchronization
import Testing

private final class Dial: ObjCObject {
  var level = 0
  static let setLevel: @convention(c) (id, SEL, Int) -> Void = { me, _, value in
    me.takeUnretainedObject(as: Dial.self)?.level = value
  }
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Dial.self) {
      ObjCMethodDeclaration("setLevel:", Dial.setLevel)
      ObjCIvarDeclaration("_level", \Dial.level)
    }
  }
}

private final class Watcher: ObjCObject {
  let seen = Mutex<[Int]>([])
  override func observeValue(
    forKeyPath keyPath: String, of object: ObjCObject, change: KeyValueChange,
    context: UnsafeMutableRawPointer?
  ) {
    if let value = change.newValue as? Int { seen.withLock { $0.append(value) } }
  }
  var values: [Int] { seen.withLock { $0 } }
}

private func set(_ dial: Dial, _ value: Int) throws {
  try objc_msgSend(dial, "setLevel:", value) as Void
}

@Suite("Key-value observing with hooks")
struct KeyValueObservingHookTests {
  @Test("a hook, then an observer: both run; removed in either order, each leaves the other")
  func hookFirst() throws {
    for observerLeavesFirst in [true, false] {
      let dial = Dial()
      let journal = Journal()
      let watcher = Watcher()
      let token = try dial.hook(before: "setLevel:") { (_, value: Int) in journal.note("\(value)") }
      try dial.addObserver(watcher, forKeyPath: "level", options: .new)
      #expect(object_getClass(dial)?.name == "NSKVONotifying_SwizzleKitHooked_Dial")
      #expect(dial.objcClass === Dial.runtimeClass)
      try set(dial, 1)
      #expect(journal.take() == ["1"] && watcher.values == [1] && dial.level == 1)
      if observerLeavesFirst {
        try dial.removeObserver(watcher, forKeyPath: "level")
        try set(dial, 2)
        #expect(journal.take() == ["2"] && watcher.values == [1], "the hook stays")
        token.remove()
        #expect(object_getClass(dial) === Dial.runtimeClass, "both gone: the class it had")
      } else {
        token.remove()
        try set(dial, 2)
        #expect(journal.take().isEmpty && watcher.values == [1, 2], "the observer stays")
        try dial.removeObserver(watcher, forKeyPath: "level")
      }
      try set(dial, 3)
      #expect(journal.take().isEmpty && watcher.values.last != 3 && dial.level == 3)
      #expect(dial.objcClass === Dial.runtimeClass)
    }
  }

  @Test("an observer, then a hook: both run; removed in either order, each leaves the other")
  func observerFirst() throws {
    for hookLeavesFirst in [true, false] {
      let dial = Dial()
      let journal = Journal()
      let watcher = Watcher()
      try dial.addObserver(watcher, forKeyPath: "level", options: .new)
      let token = try dial.hook(before: "setLevel:") { (_, value: Int) in journal.note("\(value)") }
      #expect(object_getClass(dial)?.name == "SwizzleKitHooked_NSKVONotifying_Dial")
      #expect(dial.objcClass === Dial.runtimeClass)
      try set(dial, 1)
      #expect(journal.take() == ["1"] && watcher.values == [1])
      if hookLeavesFirst {
        token.remove()
        #expect(object_getClass(dial)?.name == "NSKVONotifying_Dial")
        try set(dial, 2)
        #expect(journal.take().isEmpty && watcher.values == [1, 2])
        try dial.removeObserver(watcher, forKeyPath: "level")
        #expect(object_getClass(dial) === Dial.runtimeClass)
      } else {
        try dial.removeObserver(watcher, forKeyPath: "level")
        try set(dial, 2)
        #expect(journal.take() == ["2"] && watcher.values == [1])
        token.remove()
      }
      try set(dial, 3)
      #expect(journal.take().isEmpty && dial.level == 3)
      #expect(dial.objcClass === Dial.runtimeClass)
    }
  }
}
