// Lesson: associated objects: the five policies, why ASSIGN is not weak, and `_cmd` as a key.
import ObjCRuntime

extension Lessons {
  static let associatedObjects = Lesson(
    name: "associated-objects", title: "Associated objects: policies, ASSIGN, and _cmd as a key",
    narration: [
      "A category cannot add an instance variable, so it stores its state beside the object: "
        + "objc_setAssociatedObject(object, key, value, policy). The policy says how the value "
        + "is held: RETAIN and RETAIN_NONATOMIC keep a strong reference, COPY and "
        + "COPY_NONATOMIC store a copy (so a later change to the original is not seen), and "
        + "ASSIGN keeps the pointer without retaining it. The value goes when the object goes.",
      "ASSIGN is not weak. In objc4 nothing clears the pointer when its object is freed: the "
        + "next read returns the dead object's address, and using it crashes, or worse. This "
        + "runtime cannot hand out a freed object in Swift, so it holds ASSIGN weakly and the "
        + "read returns nil; the lesson prints what each runtime gives.",
      "The key is an address. A static variable's address is the usual one; a selector is "
        + "another, and a getter that keys by its own _cmd pairs with a setter that stores "
        + "under @selector(getter). (After an exchange _cmd is another selector: see the "
        + "lesson cmd-after-exchange.)",
    ],
    code: LessonSources.associatedObjects,
    file: "Sources/SwizzleLab/Lessons/Lessons+AssociatedObjects.swift",
    traced: [],
    moral: [
      "Use RETAIN_NONATOMIC for objects, COPY for values that can change under you, and never "
        + "ASSIGN for an object that can die first: it dangles on iOS. Key by a static "
        + "variable's address (or a selector written out), not by _cmd."
    ]
  ) {
    // lesson code: associatedObjects
    final class Badge: ObjCObject, ObjCCopying {
      var text: String
      init(_ text: String) { self.text = text }
      func copy() -> AnyObject { Badge(text) }
      deinit { say("  a badge '\(text)' is freed") }
    }
    let card = new(try makeClass("Card"))
    let kept = Selector("kept")
    let copied = Selector("copied")
    let assigned = Selector("assigned")

    let badge = Badge("new")
    let retain = objc_AssociationPolicy.OBJC_ASSOCIATION_RETAIN_NONATOMIC
    let copy = objc_AssociationPolicy.OBJC_ASSOCIATION_COPY_NONATOMIC
    objc_setAssociatedObject(card, kept, badge, retain)
    objc_setAssociatedObject(card, copied, badge, copy)
    badge.text = "changed"
    func read(_ key: Selector) -> String {
      (objc_getAssociatedObject(card, key) as? Badge)?.text ?? "nil"
    }
    say("retained: \(read(kept)), copied: \(read(copied))")

    do {
      let shortLived = Badge("short-lived")
      let policy = objc_AssociationPolicy.OBJC_ASSOCIATION_ASSIGN
      objc_setAssociatedObject(card, assigned, shortLived, policy)
      withExtendedLifetime(shortLived) {
        say("assigned, while it lives: \(read(assigned))")
      }
    }
    say("assigned, after it died: \(read(assigned)) (objc4: dangling)")

    // _cmd as a key: the getter reads under its own selector.
    let getter: @convention(c) (id, SEL) -> Int = { me, cmd in
      let object = me.takeUnretainedObject()
      return objc_getAssociatedObject(object, Selector(cmd)) as? Int ?? 0
    }
    class_addMethod(object_getClass(card), "level", try IMP(getter), "q@:")
    let level = Selector("level")
    objc_setAssociatedObject(card, level, 3, retain)
    say("level, read under _cmd: \(try objc_msgSend(card, "level") as Int)")
    // end of lesson code
  }
}
