// Ports of objc4's forward tests and libobjc2's Forward.m / SuperMethodMissing.m: the chain a
// message nothing answers goes through, in order, and where it ends.
import ObjCRuntime
import Synchronization
import Testing

/// Records the forwarding steps an object goes through.
private final class StepLog: Sendable {
  private let steps = RuntimeLock<[String]>([])
  func record(_ step: String) { steps.withLock { $0.append(step) } }
  var all: [String] { steps.withLock { $0 } }
}

private let adder: @convention(c) (id, SEL, Int, Int) -> Int = { _, _, a, b in a + b }
private let fortyTwo: @convention(c) (id, SEL) -> Int = { _, _ in 42 }

/// The target forwarded messages end up at.
private final class RealCalculator: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(RealCalculator.self) {
      ObjCMethodDeclaration("add:to:", adder)
    }
  }
}

/// Resolves `lazyValue` on first use, and counts how often it was asked.
private final class Lazy: ObjCObject {
  static let resolutions = Atomic(0)

  override class func resolveInstanceMethod(_ selector: Selector) -> Bool {
    guard selector == "lazyValue" else { return false }
    resolutions.add(1, ordering: .relaxed)
    class_addMethod(Lazy.runtimeClass, selector, try? IMP(fortyTwo), "q@:")
    return true
  }

  override class func resolveClassMethod(_ selector: Selector) -> Bool {
    guard selector == "lazyFactory" else { return false }
    class_addMethod(object_getClass(Lazy.runtimeClass), selector, try? IMP(fortyTwo), "q@:")
    return true
  }
}

/// Walks the whole chain and records each step; answers nothing unless told to.
private final class Chain: ObjCObject {
  let log = StepLog()
  var target: ObjCObject?
  var signature: MethodSignature?
  var answer: Int?
  var forwardTo: ObjCObject?

  override func forwardingTarget(for selector: Selector) -> ObjCObject? {
    log.record("forwardingTarget(\(selector))")
    return target
  }

  override func methodSignature(for selector: Selector) -> MethodSignature? {
    log.record("methodSignature(\(selector))")
    return signature ?? super.methodSignature(for: selector)
  }

  override func forwardInvocation(_ invocation: Invocation) {
    log.record("forwardInvocation(\(invocation.selector))")
    if let forwardTo {
      // Change the arguments on the way, then send it on.
      try? invocation.setArgument(100, at: 3)
      try? invocation.invoke(target: forwardTo)
    } else if let answer {
      try? invocation.setReturnValue(answer)
    } else {
      super.forwardInvocation(invocation)
    }
  }

  override func doesNotRecognizeSelector(_ selector: Selector) throws(ObjCRuntimeError) -> Never {
    log.record("doesNotRecognizeSelector(\(selector))")
    try super.doesNotRecognizeSelector(selector)
  }
}

private final class ChainSub: ObjCObject {}

@Suite("Message forwarding")
struct ForwardingTests {
  @Test("resolveInstanceMethod adds the method once; the second send hits the cache")
  func resolveInstanceMethod() throws {
    let lazy = Lazy()
    let before = Lazy.resolutions.load(ordering: .relaxed)
    #expect(try objc_msgSend(lazy, "lazyValue") as Int == 42)
    #expect(try objc_msgSend(lazy, "lazyValue") as Int == 42)
    // The first send resolved and added the method; the second found it in the cache.
    #expect(Lazy.resolutions.load(ordering: .relaxed) - before == 1)
    #expect(lazy.responds(to: "lazyValue"))
  }

  @Test("resolveClassMethod answers class messages")
  func resolveClassMethod() throws {
    #expect(try objc_msgSend(Lazy.runtimeClass, "lazyFactory") as Int == 42)
  }

  @Test("forwardingTarget re-sends the message to another object with its arguments intact")
  func forwardingTarget() throws {
    let chain = Chain()
    chain.target = RealCalculator()
    #expect(try objc_msgSend(chain, "add:to:", 2, 3) as Int == 5)
    #expect(chain.log.all == ["forwardingTarget(add:to:)"])
  }

