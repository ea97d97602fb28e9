import ObjCRuntime
import Testing

@testable import Hooks

// The variadic forms, whatever the arity: inside a function generic over a pack, the closure's
// type is a pack's, which only the variadic overload takes.

private func variadicBefore<each A: ObjCTypeEncodable>(
  _ selector: Selector, in cls: Class, _ body: @escaping @Sendable (Narrow, repeat each A) -> Void
) throws(HookError) -> HookToken {
  try Narrow.hook(before: selector, in: cls, body)
}

private func variadicAfter<each A: ObjCTypeEncodable>(
  _ selector: Selector, on object: Narrow,
  _ body: @escaping @Sendable (Narrow, repeat each A) -> Void
) throws(HookError) -> HookToken {
  try object.hook(after: selector, body)
}

private func variadicInstead<each A: ObjCTypeEncodable, Result>(
  _ selector: Selector, in cls: Class,
  _ body:
    @escaping @Sendable (HookOriginal<Result, repeat each A>, Narrow, repeat each A) -> Result
) throws(HookError) -> HookToken {
  try Narrow.hook(instead: selector, in: cls, body)
}

private func variadicMeterBefore<each A: ObjCTypeEncodable>(
  _ selector: Selector, in cls: Class, _ body: @escaping @Sendable (Meter, repeat each A) -> Void
) throws(HookError) -> HookToken {
  try Meter.hook(before: selector, in: cls, body)
}

@Suite("Typed hooks of one to three arguments")
struct FixedArityHookTests {
  /// Whether the hook `token` installed reads its arguments with their own types: the overload
  /// the compiler chose.
  func readsFixedArity(_ token: HookToken) -> Bool { token.entry.body.readsFixedArity }

  @Test("before hooks of one, two and three arguments see what the variadic form sees")
  func beforeHooksAgree() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let seen = Journal()
    let tokens = [
      try Narrow.hook(before: "negated:", in: cls) { (_, value: Int8) in seen.note("1 \(value)") },
      try variadicBefore("negated:", in: cls) { (_, value: Int8) in seen.note("1v \(value)") },
      try Narrow.hook(before: "choose:flag:", in: cls) { (_, value: Int32, flag: Bool) in
        seen.note("2 \(value) \(flag)")
      },
      try variadicBefore("choose:flag:", in: cls) { (_, value: Int32, flag: Bool) in
        seen.note("2v \(value) \(flag)")
      },
      try Narrow.hook(before: "sum:b:c:", in: cls) { (_, a: Int, b: Int, c: Int) in
        seen.note("3 \(a) \(b) \(c)")
      },
      try variadicBefore("sum:b:c:", in: cls) { (_, a: Int, b: Int, c: Int) in
        seen.note("3v \(a) \(b) \(c)")
      },
    ]
    defer { for token in tokens { token.remove() } }
    #expect(tokens.map(readsFixedArity) == [true, false, true, false, true, false])
    #expect(object.negated(-5) == 5)
    #expect(object.choose(7, false) == -7)
    #expect(object.sum(1, -2, 30) == 29)
    let expected = ["1 -5", "1v -5", "2 7 false", "2v 7 false", "3 1 -2 30", "3v 1 -2 30"]
    #expect(seen.take() == expected)

