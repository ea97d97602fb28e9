// The hook cases: the cost of a hooked call, and of installing and removing hooks.
import Foundation
import Hooks
import ObjCRuntime
import Synchronization

enum HookCases {
  static let all: [BenchCase] =
    [
      BenchCase(
        name: "class-hook-before-after", target: "<= 10x cached-send (SwiftHook: 108x)",
        limit: 10, iterations: (20_000, 60_000), body: classHookSend, relativeTo: "cached-send",
        relativeFactor: true),
      BenchCase(
        name: "object-hook-before-after", target: "<= 12x cached-send", limit: 12,
        iterations: (20_000, 60_000), body: objectHookSend, relativeTo: "cached-send",
        relativeFactor: true),
      BenchCase(
        name: "hook-install-remove", target: "report (install + remove, 100 sels)",
        limit: nil, iterations: (1_000, 10_000), body: installRemove),
    ]
    + besideCases("hook-install-beside", "class-wide hooks", body: installBeside)
    + besideCases("object-hook-install-beside", "hooked objects", body: objectInstallBeside)
    + [
      BenchCase(
        name: "exchange-change-log",
        target: "report (an exchange while the hook change log records; exchange-0-classes"
          + " without)",
        limit: nil, iterations: (1_000, 3_000), body: exchangeWithChangeLog),
      BenchCase(
        name: "hooks-10000-on-100-selectors", target: "report (install all, then remove all)",
        limit: nil, iterations: (0, 1), body: { _ in 0 }, direct: { tenThousandHooks() },
        unit: "ms"),
      BenchCase(
        name: "hook-cycles-memory", target: "report (~0 after 1M install/remove)",
        limit: nil, iterations: (0, 1), body: { _ in 0 }, direct: { cycleMemory() },
        unit: "B/1M cycles"),
      BenchCase(
        name: "awake-first-scan", target: "<= 1 ms (first scan, fresh process)", limit: 1,
        iterations: (0, 1), body: { _ in 0 }, direct: { awakeMilliseconds(pass: 1) },
        unit: "ms"),
      BenchCase(
        name: "awake-first-scan-instructions", target: "report", limit: nil,
        iterations: (0, 1), body: { count in (0..<count).reduce(0) { sum, _ in sum + awakeOnce() } }
      ),
      BenchCase(
        name: "awake-rescan", target: "report (no new image)", limit: nil,
        iterations: (0, 1), body: { _ in 0 }, direct: { awakeMilliseconds(pass: 2) },
        unit: "ms"),
      BenchCase(
        name: "class-list-first", target: "<= 2 ms (every class realized, fresh process)",
        limit: 2, iterations: (0, 1), body: { _ in 0 }, direct: { classListMilliseconds(pass: 1) },
        unit: "ms"),
      BenchCase(
        name: "class-list-first-instructions", target: "report", limit: nil,
        iterations: (0, 1),
        body: { count in (0..<count).reduce(0) { sum, _ in sum + objc_copyClassList().count } }),
      BenchCase(
        name: "class-list-again", target: "report (no new image: cached)", limit: nil,
        iterations: (1_000, 3_000),
        body: { count in
          _ = objc_copyClassList()
          return (0..<count).reduce(0) { sum, _ in sum &+ Int(objc_getClassList(nil, 0)) }
        }),
    ]

  /// The wall time of call `pass` of `objc_copyClassList` in this process, in milliseconds: the
  /// first realizes every class of every image, the later ones read one counter and copy.
  static func classListMilliseconds(pass: Int) -> Double {
    var elapsed = 0.0
    for _ in 0..<pass {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = objc_copyClassList()
      elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }
    return elapsed
  }

  /// `count` exchanges of two methods after a hook was installed and removed, so that the
  /// hook change log records every runtime change from then on.
  static func exchangeWithChangeLog(_ count: Int) -> Int {
    guard let cls = hostClass else { return 0 }
    if let token = try? cls.hook(Selector("bench.hook.0:"), position: .before, { _ in }) {
      token.remove()
    }
    let base = BenchTarget.runtimeClass
    Cases.exchangeLoop(
      class_getInstanceMethod(base, "increment:"), class_getInstanceMethod(base, "decrement:"),
      count)
    return count
  }

