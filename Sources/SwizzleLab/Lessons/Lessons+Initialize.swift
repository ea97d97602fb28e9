// Lesson: +initialize and +load. When each runs, superclass first, the subclass without its own
// initialize that runs its superclass's again, and SelfAware as Linux's +load.
import ObjCRuntime

extension Lessons {
  static let initializeAndLoad = Lesson(
    name: "initialize-and-load", title: "+initialize and +load",
    narration: [
      "Objective-C gives a class two chances to run code of its own. +load runs when the "
        + "image holding the class is loaded, before main, for every class and category that "
        + "implements it: the seeds swizzle there, because nothing else can have messaged the "
        + "class yet. +initialize runs later and lazily, just before the first message to the "
        + "class or one of its instances, superclasses first, once per class.",
      "+initialize is an ordinary class method, found through the tables. A class without "
        + "its own inherits its superclass's, which then runs a second time, for the "
        + "subclass; that is why Objective-C code checks self == [MyClass class] inside it.",
    ],
    code: LessonSources.initializeAndLoad,
    file: "Sources/SwizzleLab/Lessons/Lessons+Initialize.swift",
    traced: ["initialize"],
    moral: [
      "Swift has no +load, and Linux no Objective-C runtime to call one. SwizzleKit's "
        + "SelfAware stands in: a class adopting it has its awake() called once, found by "
        + "scanning the loaded images at launch (and when a library is loaded), with no "
        + "registration list (Docs/Hooks.md, section 8). +initialize works as in objc4: "
        + "override class func initialize(), or add an initialize method to a metaclass; "
        + "hooking it is possible, but a hook installed after the class was initialized "
        + "never runs."
    ]
  ) {
    // lesson code: initializeAndLoad
    let initialize: @convention(c) (id, SEL) -> Void = { me, _ in
      let cls = me.takeUnretainedObject(as: Class.self)!
      say("  +[Base initialize] runs, for \(cls.name)")
    }
    let ping: @convention(c) (id, SEL) -> Void = { _, _ in }
    let base = try makeClass("Base")
    let sub = try makeClass("Sub", superclass: base)
    let other = try makeClass("Other", superclass: base)
    let meta = object_getClass(base)  // class methods live in the metaclass
    class_addMethod(meta, "initialize", try IMP(initialize), "v@:")
    class_addMethod(base, "ping", try IMP(ping), "v@:")

    let object = new(sub)  // making an object sends no message
    say("before any message, Sub initialized: \(sub.isInitialized)")
    try objc_msgSend(object, "ping") as Void  // the first message
    say("after [sub ping]: Base \(base.isInitialized)")
    say("                  Sub \(sub.isInitialized)")
    try objc_msgSend(object, "ping") as Void  // once per class
    say("Other, never messaged, initialized: \(other.isInitialized)")
    // end of lesson code
  }
}