    // With an untyped hook beside them, the calls are laid out as frames: both forms read
    // their arguments from the frame, and see the same.
    let untyped = ["negated:", "choose:flag:", "sum:b:c:"].map { selector in
      try? cls.hook(Selector(selector), position: .after) { _ in }
    }
    defer { for token in untyped { token?.remove() } }
    #expect(untyped.allSatisfy { $0 != nil })
    #expect(object.negated(-5) == 5)
    #expect(object.choose(7, false) == -7)
    #expect(object.sum(1, -2, 30) == 29)
    #expect(seen.take() == expected)
  }

  @Test("an object argument of another class skips a fixed-arity observer as a variadic one")
  func objectChecksAgree() throws {
    let cls = freshMeterClass("FixedArityCheck")
    let calculator = meter(of: cls)
    let seen = Journal()
    let fixed = try Meter.hook(before: "echo:", in: cls) { (_, object: Meter?) in
      seen.note("fixed \(object == nil ? "nil" : "meter")")
    }
    let variadic = try variadicMeterBefore("echo:", in: cls) { (_, object: Meter?) in
      seen.note("variadic \(object == nil ? "nil" : "meter")")
    }
    defer {
      fixed.remove()
      variadic.remove()
    }
    #expect(readsFixedArity(fixed) && !readsFixedArity(variadic))
    let plain = ObjCObject()
    let (echoed, warnings) = Diagnostics.collecting(kind: .hookSkipped) {
      calculator.sendEcho(plain)
    }
    #expect(echoed === plain)
    #expect(seen.take().isEmpty, "both skipped: the argument is not a Meter")
    #expect(warnings.filter { $0.method?.className == cls.name }.count == 2)
    #expect(calculator.sendEcho(calculator) === calculator)
    #expect(calculator.sendEcho(nil) == nil)
    #expect(seen.take() == ["fixed meter", "variadic meter", "fixed nil", "variadic nil"])
  }

  @Test("per-object after hooks of two arguments run for their object only, as variadic ones do")
  func objectAfterHooksAgree() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    let other = Narrow.make(cls)
    let seen = Journal()
    let fixed = try object.hook(after: "choose:flag:") { (_, value: Int32, flag: Bool) in
      seen.note("fixed \(value) \(flag)")
    }
    let variadic = try variadicAfter("choose:flag:", on: object) {
      (_, value: Int32, flag: Bool) in seen.note("variadic \(value) \(flag)")
    }
    defer {
      fixed.remove()
      variadic.remove()
    }
    #expect(readsFixedArity(fixed) && !readsFixedArity(variadic))
    #expect(object.choose(3, true) == 3)
    #expect(other.choose(4, true) == 4)
    #expect(seen.take() == ["fixed 3 true", "variadic 3 true"])
  }

  @Test("instead hooks of three arguments change arguments and result as the variadic form does")
  func insteadHooksAgree() throws {
    let cls = Narrow.freshClass()
    let object = Narrow.make(cls)
    // The newest hook is outermost: the variadic one doubles what the fixed one returns, and
    // the fixed one adds 1 to the first argument it is passed.
    let fixed = try Narrow.hook(instead: "sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      original(a + 1, b, c)
    }
    let variadic = try variadicInstead("sum:b:c:", in: cls) {
      (original: HookOriginal<Int, Int, Int, Int>, _, a: Int, b: Int, c: Int) in
      original(a, b * 10, c) * 2
    }
    #expect(readsFixedArity(fixed) && !readsFixedArity(variadic))
    #expect(object.sum(1, 2, 3) == ((1 + 1) + 20 + 3) * 2)
    variadic.remove()
    #expect(object.sum(1, 2, 3) == (1 + 1) + 2 + 3)
    fixed.remove()
    #expect(object.sum(1, 2, 3) == 6)
  }

  @Test("class methods' before, instead and after hooks of one argument take the fixed forms")
  func classMethodForms() throws {
    // Meter's +tripled: is hooked by the hook matrix's suite too, which may run meanwhile: this
    // test only checks which overload each form chose, and removes its hooks unrun.
    let before = try Meter.hookClassMethod(before: "tripled:") { (_: Class, _: Int) in }
    let after = try Meter.hookClassMethod(after: "tripled:") { (_: Class, _: Int) in }
    let instead = try Meter.hookClassMethod(instead: "tripled:") {
      (original: HookOriginal<Int, Int>, _: Class, value: Int) in original(value)
    }
    let replacing = try Meter.hookClassMethod(after: "tripled:", returning: Int.self) {
      (_: Class, result: Int, _: Int) in result
    }
    defer { for token in [before, after, instead, replacing] { token.remove() } }
    #expect([before, after, instead].allSatisfy(readsFixedArity))
    #expect(!readsFixedArity(replacing), "a result replacer has no fixed-arity form")
  }
}
