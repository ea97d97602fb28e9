// Lesson: the coexistence matrix in small: a `_cmd` checker (a profiler) meets a category
// exchange, in both orders.
import ObjCRuntime

extension Lessons {
  static let cmdChecker = Lesson(
    name: "cmd-checker", title: "A profiler that checks _cmd meets an exchange",
    narration: [
      "Profilers and analytics SDKs wrap many methods with one function: it is installed with "
        + "method_setImplementation, keeps each original in a table keyed by selector, and "
        + "when called looks its original up by _cmd. New Relic's did; with Aspects installed "
        + "it crashed (Aspects issue 21), as did others beside analytics SDKs that exchange "
        + "(Instabug-iOS 440, mixpanel-iphone 495).",
      "Installed after the exchange, the checker is the outermost layer and always sees the "
        + "selector it wrapped. Installed before, it ends up under the exchange, which reaches "
        + "it by sending swz_tap: the checker gets swz_tap as _cmd, finds no original under "
        + "that name, and (this one records instead of crashing) cannot call on. swizzle-lab "
        + "coexist runs every pair of techniques this way.",
    ],
    code: LessonSources.cmdChecker,
    file: "Sources/SwizzleLab/Lessons/Lessons+CmdChecker.swift",
    traced: [],
    moral: [
      "Two swizzles of one method are only as safe as their assumptions about each other: an "
        + "exchange changes _cmd for everything under it. Code that keys by _cmd must run "
        + "outermost, or key by something an exchange cannot rename."
    ]
  ) {
    // lesson code: cmdChecker
    let tap: @convention(c) (id, SEL) -> Void = { _, cmd in
      say("    the original tap (as \(Selector(cmd)))")
    }
    let loggingTap: @convention(c) (id, SEL) -> Void = { me, _ in
      say("    the analytics SDK logs, then sends swz_tap")
      try? objc_msgSend(me.takeUnretainedObject(), "swz_tap") as Void
    }
    // The profiler: one function for every method, its originals by selector
    // (kept on the class: a C function has no state).
    let checker: @convention(c) (id, SEL) -> Void = { me, cmd in
      let object = me.takeUnretainedObject()
      let table = objc_getAssociatedObject(object_getClass(object), "originals")
      let originals = table as? [Selector: IMP] ?? [:]
      guard let original = originals[Selector(cmd)] else {
        return say("    the profiler: no original for \(Selector(cmd)): crash")
      }
      say("    the profiler times \(Selector(cmd))")
      typealias Tap = @convention(c) (id, SEL) -> Void
      unsafeBitCast(original.rawValue, to: Tap.self)(me, cmd)
    }
    func button(_ name: String) throws -> Class {
      let cls = try makeClass(name)
      class_addMethod(cls, "tap", try IMP(tap), "v@:")
      class_addMethod(cls, "swz_tap", try IMP(loggingTap), "v@:")
      return cls
    }
    func exchange(_ cls: Class) {
      method_exchangeImplementations(
        class_getInstanceMethod(cls, "tap"),
        class_getInstanceMethod(cls, "swz_tap"))
    }
    func profile(_ cls: Class) throws {
      let method = class_getInstanceMethod(cls, "tap")
      let original = method_setImplementation(method, try IMP(checker))!
      let originals: [Selector: IMP] = ["tap": original]
      let policy = objc_AssociationPolicy.OBJC_ASSOCIATION_RETAIN
      objc_setAssociatedObject(cls, "originals", originals, policy)
    }

    say("The exchange, then the profiler:")
    let first = try button("Button")
    exchange(first)
    try profile(first)
    try objc_msgSend(new(first), "tap") as Void

    say("The profiler, then the exchange:")
    let second = try button("OtherButton")
    try profile(second)
    exchange(second)
    try objc_msgSend(new(second), "tap") as Void
    // end of lesson code
  }
}
