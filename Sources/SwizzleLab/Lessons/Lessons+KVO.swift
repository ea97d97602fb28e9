// Lesson: isa-swizzling and key-value observing. An observer turns the object into an instance
// of a hidden subclass; `-class` lies; a hook on the same object stacks with it.
import Hooks
import ObjCRuntime

extension Lessons {
  static let isaSwizzlingAndKVO = Lesson(
    name: "isa-swizzling-and-kvo", title: "isa-swizzling: key-value observing and a hook",
    narration: [
      "Swizzling a method changes every instance of the class. To change one object, change "
        + "its class instead: make a subclass at run time, give it the methods, and point the "
        + "object's isa at it. Foundation's key-value observing works this way: the first "
        + "observer of an object turns it into an NSKVONotifying_ subclass whose setter "
        + "notifies around the original, and whose -class answers the old class, so nobody "
        + "sees the change.",
      "Aspects hooked single objects the same way, and crashed when KVO was there too: each "
        + "isa-swizzler must subclass whatever class the object has now, and give the class "
        + "back only if the object still has its own. Here an observer and a per-object hook "
        + "stack on one Gauge, and come off in the other order.",
    ],
    code: LessonSources.isaSwizzlingAndKVO, file: "Sources/SwizzleLab/Lessons/Lessons+KVO.swift",
    traced: ["setLevel:"],
    moral: [
      "object_getClass tells the truth (the isa); -class tells what the object wants to "
        + "show. Two isa-swizzlers coexist when each subclasses the current isa and restores "
        + "only its own: the observer, removed under the hook, left its class in place; the "
        + "hook gave the object back the observer's class, and the runtime, told that nobody "
        + "needs that class any more, passed the object on to Gauge (objc4 leaves it there, "
        + "notifying nobody)."
    ]
  ) {
    // lesson code: isaSwizzlingAndKVO
    final class Observer: ObjCObject {
      override func observeValue(
        forKeyPath keyPath: String, of object: ObjCObject,
        change: KeyValueChange, context: UnsafeMutableRawPointer?
      ) {
        let old = change.oldValue as? Int ?? 0
        let new = change.newValue as? Int ?? 0
        say("  observer: \(keyPath) \(old) -> \(new)")
      }
    }
    let setLevel: @convention(c) (id, SEL, Int) -> Void = { me, _, value in
      let key = Selector("level")
      objc_setAssociatedObject(
        me.takeUnretainedObject(), key, value, .OBJC_ASSOCIATION_RETAIN)
      say("  the original setLevel: stores \(value)")
    }
    let level: @convention(c) (id, SEL) -> Int = { me, _ in
      let value = objc_getAssociatedObject(me.takeUnretainedObject(), "level")
      return value as? Int ?? 0
    }
    let gauge = try makeClass("Gauge")
    class_addMethod(gauge, "setLevel:", try IMP(setLevel), "v@:q")
    class_addMethod(gauge, "level", try IMP(level), "q@:")
    let object = new(gauge)
    func classes() {
      let isa = object_getClass(object)!.name
      say("isa \(isa), -class \(object.objcClass.name)")
    }

    let observer = Observer()
    try object.addObserver(observer, forKeyPath: "level", options: [.old, .new])
    classes()
    try objc_msgSend(object, "setLevel:", 5) as Void

    let token = try object.hook(before: "setLevel:") { (_, value: Int) in
      say("  hook: setLevel: \(value)")
    }
    classes()
    try objc_msgSend(object, "setLevel:", 7) as Void

    try object.removeObserver(observer, forKeyPath: "level")
    classes()  // the hook's class is on top: the observer leaves it
    token.remove()
    classes()
    try objc_msgSend(object, "setLevel:", 9) as Void
    // end of lesson code
  }
}
