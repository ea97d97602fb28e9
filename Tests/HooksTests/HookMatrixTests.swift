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

/// The full matrix's scopes: the two instance scopes and class methods.
enum MatrixScope: String, CaseIterable, CustomTestStringConvertible {
  case classWide, oneObject, classMethod

  var testDescription: String { rawValue }
}

/// The signatures of the full matrix.
enum MatrixSignature: String, CaseIterable, CustomTestStringConvertible {
  case void, integer, double, object, structure

  var testDescription: String { rawValue }

  var selector: Selector {
    switch self {
    case .void: "record:"
    case .integer: "scaled:"
    case .double: "half:"
    case .object: "echo:"
    case .structure: "moved:"
    }
  }
}

/// A receiver of the matrix (an instance, or a class object for class methods) and a way to
/// call each signature on it through the runtime, returning what the call returned as text.
struct MatrixSubject {
  let receiver: ObjCObject
  let echoed = Meter()

  func call(_ signature: MatrixSignature) throws -> String {
    switch signature {
    case .void:
      try objc_msgSend(receiver, "record:", 5) as Void
      return "void"
    case .integer: return "\(try objc_msgSend(receiver, "scaled:", 5) as Int)"
    case .double: return "\(try objc_msgSend(receiver, "half:", 5.0) as Double)"
    case .object:
      let answer: ObjCObject? = try objc_msgSend(receiver, "echo:", echoed)
      return answer === echoed ? "same" : "other"
    case .structure:
      let invocation = try Invocation(target: receiver, selector: "moved:")
      try invocation.setArgument(Pair(x: 5, y: 5), at: 2)
      try invocation.invoke()
      return "\(try invocation.returnValue(as: Pair.self).fields)"
    }
  }
}

@Suite("Hook matrix")
struct HookMatrixTests {
  /// A class with its own copy of every matrix method, as instance and as class methods.
  private func matrixClass() throws -> Class {
    let cls = freshMeterClass("Matrix")
    for signature in MatrixSignature.allCases {
      let method = try #require(class_getInstanceMethod(Meter.runtimeClass, signature.selector))
      class_addMethod(
        object_getClass(cls), signature.selector, method.implementation!, method.typeEncoding)
    }
    return cls
  }

  @Test(
    "scope x position x signature: each hook runs where it should, and removal restores",
    arguments: MatrixScope.allCases, [HookPosition.before, .instead, .after])
  func matrix(scope: MatrixScope, position: HookPosition) throws {
    for signature in MatrixSignature.allCases {
      let cls = try matrixClass()
      let subject = MatrixSubject(
        receiver: scope == .classMethod ? cls : meter(of: cls))
      let plain = try subject.call(signature)
      let ran = Journal()
      let body: @Sendable (HookInvocation) -> Void = { invocation in
        ran.note("\(invocation.position)")
        if invocation.position == .instead { invocation.invokeOriginal() }
      }
      let token: HookToken
      switch scope {
      case .classWide:
        token = try Meter.hook(signature.selector, position: position, in: cls, body)
      case .oneObject:
        token = try (subject.receiver as! Meter).hook(signature.selector, position: position, body)
      case .classMethod:
        token = try object_getClass(cls)!.hook(signature.selector, position: position, body)
      }
      #expect(try subject.call(signature) == plain, "\(signature): the hook passes the result on")
      #expect(ran.take() == ["\(position)"], "\(signature): the hook ran once")
      if scope == .oneObject {
        let other = MatrixSubject(receiver: meter(of: cls))
        _ = try other.call(signature)
        #expect(ran.take().isEmpty, "\(signature): another object is not hooked")
      }
      token.remove()
      #expect(try subject.call(signature) == plain)
      #expect(ran.take().isEmpty, "\(signature): removed")
    }
  }

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
