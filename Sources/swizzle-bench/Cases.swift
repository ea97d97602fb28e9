// The benchmark cases: each does its setup, then repeats one operation a given number of times.
import ObjCRuntime

/// One measured operation.
struct BenchCase: Sendable {
  /// The name used on the command line.
  let name: String
  /// What the target is, as the issue states it.
  let target: String
  /// The target (in the case's unit), when there is one.
  let limit: Double?
  /// Iteration counts for the two callgrind runs whose difference is measured.
  let iterations: (small: Int, large: Int)
  /// Runs the setup, then the operation `count` times; returns a checksum. On the main
  /// actor: the benchmark runs on the main thread, where the model runs.
  let body: @MainActor @Sendable (Int) -> Int
  /// For cases measured directly rather than with callgrind (memory): the figure itself.
  var direct: (@MainActor @Sendable () -> Double)?
  /// The unit of the figure.
  var unit = "instructions/op"
  /// For targets stated relative to another case: that case's name; the limit is then its figure
  /// plus `limit`, or times `limit` when `relativeFactor` is set.
  var relativeTo: String?
  /// Whether `limit` multiplies the other case's figure rather than adding to it.
  var relativeFactor = false

  /// The iteration count of a clock-mode run: ten times callgrind's large count for the cheap
  /// operations, so that a run lasts milliseconds; callgrind's own for the rest.
  var timedIterations: Int {
    iterations.large >= 100_000 ? iterations.large * 10 : iterations.large
  }

  /// Whether the figure is measured directly (memory, or a time the case takes itself).
  var isDirect: Bool { direct != nil }
}

