// Typed hooks of methods whose arguments all travel in general-purpose registers: they run on the
// registers as they arrived, with no frame, and must behave exactly as hooks over a frame do.
import ObjCRuntime
import Synchronization
import Testing

@testable import Hooks

@Suite("Hooks on registers")
struct HookRegistersTests {
  /// The site of `selector` on `cls`.
  func site(_ cls: Class, _ selector: Selector) -> HookSite? {
    HookEngine.state.withLock { $0.sites[SiteKey(cls: ObjectIdentifier(cls), selector: selector)] }
  }

  /// Whether the calls of `selector` on `cls` run their class-wide hooks on the registers now.
  private func takesRegisters(_ cls: Class, _ selector: Selector) -> Bool {
    site(cls, selector)?.snapshots.value.takesRegisters ?? false
  }

  /// Checks that `count` calls of `selector` on `cls` ran their hooks on the registers so far
  /// (the way `way` did, or any way), in a debug build (a release build does not count them).
  func expectRegisterCalls(
    _ count: Int, _ cls: Class, _ selector: Selector, way: SiteSnapshot.RegisterWay? = nil,
    _ comment: Comment? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #if DEBUG
      let counted = site(cls, selector)?.registerCalls.withLock { calls in
        way.map { calls[$0, default: 0] } ?? calls.values.reduce(0, +)
      }
      #expect(counted == count, comment, sourceLocation: sourceLocation)
    #endif
  }

  /// The way the calls of `selector` on `cls` take through the hooks in force.
  func registerWay(_ cls: Class, _ selector: Selector) -> SiteSnapshot.RegisterWay? {
    site(cls, selector)?.snapshots.value.registerWay
  }

