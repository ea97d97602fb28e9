import Hooks
import ObjCRuntime
import Testing

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

@Suite("Typed hooks of one to three arguments")
struct FixedArityHookTests {
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
    #expect(object.negated(-5) == 5)
    #expect(object.choose(7, false) == -7)
    #expect(object.sum(1, -2, 30) == 29)
    #expect(
      seen.take() == [
        "1 -5", "1v -5", "2 7 false", "2v 7 false", "3 1 -2 30", "3v 1 -2 30",
      ])
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
    #expect(object.sum(1, 2, 3) == ((1 + 1) + 20 + 3) * 2)
    variadic.remove()
    #expect(object.sum(1, 2, 3) == (1 + 1) + 2 + 3)
    fixed.remove()
    #expect(object.sum(1, 2, 3) == 6)
  }
}