enum Cases {
  static let all: [BenchCase] =
    [
      BenchCase(
        name: "direct-call", target: "floor (GNU: 12)", limit: nil, iterations: (100_000, 300_000),
        body: directCall),
      BenchCase(
        name: "cached-send", target: "<= 30 (GNU: 35)", limit: 30,
        iterations: (100_000, 300_000), body: cachedSend),
      BenchCase(
        name: "cached-send-worst-of-10", target: "<= 40 (the worst selector of 10 methods)",
        limit: 40, iterations: (100_000, 300_000), body: { worstCachedSend(methods: 10, count: $0) }
      ),
      BenchCase(
        name: "cached-send-worst-of-100", target: "<= 40 (the worst selector of 100)",
        limit: 40, iterations: (100_000, 300_000),
        body: { worstCachedSend(methods: 100, count: $0) }
      ),
      BenchCase(
        name: "cached-send-worst-of-1000", target: "<= 40 (the worst selector of 1,000)",
        limit: 40, iterations: (100_000, 300_000),
        body: { worstCachedSend(methods: 1_000, count: $0) }),
      BenchCase(
        name: "cached-send-worst-of-10000", target: "<= 40 (the worst selector of 10,000)",
        limit: 40, iterations: (100_000, 300_000),
        body: { worstCachedSend(methods: 10_000, count: $0) }),
      BenchCase(
        name: "flush-then-send", target: "report (flush a class's cache, send once)",
        limit: nil, iterations: (1_000, 3_000), body: { sendAfterFlush(depth: 0, count: $0) }),
    ]
    + [1, 10, 100, 1_000].map { depth in
      BenchCase(
        name: "first-send-after-flush-depth-\(depth)",
        target: "<= 83 more per level than flush-then-send (half of 166; issue #36)",
        limit: Double(83 * depth), iterations: (1_000, 3_000),
        body: { sendAfterFlush(depth: depth, count: $0) }, relativeTo: "flush-then-send")
    }
    + [
      BenchCase(
        name: "send-after-exchange", target: "<= 36 (same as cached)", limit: 36,
        iterations: (100_000, 300_000), body: sendAfterExchange),
      BenchCase(
        name: "swift-entry-call", target: "report (a Swift entry into the table)", limit: nil,
        iterations: (100_000, 300_000), body: swiftEntryCall),
      BenchCase(
        name: "object-lifetime", target: "<= 300 (make and free an ObjCObject)",
        limit: 300, iterations: (10_000, 30_000), body: objectLifetime),
      BenchCase(
        name: "swift-object-lifetime", target: "floor (make and free a plain Swift object)",
        limit: nil, iterations: (10_000, 30_000), body: plainObjectLifetime),
      BenchCase(
        name: "exchange-0-classes", target: "<= 2,000 (GNU: 10,851 at 6)", limit: 2000,
        iterations: (1_000, 3_000), body: { exchange(liveClasses: 0, count: $0) }),
      BenchCase(
        name: "exchange-10-classes", target: "<= 2,000", limit: 2000, iterations: (1_000, 3_000),
        body: { exchange(liveClasses: 10, count: $0) }),
      BenchCase(
        name: "exchange-1000-classes", target: "<= 2,000 (GNU: 77,854 at 1,006)", limit: 2000,
        iterations: (1_000, 3_000), body: { exchange(liveClasses: 1_000, count: $0) }),
      BenchCase(
        name: "exchange-10000-classes", target: "<= 2,000", limit: 2000,
        iterations: (1_000, 3_000), body: { exchange(liveClasses: 10_000, count: $0) }),
      BenchCase(
        name: "add-method", target: "<= 5,000 avg of 4,000 (GNU: 124,587)", limit: 5000,
        iterations: (0, 4_000), body: addMethods),
      BenchCase(
        name: "add-method-new-selector", target: "<= 4,000 (a name never registered)",
        limit: 4000, iterations: (0, 4_000), body: addMethodsWithNewSelectors),
      BenchCase(
        name: "sel-register-new", target: "<= 1,000 (a name never registered)", limit: 1000,
        iterations: (10_000, 30_000), body: registerNewNames),
      BenchCase(
        name: "sel-register-existing", target: "<= 100", limit: 100,
        iterations: (100_000, 300_000), body: registerExistingName),
      BenchCase(
        name: "replace-method", target: "report (on a live class)",
        limit: nil, iterations: (1_000, 3_000), body: replaceMethods),
      BenchCase(
        name: "closure-imp-send", target: "<= cached-send + 60", limit: 60,
        iterations: (100_000, 300_000), body: closureSend, relativeTo: "cached-send"),
      BenchCase(
        name: "closure-churn", target: "report (make, call, free a closure IMP)",
        limit: nil, iterations: (1_000, 3_000), body: closureChurn),
      BenchCase(
        name: "invocation-invoke", target: "<= direct-call + 150", limit: 150,
        iterations: (100_000, 300_000), body: invocationInvoke, relativeTo: "direct-call"),
      BenchCase(
        name: "associated-get-hit", target: "<= 130 (as Any?)", limit: 130,
        iterations: (100_000, 300_000),
        body: associatedGet),
      BenchCase(
        name: "associated-object-hit", target: "<= 110 (as AnyObject, retained)", limit: 110,
        iterations: (100_000, 300_000), body: associatedObjectGet),
      BenchCase(
        name: "associated-unretained-hit", target: "<= 50 (objc4's non-atomic read)", limit: 50,
        iterations: (100_000, 300_000), body: unretainedGet),
      BenchCase(
        name: "associated-typed-key-hit", target: "<= 110 (AssociatedKey<T?>)", limit: 110,
        iterations: (100_000, 300_000), body: typedKeyGet),
      BenchCase(
        name: "associated-typed-value-hit",
        target: "report (AssociatedKey<Double?>, a plugin alpha)",
        limit: nil, iterations: (100_000, 300_000), body: typedValueGet),
      BenchCase(
        name: "associated-set", target: "report", limit: nil, iterations: (100_000, 300_000),
        body: associatedSet),
    ]
    + [1, 10, 100, 1_000, 10_000].map { keys in
      let what = keys == 1 ? "the one key" : "the last of \(keys.formatted) keys"
      // The target is the read's (as `associated-get-hit`), judged where issue #36 measured it.
      return BenchCase(
        name: "associated-get-\(keys)",
        target: keys == 1_000 ? "<= 130 (\(what); issue #36)" : "report (\(what))",
        limit: keys == 1_000 ? 130 : nil, iterations: (100_000, 300_000),
        body: { associatedGetAmong(keys, $0) })
    }
    + [1, 10, 100, 1_000].map { keys in
      let what = keys == 1 ? "the one key" : "the last of \(keys.formatted) keys"
      return BenchCase(
        name: "associated-set-\(keys)", target: "report (replace \(what); issue #36)",
        limit: nil, iterations: (100_000, 300_000), body: { associatedSetAmong(keys, $0) })
    }
    + [
      BenchCase(
        name: "association-memory-1", target: "<= 64 (libobjc2: 322)", limit: 64,
        iterations: (0, 1), body: { _ in 0 }, direct: { AssociationMemory.bytesPerAssociation(1) },
        unit: "B/association"),
      BenchCase(
        name: "association-memory-3", target: "report", limit: nil, iterations: (0, 1),
        body: { _ in 0 }, direct: { AssociationMemory.bytesPerAssociation(3) },
        unit: "B/association"),
    ] + HookCases.all + UIKitCases.all + PluginCases.all + TransitionCases.all + ScenarioCases.all
    + SnapshotCases.all + KVOCases.all + HookLibraryCases.all
    + LessonCases.all + ObjectiveCCases.all
    + SoakCase.all