  @Test("forwardInvocation can change the arguments and send the invocation on")
  func forwardInvocationRedirects() throws {
    let chain = Chain()
    chain.signature = try MethodSignature(types: "q@:qq")
    chain.forwardTo = RealCalculator()
    #expect(try objc_msgSend(chain, "add:to:", 2, 3) as Int == 102)
    #expect(
      chain.log.all == [
        "forwardingTarget(add:to:)", "methodSignature(add:to:)", "forwardInvocation(add:to:)",
      ])
  }

  @Test("forwardInvocation can answer the message itself")
  func forwardInvocationAnswers() throws {
    let chain = Chain()
    chain.signature = try MethodSignature(types: "q@:")
    chain.answer = 7
    #expect(try objc_msgSend(chain, "anything") as Int == 7)
  }

  @Test("the chain runs in Foundation's order and ends in doesNotRecognizeSelector")
  func fullChainOrder() {
    let chain = Chain()
    chain.signature = try? MethodSignature(types: "v@:")
    #expect(
      throws: ObjCRuntimeError.unrecognizedSelector(
        MethodReference(className: "Chain", selectorName: "missing"))
    ) {
      try objc_msgSend(chain, "missing") as Void
    }
    #expect(
      chain.log.all == [
        "forwardingTarget(missing)", "methodSignature(missing)", "forwardInvocation(missing)",
        "doesNotRecognizeSelector(missing)",
      ])
  }

  @Test("without a signature the chain skips forwardInvocation")
  func noSignature() {
    let chain = Chain()
    #expect(throws: ObjCRuntimeError.self) { try objc_msgSend(chain, "missing") as Void }
    #expect(
      chain.log.all == [
        "forwardingTarget(missing)", "methodSignature(missing)",
        "doesNotRecognizeSelector(missing)",
      ])
  }

  @Test("a signature that disagrees with the call is refused before anything is invoked")
  func signatureDisagrees() {
    let chain = Chain()
    chain.signature = try? MethodSignature(types: "d@:")
    chain.answer = 1
    #expect(throws: ObjCRuntimeError.self) { try objc_msgSend(chain, "value") as Int }
    #expect(!chain.log.all.contains("forwardInvocation(value)"))
  }

  @Test("[super x] with no superclass implementation forwards with the right receiver and selector")
  func superMethodMissing() {
    let chain = Chain()
    chain.target = RealCalculator()
    let result =
      try? objc_msgSendSuper(
        ObjCSuper(receiver: chain, superclass: ObjCObject.runtimeClass), "add:to:", 20, 22) as Int
    #expect(result == 42)
    #expect(chain.log.all == ["forwardingTarget(add:to:)"])
  }

  @Test("an unknown class message names +[Class selector]")
  func unknownClassMessage() {
    #expect(
      throws: ObjCRuntimeError.unrecognizedSelector(
        MethodReference(className: "ChainSub", selectorName: "make", isClassMethod: true))
    ) {
      try objc_msgSend(ChainSub.runtimeClass, "make") as Int
    }
  }

  @Test("Aspects' technique: an IMP set to _objc_msgForward lands in a swizzled forwardInvocation:")
  func aspectsStyle() throws {
    let cls = makeClass("AspectsTarget", methods: [("value", Constant.one)])
    let object = instance(of: cls)
    let method = try #require(class_getInstanceMethod(cls, "value"))
    // Keep the original under an alias, send the method into forwarding, and handle it there.
    class_addMethod(cls, "aspects__value", method_getImplementation(method), "q@:")
    method_setImplementation(method, IMP.forward)
    let handler: @convention(c) (id, SEL, id?) -> Void = { me, _, invocation in
      guard let invocation = invocation?.takeUnretainedObject(as: Invocation.self) else { return }
      invocation.selector = "aspects__value"
      try? invocation.invoke(target: me.takeUnretainedObject())
      let original = (try? invocation.returnValue(as: Int.self)) ?? 0
      try? invocation.setReturnValue(original + 1000)
    }
    class_replaceMethod(cls, "forwardInvocation:", try IMP(handler), "v@:@")
    #expect(sendTwice(object, "value") == [1001, 1001])
  }

  @Test(
    "_objc_msgForward called directly forwards, as objc4's does: a swizzle on top of Aspects reaches its handler"
  )
  func directForwardCall() throws {
    let scaled: @convention(c) (id, SEL, Int, Double) -> Int = { _, _, count, factor in
      Int(Double(count) * factor)
    }
    let cls = makeClass("DirectForwardTarget", methods: [])
    class_addMethod(cls, "scaled:by:", try IMP(scaled), "q@:qd")
    let method = try #require(class_getInstanceMethod(cls, "scaled:by:"))
    // Aspects' step: the original under an alias, the method sent into forwarding.
    class_addMethod(cls, "aspects__scaled:by:", method_getImplementation(method), "q@:qd")
    method_setImplementation(method, IMP.forward)
    let handler: @convention(c) (id, SEL, id?) -> Void = { me, _, invocation in
      guard let invocation = invocation?.takeUnretainedObject(as: Invocation.self) else { return }
      invocation.selector = "aspects__scaled:by:"
      try? invocation.invoke(target: me.takeUnretainedObject())
      let original = (try? invocation.returnValue(as: Int.self)) ?? 0
      try? invocation.setReturnValue(original + 1000)
    }
    class_replaceMethod(cls, "forwardInvocation:", try IMP(handler), "v@:@")
    // A swizzle after it keeps "the original", which is the forward IMP, and calls it.
    let previous = method_getImplementation(method)
    #expect(previous == IMP.forward)
    typealias Scaled = @convention(c) (id, SEL, Int, Double) -> Int
    let kept = unsafeBitCast(try #require(previous).rawValue, to: Scaled.self)
    let object = instance(of: cls)
    let result = withExtendedLifetime(object) {
      kept(object.passUnretained(), Selector("scaled:by:").sel, 3, 2.5)
    }
    #expect(result == 1007, "the alias ran with both arguments, and the handler added 1000")
  }
}

