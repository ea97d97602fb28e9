// Lesson: hooks versus exchange. The same change (a log line before `appear`) made by an
// exchange and by a hook, and what the hook map and the trace show for each.
import Hooks
import ObjCRuntime

extension Lessons {
  static let hooksVersusExchange = Lesson(
    name: "hooks-vs-exchange", title: "The same change, as an exchange and as a hook",
    narration: [
      "An exchange needs a second method (swz_appear) whose code calls itself to reach the "
        + "original, and it changes the class for every caller until it is exchanged back. A "
        + "hook says what to run and where (before, instead, after); the hook framework puts "
        + "an interceptor in front of the method, runs the hooks in order, then the original, "
        + "and a token removes the hook alone.",
      "Both are made on Screen below; the hook map lists each method that was changed, with "
        + "its layers in call order.",
    ],
    code: LessonSources.hooksVersusExchange,
    file: "Sources/SwizzleLab/Lessons/Lessons+HooksVersusExchange.swift",
    traced: ["appear", "swz_appear"],
    moral: [
      "An exchange is visible only as two swapped IMPs: a second library exchanging the "
        + "same method, or exchanging it back, silently undoes the first. Hooks stack, each "
        + "with its owner, and come off one by one; the hook map (swizzle-lab hooks) shows "
        + "them and the exchanges beside them."
    ]
  ) {
    // lesson code: hooksVersusExchange
    let appear: @convention(c) (id, SEL) -> Void = { _, _ in
      say("  Screen's appear")
    }
    let loggingAppear: @convention(c) (id, SEL) -> Void = { me, _ in
      say("  log: appearing (exchange)")
      try? objc_msgSend(me.takeUnretainedObject(), "swz_appear") as Void
    }
    let screen = try makeClass("Screen")
    class_addMethod(screen, "appear", try IMP(appear), "v@:")
    class_addMethod(screen, "swz_appear", try IMP(loggingAppear), "v@:")

    say("With an exchange:")
    method_exchangeImplementations(
      class_getInstanceMethod(screen, "appear"),
      class_getInstanceMethod(screen, "swz_appear"))
    try objc_msgSend(new(screen), "appear") as Void

    say("And a hook before it, on top:")
    let token = try screen.hook("appear", position: .before) { _ in
      say("  log: appearing (hook)")
    }
    try objc_msgSend(new(screen), "appear") as Void
    for entry in PluginRegistry.shared.hookMap.entries
    where entry.method.className == "Screen" {
      let layers = entry.layers.map(\.kind).joined(separator: ", ")
      say("hook map: \(entry.method): \(layers), original")
    }
    token.remove()
    say("The hook removed, the exchange stays:")
    try objc_msgSend(new(screen), "appear") as Void
    // end of lesson code
  }
}
