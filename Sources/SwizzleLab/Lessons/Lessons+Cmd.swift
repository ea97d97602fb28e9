// Lesson: `_cmd` after an exchange. The original implementation runs under the swizzled
// selector, so a getter that keys its associated object by `_cmd` stops finding its value.
import ObjCRuntime

extension Lessons {
  static let cmdAfterExchange = Lesson(
    name: "cmd-after-exchange", title: "_cmd after an exchange",
    narration: [
      "Every method receives its own selector as the hidden argument _cmd. Some categories "
        + "use it as the key of an associated object: the getter reads "
        + "objc_getAssociatedObject(self, _cmd), and the setter stores under @selector(tag), "
        + "the same selector, so the pair works.",
      "Exchange tag with swz_tag and the original getter now runs when swz_tag is sent, as "
        + "swz_tag's code sends it: its _cmd is swz_tag, it looks under the wrong key, and the "
        + "value seems gone, though nothing removed it.",
    ],
    code: LessonSources.cmdAfterExchange, file: "Sources/SwizzleLab/Lessons/Lessons+Cmd.swift",
    traced: ["tag", "swz_tag"],
    moral: [
      "An implementation must not assume _cmd names the method it was written for: after "
        + "an exchange it is the other selector. Key associations by a constant (a selector "
        + "written out, or a static key's address), never by _cmd."
    ]
  ) {
    // lesson code: cmdAfterExchange
    let tag: @convention(c) (id, SEL) -> Int = { me, cmd in
      let key = Selector(cmd)  // the seed's key: _cmd
      say("  the getter looks under \(key)")
      let value = objc_getAssociatedObject(me.takeUnretainedObject(), key)
      return value as? Int ?? 0
    }
    let loggingTag: @convention(c) (id, SEL) -> Int = { me, _ in
      say("  swz_tag logs, then sends swz_tag")
      let object = me.takeUnretainedObject()
      return (try? objc_msgSend(object, "swz_tag") as Int) ?? -1
    }
    let label = try makeClass("Label")
    class_addMethod(label, "tag", try IMP(tag), "q@:")
    class_addMethod(label, "swz_tag", try IMP(loggingTag), "q@:")
    let view = new(label)
    // The setter's side: stored under the getter's selector.
    objc_setAssociatedObject(
      view, Selector("tag"), 7, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)

    say("tag is \(try objc_msgSend(view, "tag") as Int)")
    method_exchangeImplementations(
      class_getInstanceMethod(label, "tag"),
      class_getInstanceMethod(label, "swz_tag"))
    say("after the exchange, tag is \(try objc_msgSend(view, "tag") as Int)")
    // end of lesson code
  }
}