  static func closureSend(count: Int) -> Int {
    let increment: (BenchTarget, Int) -> Int = { _, value in value &+ 1 }
    guard
      let imp = try? imp_implementationWithBlock(increment),
      let cls = objc_allocateClassPair(BenchTarget.runtimeClass, "BenchClosureHost", 0)
    else { return 0 }
    class_addMethod(cls, "closureIncrement:", imp, "q@:q")
    objc_registerClassPair(cls)
    let target = BenchTarget()
    object_setClass(target, cls)
    return sendLoop(target, "closureIncrement:", count)
  }

  /// Makes, calls and frees a closure IMP `count` times; also what the memory check runs under
  /// valgrind's memcheck.
  static func closureChurn(count: Int) -> Int {
    let target = BenchTarget()
    var sum = 0
    Stopwatch.time {
      for index in 0..<count {
        let add: (BenchTarget, Int) -> Int = { _, value in value &+ index }
        guard let imp = try? imp_implementationWithBlock(add) else { continue }
        let function = unsafeBitCast(
          imp.rawValue, to: (@convention(c) (id, SEL, Int) -> Int).self)
        sum &+= function(target.passUnretained(), Selector("churn:").sel, 1)
        imp_removeBlock(imp)
      }
    }
    return sum
  }

  static func invocationInvoke(count: Int) -> Int {
    guard let invocation = try? Invocation(target: BenchTarget(), selector: "add:to:") else {
      return 0
    }
    try? invocation.setArgument(20, at: 2)
    try? invocation.setArgument(22, at: 3)
    return invokeLoop(invocation, count)
  }

  @inline(never)
  static func invokeLoop(_ invocation: Invocation, _ count: Int) -> Int {
    var failures = 0
    Stopwatch.time {
      for _ in 0..<count {
        do { try invocation.invoke() } catch { failures += 1 }
      }
    }
    return ((try? invocation.returnValue(as: Int.self)) ?? 0) + failures
  }

  @inline(never)
  static func directCall(count: Int) -> Int {
    let target = BenchTarget()
    let selector: Selector = "increment:"
    let function = DirectCall.function()
    var sum = 0
    Stopwatch.time {
      for value in 0..<count {
        sum &+= function(target.passUnretained(), selector.sel, value)
      }
    }
    return sum
  }

  @inline(never)
  static func sendLoop(_ target: ObjCObject, _ selector: Selector, _ count: Int) -> Int {
    var sum = 0
    do {
      try Stopwatch.time { () throws(ObjCRuntimeError) in
        for value in 0..<count {
          sum &+= try objc_msgSend(target, selector, value) as Int
        }
      }
    } catch {
      print("send failed: \(error)")
    }
    return sum
  }

  /// A Swift class with the same stored size as an `ObjCObject` (two words after the header):
  /// what allocating and freeing any Swift object costs, the floor of `object-lifetime`.
  final class PlainObject {
    var first = 0
    var second = 0
  }

  @inline(never)
  static func plainObjectLifetime(count: Int) -> Int {
    var alive = 0
    Stopwatch.time {
      for _ in 0..<count {
        let object = PlainObject()
        alive &+= Int(bitPattern: ObjectIdentifier(object)) & 1
      }
    }
    return alive
  }

