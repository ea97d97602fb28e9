// Lesson: lookup and caches. A first send misses and fills the cache of the class it started
// at; the second hits; adding a method flushes; an exchange flushes nothing here, where objc4
// flushes every cache holding either IMP.
import ObjCRuntime

extension Lessons {
  static let lookupAndCaches = Lesson(
    name: "lookup-and-caches", title: "A send looks up once, then hits the cache",
    narration: [
      "A message send finds the method to run by walking the receiver's class and its "
        + "superclasses. That walk is slow, so objc_msgSend keeps a cache per class: the "
        + "first send of a selector misses, walks, and stores what it found in the cache of "
        + "the class it started at, even when the method belongs to a superclass. Every "
        + "later send of that selector to that class is a hit.",
      "A change that could make a cached answer wrong must empty (flush) caches. Here Dog "
        + "inherits speak from Animal, and we watch Dog's cache as we send, add a method and "
        + "exchange two.",
    ],
    code: LessonSources.lookupAndCaches, file: "Sources/SwizzleLab/Lessons/Lessons+Caches.swift",
    traced: [], showsFlushes: true,
    moral: [
      "SwizzleKit caches the Method a lookup found, and a send reads the method's IMP each "
        + "time. So an exchange or method_setImplementation flushes nothing: the cached "
        + "method already answers with its new IMP. objc4 caches the IMP itself, so its "
        + "method_exchangeImplementations must flush every class whose cache holds either "
        + "IMP. Both are correct; ours makes an exchange cost the same with 10 or 10,000 "
        + "classes. Adding a method flushes in both: a cached superclass method is now the "
        + "wrong answer."
    ]
  ) {
    // lesson code: lookupAndCaches
    let animalSpeaks: @convention(c) (id, SEL) -> Void = { _, _ in
      say("  Animal's speak runs")
    }
    let dogSpeaks: @convention(c) (id, SEL) -> Void = { _, _ in
      say("  Dog's speak runs")
    }
    let animal = try makeClass("Animal")
    let dog = try makeClass("Dog", superclass: animal)
    class_addMethod(animal, "speak", try IMP(animalSpeaks), "v@:")
    let rex = new(dog)

    func cache() -> String {
      dog.cachedMethod(for: "speak").map { "\($0)" } ?? "nothing"
    }
    say("before any send, Dog's cache holds \(cache())")
    try objc_msgSend(rex, "speak") as Void  // a miss: the lookup walks
    say("after the first send, Dog's cache holds \(cache())")
    try objc_msgSend(rex, "speak") as Void  // a hit: no walk

    class_addMethod(dog, "speak", try IMP(dogSpeaks), "v@:")
    say("after class_addMethod on Dog: \(cache())")
    try objc_msgSend(rex, "speak") as Void
    say("after the next send: \(cache())")

    method_exchangeImplementations(
      class_getInstanceMethod(dog, "speak"),
      class_getInstanceMethod(animal, "speak"))
    say("after the exchange, still \(cache())")
    try objc_msgSend(rex, "speak") as Void  // the cached method, new IMP
    // end of lesson code
  }
}
