// Lesson: the dangers of swizzling, shown: two steps that are not atomic, two libraries' names
// that collide, and a call that looks recursive.
import ObjCRuntime

extension Lessons {
  static let dangers = Lesson(
    name: "dangers", title: "The dangers: not atomic, name collisions, false recursion",
    narration: [
      "The answer to \"What are the dangers of method swizzling in Objective-C?\" on Stack "
        + "Overflow lists them; three are shown here. Not atomic: the safe pattern is two "
        + "steps (add the method, then replace the other), and a call between them finds the "
        + "swizzled code under both selectors, so its [self swz_title] calls itself. The "
        + "lesson makes that call between the steps itself; another thread can, at any "
        + "moment, unless the swizzle runs in +load, before any other code.",
      "Names collide: two libraries that each add xxx_title to one class. The second's "
        + "class_addMethod fails (the name is taken) and its exchange then swaps the original "
        + "back: the first library's code is gone, and the second's never ran.",
      "It looks recursive: swz_title sends swz_title, which is the original once exchanged. "
        + "Called before the exchange, it really is recursive.",
    ],
    code: LessonSources.dangers,
    file: "Sources/SwizzleLab/Lessons/Lessons+Dangers.swift",
    traced: ["title", "swz_title"],
    moral: [
      "Swizzle in +load (or behind dispatch_once, before other threads start), prefix your "
        + "methods with a name nobody else uses, and never call the swizzled method yourself "
        + "before the exchange. The lab stops each call below after a few turns; a real loop "
        + "runs until the stack overflows."
    ]
  ) {
    // lesson code: dangers
    let title: @convention(c) (id, SEL) -> Void = { _, _ in
      say("    the original title")
    }
    let loggingTitle: @convention(c) (id, SEL) -> Void = { me, _ in
      // How deep the calls are, kept on the object (a C function has no state).
      let object = me.takeUnretainedObject()
      let policy = objc_AssociationPolicy.OBJC_ASSOCIATION_RETAIN_NONATOMIC
      let turn = (objc_getAssociatedObject(object, "turn") as? Int ?? 0) + 1
      objc_setAssociatedObject(object, "turn", turn, policy)
      defer { objc_setAssociatedObject(object, "turn", turn - 1, policy) }
      guard turn <= 3 else {
        return say("    ... (stopped: it would go on forever)")
      }
      say("    swz_title (turn \(turn)), then [self swz_title]")
      try? objc_msgSend(object, "swz_title") as Void
    }

    say("1. A call between the two steps of the safe pattern:")
    let base = try makeClass("Base")
    let view = try makeClass("View", superclass: base)
    class_addMethod(base, "title", try IMP(title), "v@:")
    class_addMethod(view, "swz_title", try IMP(loggingTitle), "v@:")
    let original = class_getInstanceMethod(view, "title")!
    class_addMethod(view, "title", try IMP(loggingTitle), "v@:")  // step 1
    try objc_msgSend(new(view), "title") as Void  // another thread, now
    let originalIMP = method_getImplementation(original)
    class_replaceMethod(view, "swz_title", originalIMP, "v@:")  // step 2

    say("2. Two libraries, one name:")
    let label = try makeClass("Label")
    class_addMethod(label, "title", try IMP(title), "v@:")
    for library in ["first", "second"] {
      let imp = try IMP(loggingTitle)
      let added = class_addMethod(label, "swz_title", imp, "v@:")
      say("  the \(library) library's class_addMethod: \(added)")
      method_exchangeImplementations(
        class_getInstanceMethod(label, "title"),
        class_getInstanceMethod(label, "swz_title"))
    }
    try objc_msgSend(new(label), "title") as Void

    say("3. swz_title sent before the exchange:")
    let button = try makeClass("Button")
    class_addMethod(button, "title", try IMP(title), "v@:")
    class_addMethod(button, "swz_title", try IMP(loggingTitle), "v@:")
    try objc_msgSend(new(button), "swz_title") as Void
    // end of lesson code
  }
}