  /// Milliseconds to install 10,000 hooks, 100 on each of 100 selectors, then remove them all.
  static func tenThousandHooks() -> Double {
    guard let cls = hostClass else { return -1 }
    let selectors = (0..<100).map { Selector("bench.hook.\($0):") }
    let start = DispatchTime.now().uptimeNanoseconds
    var tokens: [HookToken] = []
    tokens.reserveCapacity(10_000)
    for index in 0..<10_000 {
      if let token = try? cls.hook(selectors[index % 100], position: .before, { _ in }) {
        tokens.append(token)
      }
    }
    for token in tokens { token.remove() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
  }

  /// Resident bytes grown by 1,000,000 install/remove cycles of one hook, after 10,000 to warm
  /// the heap.
  static func cycleMemory() -> Double {
    guard let cls = hostClass else { return -1 }
    let selector: Selector = "bench.hook.0:"
    func cycles(_ count: Int) {
      for _ in 0..<count {
        (try? cls.hook(selector, position: .before) { _ in })?.remove()
      }
    }
    cycles(10_000)
    let start = AssociationMemory.residentBytes()
    cycles(1_000_000)
    return Double(AssociationMemory.residentBytes() - start)
  }

  /// The wall time of discovery pass `pass` (1: the first scan of every image; 2: a rescan with
  /// no new image) in this process, in milliseconds.
  static func awakeMilliseconds(pass: Int) -> Double {
    var elapsed = 0.0
    for _ in 0..<pass {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = try? SelfAwareDiscovery.awakeAll()
      elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }
    return elapsed
  }

  /// One first scan: the callgrind case runs it once (iterations 0 and 1), so the difference is
  /// the scan's instructions.
  static func awakeOnce() -> Int {
    (try? SelfAwareDiscovery.awakeAll())?.classesExamined ?? 0
  }

  /// A counter the hooks bump, so that their bodies are not optimized away.
  static let hookCalls = Atomic<Int>(0)

  static func classHookSend(count: Int) -> Int {
    let before = try? BenchTarget.hook(before: "classHooked:") { (_, _: Int) in
      hookCalls.wrappingAdd(1, ordering: .relaxed)
    }
    let after = try? BenchTarget.hook(after: "classHooked:") { (_, _: Int) in
      hookCalls.wrappingAdd(1, ordering: .relaxed)
    }
    defer {
      before?.remove()
      after?.remove()
    }
    return Cases.sendLoop(BenchTarget(), "classHooked:", count)
      &+ hookCalls.load(ordering: .relaxed)
  }

  static func objectHookSend(count: Int) -> Int {
    let target = BenchTarget()
    let before = try? target.hook(before: "objectHooked:") { (_, _: Int) in
      hookCalls.wrappingAdd(1, ordering: .relaxed)
    }
    let after = try? target.hook(after: "objectHooked:") { (_, _: Int) in
      hookCalls.wrappingAdd(1, ordering: .relaxed)
    }
    defer {
      before?.remove()
      after?.remove()
    }
    return Cases.sendLoop(target, "objectHooked:", count) &+ hookCalls.load(ordering: .relaxed)
  }

  /// Selectors `bench.hook.0:` ... `bench.hook.99:`, each a method of the class `hostClass`.
  static let hostClass: Class? = {
    guard let cls = objc_allocateClassPair(BenchTarget.runtimeClass, "BenchHookHost", 0) else {
      return nil
    }
    let imp = method_getImplementation(
      class_getInstanceMethod(BenchTarget.runtimeClass, "increment:"))
    for index in 0..<100 {
      class_addMethod(cls, Selector("bench.hook.\(index):"), imp, "q@:q")
    }
    objc_registerClassPair(cls)
    return cls
  }()

  /// `name-N` for N = 1, 10, 100 and 1,000: installing and removing a hook beside N `things`;
  /// the target is at 1,000 (issue #36: at most 20 instructions more per thing than at 1).
  static func besideCases(
    _ name: String, _ things: String,
    body: @escaping @Sendable (_ existing: Int, _ count: Int) -> Int
  ) -> [BenchCase] {
    [1, 10, 100, 1_000].map { existing in
      BenchCase(
        name: "\(name)-\(existing)",
        target: existing < 1_000
          ? "report (install + remove beside \(existing) \(things))"
          : "<= 20 more per one beside than at 1 (issue #36)",
        limit: existing < 1_000 ? nil : Double(20 * (existing - 1)), iterations: (1_000, 3_000),
        body: { body(existing, $0) }, relativeTo: existing < 1_000 ? nil : "\(name)-1")
    }
  }

  /// Installs a before hook and removes it, `count` times, on a selector that already has
  /// `existing` class-wide hooks: what each of them adds to an edit.
  static func installBeside(existing: Int, count: Int) -> Int {
    guard let cls = hostClass else { return 0 }
    let selector: Selector = "bench.hook.99:"
    let standing = (0..<existing).compactMap { _ in
      try? cls.hook(selector, position: .before) { _ in }
    }
    var installed = 0
    for _ in 0..<count {
      let token = try? cls.hook(selector, position: .before) { _ in }
      if token != nil { installed += 1 }
      token?.remove()
    }
    withExtendedLifetime(standing) {}
    return installed
  }

  /// Installs a before hook on one object and removes it, `count` times, while `existing` other
  /// objects of its class have a hook on the same method.
  static func objectInstallBeside(existing: Int, count: Int) -> Int {
    let objects = (0..<existing).map { _ in BenchTarget() }
    let standing = objects.compactMap { object in
      try? object.hook(before: "objectHooked:") { (_, _: Int) in }
    }
    let target = BenchTarget()
    // The object's first hook gives it the dynamic subclass; later ones only edit lists.
    let first = try? target.hook(before: "objectHooked:") { (_, _: Int) in }
    var installed = 0
    for _ in 0..<count {
      let token = try? target.hook(before: "objectHooked:") { (_, _: Int) in }
      if token != nil { installed += 1 }
      token?.remove()
    }
    withExtendedLifetime((objects, standing, first)) {}
    return installed
  }

  /// Installs a before hook on one of 100 selectors and removes it, `count` times: the first
  /// hook on a selector makes its site, later ones only edit lists and swap the IMP.
  static func installRemove(count: Int) -> Int {
    guard let cls = hostClass else { return 0 }
    let selectors = (0..<100).map { Selector("bench.hook.\($0):") }
    var installed = 0
    Stopwatch.time {
      for index in 0..<count {
        let token = try? cls.hook(selectors[index % 100], position: .before) { _ in }
        if token != nil { installed += 1 }
        token?.remove()
      }
    }
    return installed
  }
}
