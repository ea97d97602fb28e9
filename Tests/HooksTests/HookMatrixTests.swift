// The matrix, as SwiftHook tests it: scope (class, object, class method) x position (before,
// instead, after) x signature (void, integer, double, object, struct).
import Hooks
import ObjCRuntime
import Testing

/// Where a matrix row installs its hook.
enum Scope: String, CaseIterable, CustomTestStringConvertible {
  case everyInstance, oneObject

  var testDescription: String { rawValue }
}

@Suite("Hook matrix")
struct HookMatrixTests {
  /// A fresh class, a hooked calculator and an unhooked one of the same class.
  private func subjects() -> (cls: Class, hooked: Meter, other: Meter) {
    let cls = freshMeterClass()
    return (cls, meter(of: cls), meter(of: cls))
  }

  @Test(
    "before, void result: the hook sees the argument, then the original runs",
    arguments: Scope.allCases)
  func beforeVoid(scope: Scope) throws {
    let (cls, hooked, other) = subjects()
    let journal = hooked.journal
    let body: @Sendable (Meter, Int) -> Void = { _, value in journal.note("before(\(value))") }
    let token =
      scope == .everyInstance
      ? try Meter.hook(before: "record:", in: cls, body)
      : try hooked.hook(before: "record:", body)
    hooked.sendRecord(7)
    #expect(journal.take() == ["before(7)", "record(7)"])
    other.sendRecord(8)
    #expect(other.journal.take() == ["record(8)"])
    #expect(journal.take() == (scope == .everyInstance ? ["before(8)"] : []))
    token.remove()
    hooked.sendRecord(9)
    #expect(journal.take() == ["record(9)"])
  }

  @Test(
    "after, integer result: the hook sees the result and replaces it", arguments: Scope.allCases)
  func afterInteger(scope: Scope) throws {
    let (cls, hooked, other) = subjects()
    let body: @Sendable (Meter, Int, Int) -> Int = { _, result, value in result + value }
    let token =
      scope == .everyInstance
      ? try Meter.hook(after: "scaled:", returning: Int.self, in: cls, body)
      : try hooked.hook(after: "scaled:", returning: Int.self, body)
    #expect(hooked.sendScaled(4) == 44)
    #expect(other.sendScaled(4) == (scope == .everyInstance ? 44 : 40))
    token.remove()
    #expect(hooked.sendScaled(4) == 40)
  }

  @Test(
    "instead, double: the hook calls the original with a changed argument",
    arguments: Scope.allCases)
  func insteadDouble(scope: Scope) throws {
    let (cls, hooked, _) = subjects()
    let body: @Sendable (HookOriginal<Double, Double>, Meter, Double) -> Double = {
      original, _, value in original(value * 4) + 0.25
    }
    let token =
      scope == .everyInstance
      ? try Meter.hook(instead: "half:", in: cls, body)
      : try hooked.hook(instead: "half:", body)
    #expect(hooked.sendHalf(3) == 6.25)
    token.remove()
    #expect(hooked.sendHalf(3) == 1.5)
  }

  @Test("instead, skipping the original: the hook's result is returned", arguments: Scope.allCases)
  func insteadSkips(scope: Scope) throws {
    let (cls, hooked, _) = subjects()
    let body: @Sendable (HookOriginal<Void, Int>, Meter, Int) -> Void = { _, me, value in
      me.journal.note("instead(\(value))")
    }
    let token =
      scope == .everyInstance
      ? try Meter.hook(instead: "record:", in: cls, body)
      : try hooked.hook(instead: "record:", body)
    hooked.sendRecord(3)
    #expect(hooked.journal.take() == ["instead(3)"])
    token.remove()
  }

  @Test(
    "after, object result: replacing it neither leaks nor frees too early",
    arguments: Scope.allCases)
  func afterObject(scope: Scope) throws {
    let (cls, hooked, _) = subjects()
    let replacement = Meter()
    let shared = Shared(value: replacement)
    let body: @Sendable (Meter, ObjCObject?, ObjCObject?) -> ObjCObject? = { _, _, _ in
      shared.value
    }
    weak var original: Meter?
    let token: HookToken
    do {
      let argument = Meter()
      original = argument
      token =
        scope == .everyInstance
        ? try Meter.hook(after: "echo:", returning: ObjCObject?.self, in: cls, body)
        : try hooked.hook(after: "echo:", returning: ObjCObject?.self, body)
      let answer = hooked.sendEcho(argument)
      #expect(answer === replacement)
    }
    #expect(original == nil, "the original result was released")
    token.remove()
    #expect(hooked.sendEcho(replacement) === replacement)
  }

  @Test("struct by value: before sees it, instead changes it", arguments: Scope.allCases)
  func structs(scope: Scope) throws {
    let (cls, hooked, _) = subjects()
    let journal = hooked.journal
    let before: @Sendable (Meter, Pair) -> Void = { _, pair in
      journal.note("\(pair.x),\(pair.y)")
    }
    let instead: @Sendable (HookOriginal<Pair, Pair>, Meter, Pair) -> Pair = {
      original, _, pair in
      original(Pair(x: pair.x * 10, y: pair.y * 10))
    }
    let tokens =
      scope == .everyInstance
      ? [
        try Meter.hook(before: "moved:", in: cls, before),
        try Meter.hook(instead: "moved:", in: cls, instead),
      ]
      : [try hooked.hook(before: "moved:", before), try hooked.hook(instead: "moved:", instead)]
    #expect(hooked.sendMoved(Pair(x: 1, y: 2))?.fields == [11, 22, 0, 0])
    #expect(journal.take() == ["1.0,2.0"])
    for token in tokens { token.remove() }
    #expect(hooked.sendMoved(Pair(x: 1, y: 2))?.fields == [2, 4, 0, 0])
  }

  @Test("class methods: before, instead and after on the metaclass")
  func classMethods() throws {
    let journal = Journal()
    let before = try Meter.hookClassMethod(before: "tripled:") { (cls: Class, value: Int) in
      journal.note("before \(cls.name) \(value)")
    }
    let instead = try Meter.hookClassMethod(instead: "tripled:") {
      (original: HookOriginal<Int, Int>, _: Class, value: Int) in original(value + 1)
    }
    let after = try Meter.hookClassMethod(after: "tripled:", returning: Int.self) {
      (_: Class, result: Int, _: Int) in result * 2
    }
    #expect((try objc_msgSend(Meter.runtimeClass, "tripled:", 4) as Int) == 30)
    #expect(journal.take() == ["before Meter 4"])
    for token in [before, instead, after] { token.remove() }
    #expect((try objc_msgSend(Meter.runtimeClass, "tripled:", 4) as Int) == 12)
  }
}
