// Lesson: class methods live on the metaclass, so a class method is swizzled there.
import ObjCRuntime

extension Lessons {
  static let classMethods = Lesson(
    name: "class-methods", title: "Class methods are swizzled on the metaclass",
    narration: [
      "A class method (+shared) is an instance method of the class's metaclass, the class of "
        + "the class object: object_getClass(Store) is where +shared lives. "
        + "class_getInstanceMethod(Store, shared) looks among the instances' methods and finds "
        + "nothing, so an exchange of what it returns exchanges nothing (it is given nil, and "
        + "does nothing, as objc4's does).",
      "class_getClassMethod, or class_getInstanceMethod on the metaclass, finds it; exchange "
        + "those and the class message runs the swizzled code. NSHipster's \"Method "
        + "Swizzling\" says the same: for a class method, use object_getClass(self).",
    ],
    code: LessonSources.classMethods,
    file: "Sources/SwizzleLab/Lessons/Lessons+ClassMethods.swift",
    traced: ["shared", "swz_shared"],
    moral: [
      "Class methods are on the metaclass: look them up with class_getClassMethod, or add and "
        + "exchange them on object_getClass(cls). An exchange of nil Methods does nothing, "
        + "silently: check what the lookup returned."
    ]
  ) {
    // lesson code: classMethods
    let shared: @convention(c) (id, SEL) -> Int = { _, _ in
      say("  +[Store shared] runs")
      return 1
    }
    let loggingShared: @convention(c) (id, SEL) -> Int = { me, _ in
      say("  the swizzled +shared logs, then sends swz_shared")
      let store = me.takeUnretainedObject()
      return (try? objc_msgSend(store, "swz_shared") as Int) ?? -1
    }
    let store = try makeClass("Store")
    let meta = object_getClass(store)!  // the metaclass: +methods live here
    class_addMethod(meta, "shared", try IMP(shared), "q@:")
    class_addMethod(meta, "swz_shared", try IMP(loggingShared), "q@:")

    let onClass = class_getInstanceMethod(store, "shared")
    say("On the class: \(String(describing: onClass))")
    method_exchangeImplementations(
      class_getInstanceMethod(store, "shared"),
      class_getInstanceMethod(store, "swz_shared"))  // nil and nil: nothing
    _ = try objc_msgSend(store, "shared") as Int

    say("On the metaclass: \(class_getClassMethod(store, "shared")!)")
    method_exchangeImplementations(
      class_getClassMethod(store, "shared"),
      class_getClassMethod(store, "swz_shared"))
    _ = try objc_msgSend(store, "shared") as Int
    // end of lesson code
  }
}
