// Lesson: the inherited-method bug. A naive exchange on a subclass that only inherits the method
// changes the superclass's method, so every sibling runs the swizzled code (and, sending a
// selector only the subclass has, fails); class_addMethod first, then replace, changes only the
// subclass.
import ObjCRuntime

extension Lessons {
  static let inheritedMethod = Lesson(
    name: "inherited-method", title: "The inherited-method bug, and the safe pattern",
    narration: [
      "Sub wants to log every greet. It adds swz_greet, whose code logs and then sends "
        + "swz_greet, which after the exchange reaches the original. The naive swizzle "
        + "exchanges the two Methods class_getInstanceMethod returns. But Sub only inherits "
        + "greet: class_getInstanceMethod(Sub, greet) is Base's very Method, so the exchange "
        + "rewrites Base, and Sibling, which never asked for anything, runs the swizzled code.",
      "The safe pattern first tries class_addMethod(Sub, greet, swizzled IMP): it succeeds "
        + "only when Sub has no greet of its own, and gives Sub one. Then class_replaceMethod "
        + "points Sub's swz_greet at the original IMP. Base and Sibling are untouched.",
    ],
    code: LessonSources.inheritedMethod,
    file: "Sources/SwizzleLab/Lessons/Lessons+InheritedMethod.swift",
    traced: ["greet", "swz_greet"],
    moral: [
      "Swizzle with class_addMethod first, as the seeds do. The safe pattern still copies "
        + "the superclass's IMP of the moment into swz_greet: a swizzle of Base made later "
        + "never reaches Sub. The hook framework adds a method to Sub that asks Base for its "
        + "current implementation on every call instead (Docs/Hooks.md, section 3)."
    ]
  ) {
    // lesson code: inheritedMethod
    let greet: @convention(c) (id, SEL) -> Void = { _, cmd in
      say("  Base's greet runs (as \(Selector(cmd)))")
    }
    let loggingGreet: @convention(c) (id, SEL) -> Void = { me, _ in
      say("  the log line, then send swz_greet")
      do {
        try objc_msgSend(me.takeUnretainedObject(), "swz_greet") as Void
      } catch {
        say("  \(error)")
      }
    }
    let base = try makeClass("Base")
    let sub = try makeClass("Sub", superclass: base)
    let sibling = try makeClass("Sibling", superclass: base)
    class_addMethod(base, "greet", try IMP(greet), "v@:")
    class_addMethod(sub, "swz_greet", try IMP(loggingGreet), "v@:")

    say("The naive exchange, on Sub, which only inherits greet:")
    let original = class_getInstanceMethod(sub, "greet")!  // Base's!
    let swizzled = class_getInstanceMethod(sub, "swz_greet")!
    method_exchangeImplementations(original, swizzled)
    try objc_msgSend(new(sub), "greet") as Void
    try objc_msgSend(new(sibling), "greet") as Void  // changed too
    method_exchangeImplementations(original, swizzled)  // undone

    say("The safe pattern: add greet to Sub, then replace swz_greet:")
    let added = class_addMethod(
      sub, "greet", method_getImplementation(swizzled), "v@:")
    if added {
      class_replaceMethod(
        sub, "swz_greet", method_getImplementation(original), "v@:")
    } else {
      method_exchangeImplementations(original, swizzled)
    }
    try objc_msgSend(new(sub), "greet") as Void
    try objc_msgSend(new(sibling), "greet") as Void  // Base's, as before
    // end of lesson code
  }
}
