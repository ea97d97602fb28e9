// Key-value observing and per-object hooks on one object, stacked in either order: both run,
// `-class` answers the original class, and each comes off leaving the other working (Aspects
// crashed here: it and KVO both isa-swizzled the object and each undid the other).
import Foundation
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
  let seen = RuntimeLock<[Int]>([])
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
      // The hook gave the object back the observing class nobody needs any more: it went on
      // to its own (issue #30: the hidden class was left behind).
      #expect(object_getClass(dial) === Dial.runtimeClass, "hook leaves first: \(hookLeavesFirst)")
    }
  }

  @Test("observe, hook, unobserve, unhook, a hundred times: no class left behind or stacked")
  func interleavedRepeatedly() throws {
    let dial = Dial()
    let watcher = Watcher()
    for round in 1...100 {
      try dial.addObserver(watcher, forKeyPath: "level", options: .new)
      let token = try dial.hook(before: "setLevel:") { (_, _: Int) in }
      try dial.removeObserver(watcher, forKeyPath: "level")
      token.remove()
      #expect(object_getClass(dial) === Dial.runtimeClass, "round \(round)")
      try set(dial, round)
    }
    #expect(watcher.values.isEmpty)
    #expect(objc_getClass("NSKVONotifying_NSKVONotifying_Dial") == nil)
    #expect(objc_getClass("NSKVONotifying_SwizzleKitHooked_NSKVONotifying_Dial") == nil)
  }
}

/// Records (old, new) pairs for each object it observes.
private final class PairWatcher: ObjCObject {
  let pairs = RuntimeLock<[ObjectIdentifier: [(old: Int, new: Int)]]>([:])
  override func observeValue(
    forKeyPath keyPath: String, of object: ObjCObject, change: KeyValueChange,
    context: UnsafeMutableRawPointer?
  ) {
    guard let old = change.oldValue as? Int, let new = change.newValue as? Int else {
      pairs.withLock { $0[ObjectIdentifier(object), default: []].append((-1, -1)) }
      return
    }
    pairs.withLock { $0[ObjectIdentifier(object), default: []].append((old, new)) }
  }

  /// How many changes of `object` it was told of.
  func told(about object: ObjCObject) -> Int {
    pairs.withLock { $0[ObjectIdentifier(object)]?.count ?? 0 }
  }
}

@Suite("Key-value observing under threads")
struct KeyValueObservingStressTests {
  /// Nine threads for a second (`SWIZZLEKIT_STRESS_SECONDS` for longer) on three objects: one
  /// setter per object, counting up by one; three that add and remove observers, going round
  /// the objects; two that hook and unhook them; one that asks their `-class`. Each change
  /// reaches each observer registered for all of it once, with the right old and new values,
  /// `-class` never shows a hidden class, and every object ends with its own class.
  @Test("threads adding, removing, setting, observing and hooking: each change once, right")
  func stress() throws {
    let seconds =
      ProcessInfo.processInfo.environment["SWIZZLEKIT_STRESS_SECONDS"].flatMap(Double.init) ?? 1
    let dials = (0..<3).map { _ in Dial() }
    // nonisolated(unsafe): the dials are shared on purpose; the runtime's locks are under test.
    nonisolated(unsafe) let shared = dials
    let watchers = (0..<3).map { _ in PairWatcher() }
    nonisolated(unsafe) let sharedWatchers = watchers
    let stop = Atomic(false)
    let failures = RuntimeLock<[String]>([])
    let group = DispatchGroup()
    func spawn(_ body: @escaping @Sendable () -> Void) {
      group.enter()
      Thread {
        body()
        group.leave()
      }.start()
    }
    for dial in shared.indices {
      spawn {
        var value = 0
        while !stop.load(ordering: .relaxed) {
          value += 1
          do { try set(shared[dial], value) } catch {
            failures.withLock { $0.append("set: \(error)") }
          }
        }
      }
    }
    for index in sharedWatchers.indices {
      spawn {
        let watcher = sharedWatchers[index]
        var round = index
        while !stop.load(ordering: .relaxed) {
          round += 1
          let dial = shared[round % shared.count]
          do {
            try dial.addObserver(watcher, forKeyPath: "level", options: [.old, .new])
            // Registered for a few changes (a slow run, under ThreadSanitizer, might else see
            // none), then gone.
            let start = watcher.told(about: dial)
            let deadline = Date().addingTimeInterval(0.05)
            while watcher.told(about: dial) < start + 2, Date() < deadline,
              !stop.load(ordering: .relaxed)
            {
              sched_yield()
            }
            try dial.removeObserver(watcher, forKeyPath: "level")
          } catch {
            failures.withLock { $0.append("observe: \(error)") }
          }
        }
      }
    }
    for offset in 0..<2 {
      spawn {
        var round = offset
        while !stop.load(ordering: .relaxed) {
          round += 1
          do {
            let token = try shared[round % shared.count].hook(before: "setLevel:") {
              (_, _: Int) in
            }
            token.remove()
          } catch {
            failures.withLock { $0.append("hook: \(error)") }
          }
        }
      }
    }
    spawn {
      while !stop.load(ordering: .relaxed) {
        for dial in shared {
          let shown = dial.objcClass
          if shown !== Dial.runtimeClass {
            failures.withLock { $0.append("-class answered \(shown.name)") }
          }
        }
      }
    }
    Thread.sleep(forTimeInterval: seconds)
    stop.store(true, ordering: .relaxed)
    group.wait()
    #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(5) })")
    for dial in dials {
      #expect(object_getClass(dial) === Dial.runtimeClass, "\(object_getClass(dial)?.name ?? "")")
    }
    var told = 0
    for watcher in watchers {
      for (_, pairs) in watcher.pairs.withLock({ $0 }) {
        told += pairs.count
        #expect(pairs.allSatisfy { $0.new == $0.old + 1 }, "each change with its own values")
        let news = pairs.map(\.new)
        #expect(zip(news, news.dropFirst()).allSatisfy { $0 < $1 }, "none told twice")
      }
    }
    #expect(told > 0, "the observers were told something")
  }
}
