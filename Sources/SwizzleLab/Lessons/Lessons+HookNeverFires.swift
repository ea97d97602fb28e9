// Lesson: "your hook will never fire": a call that does not go through the method table.
import Hooks
import ObjCRuntime

extension Lessons {
  static let hookNeverFires = Lesson(
    name: "hook-never-fires", title: "Your hook will never fire: calls around the table",
    narration: [
      "A hook, like every swizzle, changes the method table, so it runs only for calls that "
        + "look the method up there: sends. On iOS a Swift method marked @objc but not "
        + "dynamic is called directly by Swift code, never through objc_msgSend; hook it and "
        + "calls from Objective-C fire the hook while calls from Swift do not (Aspects issue "
        + "59, NSHipster's articles issue 372).",
      "Here the same happens to any implementation called as a function rather than sent. The "
        + "hook map tells hooks that fired from those that never did (and swizzle-lab hooks "
        + "--scenario NAME lists the ones a run never reached).",
    ],
    code: LessonSources.hookNeverFires,
    file: "Sources/SwizzleLab/Lessons/Lessons+HookNeverFires.swift",
    traced: ["refresh"],
    moral: [
      "A hook fires for sends only. If it never fires, look at how the method is called: on "
        + "iOS mark Swift methods you swizzle `@objc dynamic`; here, send them "
        + "(objc_msgSend), or hook the method the call does go through."
    ]
  ) {
    // lesson code: hookNeverFires
    let refresh: @convention(c) (id, SEL) -> Void = { _, _ in
      say("  refresh runs")
    }
    let feed = try makeClass("Feed")
    class_addMethod(feed, "refresh", try IMP(refresh), "v@:")
    let token = try feed.hook("refresh", position: .before) { _ in
      say("  the hook fires")
    }
    let object = new(feed)

    say("Called directly, as Swift calls a method that is not dynamic:")
    refresh(object.passUnretained(), Selector("refresh").sel)
    let unfired = PluginRegistry.shared.hookMap.hooksNeverFired
    say("never fired: \(unfired.filter { $0.contains("Feed") })")

    say("Sent:")
    try objc_msgSend(object, "refresh") as Void
    say("fired: \(token.hasFired)")
    token.remove()
    // end of lesson code
  }
}