  @inline(never)
  static func objectLifetime(count: Int) -> Int {
    var alive = 0
    Stopwatch.time {
      for _ in 0..<count {
        let object = BenchTarget()
        // The object's address, so that it is made; a `hash` send would add a message send.
        alive &+= Int(bitPattern: ObjectIdentifier(object)) & 1
      }
    }
    return alive
  }

  static func cachedSend(count: Int) -> Int {
    let target = BenchTarget()
    return sendLoop(target, "increment:", count)
  }

  /// A cached send to the worst selector of a class of `methods` methods: the selectors are
  /// registered interleaved with as many names no class uses, so they span several of the
  /// selector arena's blocks (as a real class's selectors do, registered by whoever named them
  /// first); every one is sent once, last first, to fill the cache, and the loop sends the one
  /// whose lookup reads the most slots.
  static func worstCachedSend(methods: Int, count: Int) -> Int {
    let name = "BenchManyMethods\(methods)"
    let imp = class_getMethodImplementation(BenchTarget.runtimeClass, "increment:")
    guard let cls = objc_getClass(name) ?? objc_allocateClassPair(BenchTarget.runtimeClass, name, 0)
    else { return 0 }
    var selectors: [Selector] = []
    for index in 0..<methods {
      _ = sel_registerName("benchFiller\(methods)_\(index):")
      selectors.append(sel_registerName("benchMethod\(methods)_\(index):"))
    }
    for selector in selectors { class_addMethod(cls, selector, imp, "q@:q") }
    objc_registerClassPair(cls)
    let target = BenchTarget()
    object_setClass(target, cls)
    for selector in selectors.reversed() { _ = try? objc_msgSend(target, selector, 1) as Int }
    let worst = selectors.max { cls.cacheProbeLength(for: $0) < cls.cacheProbeLength(for: $1) }
    guard let worst else { return 0 }
    return sendLoop(target, worst, count)
  }

  /// `count` sends, each the first after its class's cache was flushed, to an object `depth`
  /// classes below the class that implements the method: the lookup walks the whole chain.
  static func sendAfterFlush(depth: Int, count: Int) -> Int {
    var cls = BenchTarget.runtimeClass
    for level in 0..<depth {
      let name = "BenchChain\(depth)_\(level)"
      guard let subclass = objc_getClass(name) ?? objc_allocateClassPair(cls, name, 0) else {
        return 0
      }
      objc_registerClassPair(subclass)
      cls = subclass
    }
    let target = BenchTarget()
    object_setClass(target, cls)
    var sum = 0
    for value in 0..<count {
      cls.flushCaches()
      sum &+= (try? objc_msgSend(target, "increment:", value) as Int) ?? 0
    }
    return sum
  }

  static func sendAfterExchange(count: Int) -> Int {
    let target = BenchTarget()
    let cls = BenchTarget.runtimeClass
    _ = sendLoop(target, "increment:", 1)
    method_exchangeImplementations(
      class_getInstanceMethod(cls, "increment:"), class_getInstanceMethod(cls, "decrement:"))
    return sendLoop(target, "increment:", count)
  }

  @inline(never)
  static func swiftEntryCall(count: Int) -> Int {
    let target = BenchTarget()
    var sum = 0
    Stopwatch.time {
      for value in 0..<count {
        sum &+= target.twice(value)
      }
    }
    return sum
  }

  static func exchange(liveClasses: Int, count: Int) -> Int {
    let base = BenchTarget.runtimeClass
    let imp = class_getMethodImplementation(base, "increment:")
    for index in 0..<liveClasses {
      guard let cls = objc_allocateClassPair(base, "BenchLive\(liveClasses)_\(index)", 0) else {
        continue
      }
      class_addMethod(cls, "increment:", imp, "q@:q")
      objc_registerClassPair(cls)
    }
    let first = class_getInstanceMethod(base, "increment:")
    let second = class_getInstanceMethod(base, "decrement:")
    exchangeLoop(first, second, count)
    return objc_getClassList(nil, 0) == 0 ? 0 : count
  }

  @inline(never)
  static func exchangeLoop(_ first: Method?, _ second: Method?, _ count: Int) {
    Stopwatch.time {
      for _ in 0..<count {
        method_exchangeImplementations(first, second)
      }
    }
  }