@Suite("Invocation")
struct InvocationTests {
  @Test("an invocation made from a target and selector can be filled, invoked and read")
  func buildAndInvoke() throws {
    let invocation = try Invocation(target: RealCalculator(), selector: "add:to:")
    #expect(invocation.methodSignature.numberOfArguments == 4)
    try invocation.setArgument(40, at: 2)
    try invocation.setArgument(2, at: 3)
    #expect(try invocation.argument(at: 2, as: Int.self) == 40)
    try invocation.invoke()
    #expect(try invocation.returnValue(as: Int.self) == 42)
  }

  @Test("wrong types and out-of-range indexes are errors, not garbage")
  func typeChecks() throws {
    let invocation = try Invocation(target: RealCalculator(), selector: "add:to:")
    #expect(throws: ObjCRuntimeError.self) { try invocation.setArgument(1.5, at: 2) }
    #expect(throws: ObjCRuntimeError.self) { try invocation.setArgument(1, at: 4) }
    #expect(throws: ObjCRuntimeError.self) { try invocation.argument(at: 0, as: Int.self) }
    #expect(throws: ObjCRuntimeError.self) { try invocation.returnValue(as: Double.self) }
    #expect(throws: ObjCRuntimeError.self) {
      try Invocation(target: RealCalculator(), selector: "missing")
    }
  }

  @Test("method signatures describe their encoding")
  func signatures() throws {
    let signature = try MethodSignature(types: "v24@0:8@16")
    #expect(signature.numberOfArguments == 3)
    #expect(signature.methodReturnType == "v")
    #expect(signature.argumentType(at: 2) == "@")
    #expect(signature.argumentType(at: 3) == nil)
    #expect(throws: ObjCRuntimeError.self) { try MethodSignature(types: "v") }
  }
}

/// The worked example of Docs/Runtime.md, section 4.
private final class LoggingProxy: ObjCObject {
  let target: ObjCObject
  let log = StepLog()
  init(target: ObjCObject) {
    self.target = target
    super.init()
  }

  override func methodSignature(for selector: Selector) -> MethodSignature? {
    target.objcClass.instanceMethod(for: selector).map(MethodSignature.init)
  }

  override func forwardInvocation(_ invocation: Invocation) {
    log.record("-> \(invocation.selector)")
    try? invocation.invoke(target: target)
  }
}

@Suite("Forwarding proxy")
struct ForwardingProxyTests {
  @Test("the logging proxy of the documentation forwards and logs")
  func loggingProxy() throws {
    let proxy = LoggingProxy(target: RealCalculator())
    let total: Int = try objc_msgSend(proxy, "add:to:", 2, 3)
    #expect(total == 5)
    #expect(proxy.log.all == ["-> add:to:"])
  }
}
