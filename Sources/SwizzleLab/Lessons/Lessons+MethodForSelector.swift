// Lesson: an IMP taken once with `methodForSelector:` and called directly, and the swizzle it
// then does not see.
import ObjCRuntime

extension Lessons {
  static let methodForSelector = Lesson(
    name: "method-for-selector", title: "An IMP kept, and the swizzle it misses",
    narration: [
      "A hot loop can skip the lookup: -methodForSelector: (method(for:) here) returns the "
        + "implementation a send would run now, and the loop calls that C function directly, "
        + "passing self and _cmd itself. Apple's Objective-C Runtime Programming Guide shows "
        + "it as the way to avoid messaging.",
      "The IMP is a plain function pointer, taken once. Swizzle the method afterwards and sends "
        + "run the new code, while the kept pointer keeps calling the old one: no runtime "
        + "event reaches it.",
    ],
    code: LessonSources.methodForSelector,
    file: "Sources/SwizzleLab/Lessons/Lessons+MethodForSelector.swift",
    traced: [],
    moral: [
      "A swizzle changes the method table, and only calls that go through the table see it. "
        + "An IMP someone kept (methodForSelector:, a cached function pointer, a block that "
        + "captured it) runs the old code: swizzle before anyone takes one, as +load does."
    ]
  ) {
    // lesson code: methodForSelector
    let count: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
    let counted: @convention(c) (id, SEL) -> Int = { _, _ in 2 }
    let odometer = try makeClass("Odometer")
    class_addMethod(odometer, "count", try IMP(count), "q@:")
    let object = new(odometer)

    // Take the IMP once, as a hot loop does, and call it as a C function.
    typealias Count = @convention(c) (id, SEL) -> Int
    let kept = object.method(for: "count")
    let direct = unsafeBitCast(kept.rawValue, to: Count.self)
    func report(_ when: String) throws {
      let sent = try objc_msgSend(object, "count") as Int
      let called = direct(object.passUnretained(), Selector("count").sel)
      say("\(when): sent \(sent), called through the kept IMP \(called)")
    }
    try report("before")
    method_setImplementation(
      class_getInstanceMethod(odometer, "count"), try IMP(counted))
    try report("after the swizzle")
    // end of lesson code
  }
}