  /// `class_replaceMethod` on a registered class that has been messaged, alternating two IMPs so
  /// that every call changes the method (and flushes what it must).
  static func replaceMethods(count: Int) -> Int {
    guard let cls = objc_allocateClassPair(BenchTarget.runtimeClass, "BenchReplaceTarget", 0)
    else { return 0 }
    objc_registerClassPair(cls)
    let target = BenchTarget()
    _ = object_setClass(target, cls)
    _ = sendLoop(target, "increment:", 1)
    let imps = [
      class_getMethodImplementation(cls, "increment:"),
      class_getMethodImplementation(cls, "decrement:"),
    ]
    return replaceLoop(cls, imps, count)
  }

  @inline(never)
  static func replaceLoop(_ cls: Class, _ imps: [IMP?], _ count: Int) -> Int {
    var changed = 0
    Stopwatch.time {
      for index in 0..<count
      where class_replaceMethod(cls, "increment:", imps[index & 1], "q@:q") != nil {
        changed += 1
      }
    }
    return changed
  }

  /// `count` names no selector has had, made before the loop: `benchNew_<index>:`. Always as
  /// many as the largest run uses, so that callgrind's two runs make the same set-up and it
  /// cancels out.
  static func freshNames(_ count: Int, largest: Int) -> ArraySlice<String> {
    (0..<max(count, largest)).map { "benchNew_\($0):" }.prefix(count)
  }

  /// A selector's address, folded into checksums (its `hashValue` would run SipHash, which is
  /// not what these cases measure).
  @inline(__always)
  static func address(of selector: Selector) -> Int {
    Int(bitPattern: UnsafeRawPointer(selector.sel))
  }

  static func registerNewNames(count: Int) -> Int {
    registerLoop(freshNames(count, largest: 30_000))
  }

  @inline(never)
  static func registerLoop(_ names: ArraySlice<String>) -> Int {
    var sum = 0
    Stopwatch.time {
      for name in names { sum &+= address(of: sel_registerName(name)) & 1 }
    }
    return sum
  }

  static func registerExistingName(count: Int) -> Int {
    _ = sel_registerName("increment:")
    return existingLoop("increment:", count)
  }

  @inline(never)
  static func existingLoop(_ name: String, _ count: Int) -> Int {
    var sum = 0
    Stopwatch.time {
      for _ in 0..<count { sum &+= address(of: sel_registerName(name)) & 1 }
    }
    return sum
  }

  /// `class_addMethod` with a selector registered by the add itself: what adding a method with
  /// a name the process never used costs, registration included.
  static func addMethodsWithNewSelectors(count: Int) -> Int {
    let names = freshNames(count, largest: 4_000)
    guard let cls = objc_allocateClassPair(BenchTarget.runtimeClass, "BenchAddNewTarget", 0)
    else { return 0 }
    objc_registerClassPair(cls)
    let target = BenchTarget()
    _ = object_setClass(target, cls)
    _ = sendLoop(target, "increment:", 1)
    let imp = class_getMethodImplementation(cls, "increment:")
    return addNewLoop(cls, names, imp)
  }

  @inline(never)
  static func addNewLoop(_ cls: Class, _ names: ArraySlice<String>, _ imp: IMP?) -> Int {
    var added = 0
    Stopwatch.time {
      for name in names where class_addMethod(cls, sel_registerName(name), imp, "q@:q") {
        added += 1
      }
    }
    return added
  }

  static func addMethods(count: Int) -> Int {
    let selectors = (0..<4_000).map { Selector("benchAdded\($0):") }
    guard let cls = objc_allocateClassPair(BenchTarget.runtimeClass, "BenchAddTarget", 0) else {
      return 0
    }
    objc_registerClassPair(cls)
    let target = BenchTarget()
    _ = object_setClass(target, cls)
    _ = sendLoop(target, "increment:", 1)
    let imp = class_getMethodImplementation(cls, "increment:")
    return addLoop(cls, selectors, imp, count)
  }

  @inline(never)
  static func addLoop(_ cls: Class, _ selectors: [Selector], _ imp: IMP?, _ count: Int) -> Int {
    var added = 0
    Stopwatch.time {
      for index in 0..<count where class_addMethod(cls, selectors[index], imp, "q@:q") {
        added += 1
      }
    }
    return added
  }
}
