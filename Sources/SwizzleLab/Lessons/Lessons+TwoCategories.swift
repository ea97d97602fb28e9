// Lesson: two categories that define one method: the last attached wins, and the class's own
// implementation is lost to sends.
import ObjCRuntime

extension Lessons {
  static let twoCategories = Lesson(
    name: "two-categories", title: "Two categories, one method: the last one wins",
    narration: [
      "A category adds methods to a class that exists. When the runtime attaches it (objc4's "
        + "loader does, for each image it loads), its methods go in front of the class's own, "
        + "so a send finds them first, even for a selector the class already has: the category "
        + "overrides the method, and the class's code is no longer reached.",
      "Two libraries that each bring a category defining -title: the one attached last wins, "
        + "and which is last depends on the order the images load. Apple's documentation "
        + "warns that the behaviour is then undefined. Neither category can call the original "
        + "with a send: there is no super to reach within one class. The shadowed methods are "
        + "still in the class's list, and walking it is the only way back to them.",
    ],
    code: LessonSources.twoCategories,
    file: "Sources/SwizzleLab/Lessons/Lessons+TwoCategories.swift",
    traced: ["title"],
    moral: [
      "Never define a method in a category that the class (or another category) defines: the "
        + "winner is an accident of load order, and the original is lost. Prefix category "
        + "methods (xxx_title) and swizzle to wrap the original instead."
    ]
  ) {
    // lesson code: twoCategories
    let title: @convention(c) (id, SEL) -> Void = { _, _ in
      say("  the class's own title")
    }
    let analytics: @convention(c) (id, SEL) -> Void = { _, _ in
      say("  the Analytics category's title")
    }
    let theme: @convention(c) (id, SEL) -> Void = { _, _ in
      say("  the Theme category's title")
    }
    let page = try makeClass("Page")
    class_addMethod(page, "title", try IMP(title), "v@:")
    try objc_msgSend(new(page), "title") as Void

    // Two libraries' images load; each brings a category on Page.
    let fromAnalytics = CategoryMethod("title", try IMP(analytics), "v@:")
    let fromTheme = CategoryMethod("title", try IMP(theme), "v@:")
    try page.attachCategory("Analytics", methods: [fromAnalytics])
    try page.attachCategory("Theme", methods: [fromTheme])
    try objc_msgSend(new(page), "title") as Void

    // The list has all three, newest first: only walking it reaches them.
    let titles = class_copyMethodList(page).filter { $0.selector == "title" }
    say("Page's list has \(titles.count) methods named title; the last one:")
    typealias Title = @convention(c) (id, SEL) -> Void
    let imp = titles.last!.implementation!
    let original = unsafeBitCast(imp.rawValue, to: Title.self)
    withExtendedLifetime(new(page)) { object in
      original(object.passUnretained(), Selector("title").sel)
    }
    // end of lesson code
  }
}