  @Test("typed hooks take the registers; one untyped hook sends the calls through a frame")
  func typedHooksTakeRegisters() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let seen = Journal()
    let before = try Narrow.hook(before: "sum:b:c:", in: cls) { (_, a: Int, b: Int, c: Int) in
      seen.note("before \(a) \(b) \(c)")
    }
    let instead = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      original(a, b, c) * 2
    }
    #expect(takesRegisters(cls, "sum:b:c:"))
    #expect(object.sum(1, 2, 3) == 12)
    #expect(seen.take() == ["before 1 2 3"])
    expectRegisterCalls(1, cls, "sum:b:c:", "the call ran on the registers")

    let untyped = try Narrow.hook("sum:b:c:", position: .after, in: cls) { invocation in
      seen.note("after \(invocation.returnValue(as: Int.self) ?? -1)")
    }
    #expect(!takesRegisters(cls, "sum:b:c:"), "an untyped hook needs the frame")
    #expect(object.sum(1, 2, 3) == 12)
    #expect(seen.take() == ["before 1 2 3", "after 12"])
    expectRegisterCalls(1, cls, "sum:b:c:", "the call went through a frame")

    untyped.remove()
    #expect(takesRegisters(cls, "sum:b:c:"))
    #expect(object.sum(4, 5, 6) == 30)
    before.remove()
    instead.remove()
    #expect(object.sum(4, 5, 6) == 15)
  }

  @Test("an instead hook passes changed narrow integers on: a negative Int8, an Int32, a Bool")
  func narrowArgumentsAreWidened() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let negated = try Narrow.hook(instead: "negated:", in: cls) {
      (original: HookOriginal<Int8, Int8>, _, value: Int8) in original(value - 100)
    }
    let chosen = try Narrow.hook(instead: "choose:flag:", in: cls) {
      (original: HookOriginal<Int32, Int32, Bool>, _, value: Int32, flag: Bool) in
      original(-value, !flag)
    }
    defer {
      negated.remove()
      chosen.remove()
    }
    #expect(takesRegisters(cls, "negated:"))
    // 5 - 100 = -95, negated: 95; -20 - 100 = -120, negated: 120.
    #expect(object.negated(5) == 95)
    #expect(object.negated(-20) == 120)
    #expect(object.choose(7, true) == 7, "-7 with the flag cleared: 7")
    #expect(object.choose(-300_000, false) == 300_000, "300000 with the flag set")
  }

  @Test("a register that arrives with other upper bytes is widened again when a hook changes it")
  func changedArgumentIsWidened() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    // Unhooked, the callee sees the register as it came.
    #expect(object.wide(register: 0x1234_0000_0000_0007) == 0x1234_0000_0000_0007)
    let token = try Narrow.hook(instead: "wide:", in: cls) {
      (original: HookOriginal<Int, Int8>, _, value: Int8) in original(value - 10)
    }
    defer { token.remove() }
    #expect(object.wide(register: 0x1234_0000_0000_0007) == -3, "7 - 10, sign-extended")
    expectRegisterCalls(1, cls, "wide:")
  }

  @Test("a floating-point result of integer arguments, before and instead, on the registers")
  func floatingResult() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let seen = Journal()
    let before = try Narrow.hook(before: "halfOf:", in: cls) { (_, value: Int) in
      seen.note("before \(value)")
    }
    let instead = try Narrow.hook(instead: "halfOf:", in: cls) {
      (original: HookOriginal<Double, Int>, _, value: Int) in original(value + 1) * 3
    }
    defer {
      before.remove()
      instead.remove()
    }
    #expect(object.halfOf(4) == 7.5)
    #expect(seen.take() == ["before 4"])
    expectRegisterCalls(1, cls, "halfOf:")
  }

  @Test("a typed after hook sees the arguments an instead hook passed on, after it")
  func afterSeesChangedArguments() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let seen = Journal()
    let after = try Narrow.hook(after: "sum:b:c:", in: cls) { (_, a: Int, b: Int, c: Int) in
      seen.note("after \(a) \(b) \(c)")
    }
    let instead = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      seen.note("instead")
      return original(a + 10, b, c)
    }
    defer {
      after.remove()
      instead.remove()
    }
    #expect(object.sum(1, 2, 3) == 16)
    #expect(seen.take() == ["instead", "after 11 2 3"])
    expectRegisterCalls(1, cls, "sum:b:c:")
  }

  @Test("a result type that would misplace a reference, or read past the result, is refused")
  func mismatchedResultsRefused() throws {
    let cls = Narrow.freshClass()
    // `@` hands a reference over; a raw pointer would take it without owning it.
    #expect(throws: HookError.self) {
      try Narrow.hook(instead: "fresh:", in: cls) {
        (original: HookOriginal<UnsafeRawPointer?, Bool>, _, make: Bool) in original(make)
      }
    }
    // `Int?` is encoded `q` but takes nine bytes.
    #expect(throws: HookError.self) {
      try Narrow.hook(after: "sum:b:c:", returning: Int?.self, in: cls) {
        (_, result: Int?, _: Int, _: Int, _: Int) in result
      }
    }
    #expect(Narrow.make(cls).sum(1, 2, 3) == 6, "nothing installed")
  }

  @Test("an untyped hook on one object sends that object's calls through a frame, no other's")
  func perObjectFrameIsPerObject() throws {
    let cls = Narrow.freshClass()
    let framed = Narrow.make(cls)
    let typed = Narrow.make(cls)
    let seen = Journal()
    let untyped = try framed.hook("sum:b:c:", position: .before) { invocation in
      seen.note("untyped \(invocation.argument(0, as: Int.self) ?? -1)")
    }
    let onTyped = try typed.hook(before: "sum:b:c:") { (_: Narrow, a: Int, _: Int, _: Int) in
      seen.note("typed \(a)")
    }
    defer {
      untyped.remove()
      onTyped.remove()
    }
    let dynamic = object_getClass(typed)!
    #expect(object_getClass(framed)! === dynamic, "one dynamic subclass, one site")
    #expect(framed.sum(1, 2, 3) == 6)
    expectRegisterCalls(0, dynamic, "sum:b:c:")
    #expect(typed.sum(4, 5, 6) == 15)
    expectRegisterCalls(1, dynamic, "sum:b:c:")
    #expect(seen.take() == ["untyped 1", "typed 4"])
  }

  @Test("per-object instead hooks run outside class-wide ones; a once hook passes on after it ran")
  func insteadChainOrder() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let other = Narrow.make(cls)
    let order = Journal()
    let classWide = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      order.note("class")
      return original(a, b, c) + 1000
    }
    let once = try object.hook(instead: "sum:b:c:", options: .once) {
      (original: HookOriginal<Int, Int, Int, Int>, _: Narrow, a: Int, b: Int, c: Int) in
      order.note("once")
      return original(a * 10, b, c)
    }
    let perObject = try object.hook(instead: "sum:b:c:") {
      (original: HookOriginal<Int, Int, Int, Int>, _: Narrow, a: Int, b: Int, c: Int) in
      order.note("object")
      return original(a, b, c) + 100
    }
    defer {
      classWide.remove()
      once.remove()
      perObject.remove()
    }
    #expect(takesRegisters(object_getClass(object)!, "sum:b:c:"))
    #expect(object.sum(1, 2, 3) == 10 + 2 + 3 + 1000 + 100)
    #expect(order.take() == ["object", "once", "class"])
    #expect(object.sum(1, 2, 3) == 6 + 1000 + 100, "the once hook ran and is gone")
    #expect(order.take() == ["object", "class"])
    #expect(other.sum(1, 2, 3) == 1006)
    #expect(order.take() == ["class"])
  }

  @Test("a once instead hook that sends the method again: the inner call passes it to the next")
  func onceHookReentered() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let order = Journal()
    let classWide = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      order.note("class \(a)")
      return original(a, b, c)
    }
    // Installed last, so outermost; it has fired when the inner call reaches it.
    let once = try Narrow.hook(instead: "sum:b:c:", in: cls, options: .once) {
      (original: HookOriginal<Int, Int, Int, Int>, me, a: Int, b: Int, c: Int) in
      order.note("once \(a)")
      let inner = me.sum(a + 100, b, c)
      return original(a, b, c) + inner
    }
    defer {
      classWide.remove()
      once.remove()
    }
    #expect(object.sum(1, 2, 3) == 6 + 106)
    #expect(order.take() == ["once 1", "class 101", "class 1"])
    expectRegisterCalls(2, cls, "sum:b:c:", "the outer call and the inner one")
    #expect(object.sum(1, 2, 3) == 6, "the once hook is gone")
    #expect(order.take() == ["class 1"])
  }

  @Test("an instead hook that skips the original, or calls it twice, returns its own result")
  func insteadSkipsOrRepeats() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let calls = Atomic(0)
    let twice = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      calls.add(1, ordering: .relaxed)
      return a == 0 ? -1 : original(a, b, c) + original(a, 0, 0)
    }
    defer { twice.remove() }
    #expect(object.sum(0, 2, 3) == -1)
    #expect(object.sum(1, 2, 3) == 7)
    #expect(calls.load(ordering: .relaxed) == 2)
  }

  @Test("an object result replaced by an instead hook is neither leaked nor released too often")
  func objectResultsBalance() throws {
    let cls = freshMeterClass("RegistersEcho")
    let calculator = meter(of: cls)
    weak var replacedWeakly: ObjCObject?
    weak var passedWeakly: ObjCObject?
    do {
      let replacement = ObjCObject()
      replacedWeakly = replacement
      let box = Shared(value: replacement)
      let token = try Meter.hook(instead: "echo:", in: cls) {
        (original: HookOriginal<ObjCObject?, ObjCObject?>, _, object: ObjCObject?) in
        // The original's result is taken and dropped; another object is returned.
        _ = original(object)
        return box.value
      }
      #expect(takesRegisters(cls, "echo:"))
      do {
        let passed = ObjCObject()
        passedWeakly = passed
        for _ in 0..<3 {
          #expect(calculator.sendEcho(passed) === replacement)
        }
      }
      #expect(passedWeakly == nil, "the original's result was released")
      token.remove()
      #expect(calculator.sendEcho(replacement) === replacement)
    }
    #expect(replacedWeakly == nil, "the hook's results were handed over, not leaked")
  }

  @Test("a new object the original returns reaches the caller alive, through two instead hooks")
  func freshObjectResult() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let outer = try Narrow.hook(instead: "fresh:", in: cls) {
      (original: HookOriginal<ObjCObject?, Bool>, _, make: Bool) in
      // The slot holds the result's only reference while the hook takes it.
      let made = original(!make)
      return made
    }
    let inner = try object.hook(instead: "fresh:") {
      (original: HookOriginal<ObjCObject?, Bool>, _: Narrow, make: Bool) in original(make)
    }
    defer {
      outer.remove()
      inner.remove()
    }
    #expect(takesRegisters(object_getClass(object)!, "fresh:"))
    weak var madeWeakly: ObjCObject?
    do {
      let made = object.fresh(false)
      #expect(made != nil)
      madeWeakly = made
      #expect(made?.description.isEmpty == false, "the object is alive and answers")
    }
    #expect(madeWeakly == nil, "and is freed once the caller lets go")
    #expect(object.fresh(true) == nil)
  }

  @Test("a flag out of step with the snapshot (an edit between the two reads): the frame runs all")
  func flagOutOfStep() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let seen = Journal()
    let typed = try Narrow.hook(before: "sum:b:c:", in: cls) { (_, a: Int, _: Int, _: Int) in
      seen.note("typed \(a)")
    }
    let untyped = try Narrow.hook("sum:b:c:", position: .after, in: cls) { invocation in
      seen.note("untyped \(invocation.returnValue(as: Int.self) ?? -1)")
    }
    defer {
      typed.remove()
      untyped.remove()
    }
    let hookSite = try #require(site(cls, "sum:b:c:"))
    // The flag says registers; the snapshot, with its untyped hook, says frame.
    hookSite.setRegisterFlagForTests(true)
    #expect(object.sum(1, 2, 3) == 6)
    #expect(seen.take() == ["typed 1", "untyped 6"])
    expectRegisterCalls(0, cls, "sum:b:c:", "the snapshot decided: a frame")
    // And the other way: a flag that says frame for a snapshot of typed hooks only.
    untyped.remove()
    hookSite.setRegisterFlagForTests(false)
    #expect(object.sum(1, 2, 3) == 6)
    #expect(seen.take() == ["typed 1"])
    expectRegisterCalls(0, cls, "sum:b:c:", "the flag said frame: the slower way, still right")
  }

  @Test("an object argument of another class skips a typed hook on the registers, with a warning")
  func objectCheckSkips() throws {
    let cls = freshMeterClass("RegistersCheck")
    let calculator = meter(of: cls)
    let ran = Journal()
    let token = try Meter.hook(instead: "echo:", in: cls) {
      (original: HookOriginal<ObjCObject?, Meter?>, _, object: Meter?) in
      ran.note("instead")
      return original(object)
    }
    defer { token.remove() }
    let plain = ObjCObject()
    let (echoed, warnings) = Diagnostics.collecting(kind: .hookSkipped) {
      calculator.sendEcho(plain)
    }
    #expect(echoed === plain, "skipped: the original ran")
    #expect(ran.take().isEmpty)
    let warning = try #require(warnings.first { $0.method?.className == cls.name })
    #expect(warning.message.contains("argument 0 is not of the hook's class"))
    #expect(calculator.sendEcho(calculator) === calculator)
    #expect(ran.take() == ["instead"])
  }

  @Test("a method sent into forwarding (Aspects' way) and hooked on the registers forwards")
  func forwardedOriginal() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    class_addMethod(cls, "sum:b:c:", IMP.forward, "q@:qqq")
    let forwarded = Journal()
    let forwarding = try imp_implementationWithBlock { (me: ObjCObject, invocation: Invocation) in
      forwarded.note("\(invocation.selector)")
      try? invocation.setReturnValue(42)
    }
    class_addMethod(cls, "forwardInvocation:", forwarding, "v@:@")
    let token = try Narrow.hook(before: "sum:b:c:", in: cls) { (_, _: Int, _: Int, _: Int) in
      forwarded.note("before")
    }
    defer { token.remove() }
    #expect(takesRegisters(cls, "sum:b:c:"))
    #expect(object.sum(1, 2, 3) == 42)
    #expect(forwarded.take() == ["before", "sum:b:c:"])
  }

  @Test("untyped hooks made and removed beside a typed one while 4 tasks call: results whole")
  func flagRacesCalls() async throws {
    let cls = Narrow.freshClass()
    let object = Shared(value: Narrow.make(cls))
    let typed = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      original(a, b, c) + 1
    }
    defer { typed.remove() }
    let wrong = Counter()
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<4 {
        group.addTask {
          for round in 1...2_000 {
            // With the untyped hook on or off (frames or registers), the typed one adds 1.
            if object.value.sum(worker, round, 1) != worker + round + 2 {
              wrong.value.add(1, ordering: .relaxed)
            }
          }
        }
      }
      group.addTask {
        for _ in 0..<300 {
          (try? Narrow.hook("sum:b:c:", position: .before, in: cls) { _ in })?.remove()
        }
      }
    }
    #expect(wrong.value.load(ordering: .relaxed) == 0)
  }
}
