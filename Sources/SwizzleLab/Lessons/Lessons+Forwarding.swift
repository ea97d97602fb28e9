// Lesson: message forwarding. A message nothing implements goes down four steps, each itself a
// message: resolve, a forwarding target, a forwarded invocation, the final error.
import ObjCRuntime

extension Lessons {
  static let forwarding = Lesson(
    name: "forwarding", title: "Message forwarding, step by step",
    narration: [
      "When a send finds no method, objc4 does not give up at once. It asks the class to "
        + "add one (+resolveInstanceMethod:), then the object for another object to take the "
        + "message (-forwardingTargetForSelector:), then for the message's types "
        + "(-methodSignatureForSelector:) so that it can hand the whole call over as an "
        + "invocation (-forwardInvocation:). Only then -doesNotRecognizeSelector: ends it.",
      "Each step is a method in the tables like any other, so a class made at run time "
        + "answers them with class_addMethod, as here. Desk answers one message at each "
        + "step, and none for sing.",
    ],
    code: LessonSources.forwarding, file: "Sources/SwizzleLab/Lessons/Lessons+Forwarding.swift",
    traced: [
      "resolveInstanceMethod:", "forwardingTargetForSelector:", "methodSignatureForSelector:",
      "forwardInvocation:",
    ],
    moral: [
      "Aspects hooks through the last step: it points a method's IMP at _objc_msgForward "
        + "(IMP.forward here) so that every call arrives in forwardInvocation: as an "
        + "invocation. In objc4 the end is an exception that usually ends the process; here "
        + "the send throws unrecognizedSelector, naming -[Desk sing]."
    ]
  ) {
    // lesson code: forwarding
    let resolve: @convention(c) (id, SEL, SEL) -> Bool = { _, _, name in
      guard Selector(name) == "openDoor" else { return false }
      say("  1. +resolveInstanceMethod: adds openDoor")
      let opens: @convention(c) (id, SEL) -> Void = { _, _ in
        say("  the added openDoor runs")
      }
      let imp = try? IMP(opens)
      return class_addMethod(objc_getClass("Desk"), "openDoor", imp, "v@:")
    }
    let target: @convention(c) (id, SEL, SEL) -> id? = { me, _, name in
      guard Selector(name) == "bookRoom" else { return nil }
      say("  2. -forwardingTargetForSelector: names the assistant")
      let desk = me.takeUnretainedObject()
      let key = Selector("assistant")
      let assistant = objc_getAssociatedObject(desk, key) as? ObjCObject
      return assistant?.passRetained()
    }
    let types: @convention(c) (id, SEL, SEL) -> id? = { _, _, name in
      guard Selector(name) == "takeMessage" else { return nil }
      return (try? MethodSignature(types: "v@:"))?.passRetained()
    }
    let forward: @convention(c) (id, SEL, id?) -> Void = { _, _, call in
      let invocation = call?.takeUnretainedObject(as: Invocation.self)
      say("  3. -forwardInvocation: gets \(invocation!.selector)")
    }
    let books: @convention(c) (id, SEL) -> Void = { _, _ in
      say("  the assistant's bookRoom runs")
    }
    let desk = try makeClass("Desk")
    let helper = try makeClass("Assistant")
    let meta = object_getClass(desk)
    class_addMethod(meta, "resolveInstanceMethod:", try IMP(resolve), "B@::")
    class_addMethod(
      desk, "forwardingTargetForSelector:", try IMP(target), "@@::")
    class_addMethod(desk, "methodSignatureForSelector:", try IMP(types), "@@::")
    class_addMethod(desk, "forwardInvocation:", try IMP(forward), "v@:@")
    class_addMethod(helper, "bookRoom", try IMP(books), "v@:")
    let front = new(desk)
    objc_setAssociatedObject(
      front, Selector("assistant"), new(helper),
      .OBJC_ASSOCIATION_RETAIN_NONATOMIC)

    for message in ["openDoor", "bookRoom", "takeMessage", "sing"] {
      say("[desk \(message)]")
      do {
        try objc_msgSend(front, Selector(message)) as Void
      } catch {
        say("  4. the end: \(error)")
      }
    }
    // end of lesson code
  }
}
