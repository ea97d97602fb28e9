// Lesson: swizzling twice undoes it. Why the seeds wrap the exchange in dispatch_once or a
// `static let`: an exchange run an even number of times leaves the methods as they were, and
// threads that each swizzle may do exactly that.
import Dispatch
import ObjCRuntime

extension Lessons {
  static let swizzleTwice = Lesson(
    name: "swizzle-twice", title: "Swizzling twice undoes it",
    narration: [
      "method_exchangeImplementations swaps two IMPs. Run it again and it swaps them back. "
        + "A category whose +load swizzles, loaded twice (two copies of a library), or a "
        + "swizzle called from two places, leaves the method unswizzled, with no error.",
      "Threads make it worse: an even number of threads that each swizzle undoes it, an odd "
        + "number leaves it, and code rarely knows how many will call. The seeds wrap the "
        + "exchange in dispatch_once; SwizzleKit's plugins install through a static let, which "
        + "Swift initializes exactly once, whichever threads race. (The threads' exchanges run "
        + "on other threads: the trace leaves them out, the printed lines show the result.)",
    ],
    code: LessonSources.swizzleTwice,
    file: "Sources/SwizzleLab/Lessons/Lessons+SwizzleTwice.swift",
    traced: ["run"],
    moral: [
      "Make a swizzle idempotent: once per process (dispatch_once, a static let, or "
        + "PluginRegistry.install, which runs a plugin's install() once), never once per "
        + "call site."
    ]
  ) {
    // lesson code: swizzleTwice
    let run: @convention(c) (id, SEL) -> Void = { _, _ in
      say("  the original run")
    }
    let loggingRun: @convention(c) (id, SEL) -> Void = { me, _ in
      say("  the swizzled run, then the original:")
      try? objc_msgSend(me.takeUnretainedObject(), "swz_run") as Void
    }
    let task = try makeClass("Task")
    class_addMethod(task, "run", try IMP(run), "v@:")
    class_addMethod(task, "swz_run", try IMP(loggingRun), "v@:")
    let original = class_getInstanceMethod(task, "run")!
    let swizzled = class_getInstanceMethod(task, "swz_run")!
    let swizzle: @Sendable () -> Void = {
      method_exchangeImplementations(original, swizzled)
    }

    swizzle()  // a library's +load
    swizzle()  // the same +load, from a second copy of the library
    try objc_msgSend(new(task), "run") as Void

    // Eight threads, each swizzling once: an even count undoes it.
    let group = DispatchGroup()
    for _ in 0..<8 {
      DispatchQueue.global().async(group: group) { swizzle() }
    }
    group.wait()
    say("after eight threads swizzled:")
    try objc_msgSend(new(task), "run") as Void

    // What dispatch_once and a static let do: the first caller swizzles,
    // the others find it done.
    let once = RuntimeLock(false)  // a lock ThreadSanitizer can check
    for _ in 0..<8 {
      DispatchQueue.global().async(group: group) {
        once.withLock { done in
          if !done { swizzle() }
          done = true
        }
      }
    }
    group.wait()
    say("after eight threads swizzled once, together:")
    try objc_msgSend(new(task), "run") as Void
    // end of lesson code
  }
}
