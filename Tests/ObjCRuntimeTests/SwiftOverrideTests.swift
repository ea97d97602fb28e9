// How Swift overrides, methods added at run time, class swizzles and isa-swizzling interleave.
import ObjCRuntime
import Testing

/// A UIViewController-like base: `viewWillAppear:` has a base IMP and a Swift entry point.
private class OverrideScreen: ObjCObject {
  let log = RuntimeLock<[String]>([])

  static let viewWillAppear: Selector = "viewWillAppear:"

  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(OverrideScreen.self) {
      ObjCMethodDeclaration(
        "viewWillAppear:", OverrideScreen.baseIMP, swiftEntry: OverrideScreen.entryIMP)
    }
  }

  /// The base behaviour, as the method table holds it.
  static let baseIMP: @convention(c) (id, SEL, Bool) -> Void = { me, _, animated in
    me.takeUnretainedObject(as: OverrideScreen.self)?.record("base(\(animated))")
  }

  /// The entry point: a send of viewWillAppear: calls the Swift method, virtually.
  static let entryIMP: @convention(c) (id, SEL, Bool) -> Void = { me, _, animated in
    me.takeUnretainedObject(as: OverrideScreen.self)?.viewWillAppear(animated)
  }

  /// The Swift entry point: its base body continues into the method table.
  func viewWillAppear(_ animated: Bool) {
    do {
      try sendToTable(OverrideScreen.viewWillAppear, animated)
    } catch {
      record("error: \(error)")
    }
  }

  /// The same entry point in the form a UIKit-model setter uses: the selector kept in a
  /// `SelectorReference`, a failure reported rather than thrown.
  static let viewWillAppearReference = SelectorReference("viewWillAppear:")
  func viewWillAppearReporting(_ animated: Bool) {
    sendToTableReportingFailure(OverrideScreen.viewWillAppearReference, animated)
  }

  /// An entry point whose method nothing implements.
  static let missingReference = SelectorReference("screenMissingMethod:")
  func callMissing() {
    sendToTableReportingFailure(OverrideScreen.missingReference, 1)
  }

  func record(_ entry: String) {
    log.withLock { $0.append(entry) }
  }

  var entries: [String] {
    log.withLock { value in
      defer { value.removeAll() }
      return value
    }
  }
}

/// A Swift subclass overriding the entry point and calling super.
private final class ProfileScreen: OverrideScreen {
  override func viewWillAppear(_ animated: Bool) {
    record("profile")
    super.viewWillAppear(animated)
  }
}

/// A subclass that does not override it.
private final class PlainScreen: OverrideScreen {}

/// `wr_viewWillAppear:`, the swizzled implementation of the seeds: log, then call the original
/// through the swapped selector.
private let swizzledIMP: @convention(c) (id, SEL, Bool) -> Void = { me, _, animated in
  let screen = me.takeUnretainedObject(as: OverrideScreen.self)
  screen?.record("swizzled")
  do {
    try objc_msgSend(me.takeUnretainedObject(), "wr_viewWillAppear:", animated) as Void
  } catch {
    screen?.record("error: \(error)")
  }
}

private let dynamicIMP: @convention(c) (id, SEL, Bool) -> Void = { me, _, animated in
  let screen = me.takeUnretainedObject(as: OverrideScreen.self)
  screen?.record("dynamic")
  let superclass = class_getSuperclass(object_getClass(me.takeUnretainedObject()))!
  try? objc_msgSendSuper(
    ObjCSuper(receiver: screen!, superclass: superclass), "viewWillAppear:", animated)
    as Void
}

/// Swizzles viewWillAppear: of `cls` with the safe pattern, once per process for each class.
private let swizzleOnce: Void = {
  let imp = try! IMP(swizzledIMP)
  class_addMethod(OverrideScreen.runtimeClass, "wr_viewWillAppear:", imp, "v@:B")
  try! OverrideScreen.runtimeClass.swizzleInstanceMethod(
    "viewWillAppear:", with: "wr_viewWillAppear:")
}()

@Suite("Swift overrides and the dynamic table", .serialized)
struct SwiftOverrideTests {
  init() {
    _ = swizzleOnce
  }

  @Test("a swizzle of the base method runs when a Swift override calls super, called from Swift")
  func swiftCallReachesSwizzle() {
    let screen = ProfileScreen()
    screen.viewWillAppear(true)
    #expect(screen.entries == ["profile", "swizzled", "base(true)"])
  }

  @Test("a send does not skip the Swift override, and reaches the swizzle through super")
  func sendRunsOverride() throws {
    let screen = ProfileScreen()
    try objc_msgSend(screen, "viewWillAppear:", false) as Void
    #expect(screen.entries == ["profile", "swizzled", "base(false)"])
    try objc_msgSend(screen, "viewWillAppear:", false) as Void
    #expect(screen.entries == ["profile", "swizzled", "base(false)"])
  }

  @Test("without an override, Swift calls and sends both go straight to the table")
  func noOverride() throws {
    let screen = PlainScreen()
    screen.viewWillAppear(true)
    #expect(screen.entries == ["swizzled", "base(true)"])
    try objc_msgSend(screen, "viewWillAppear:", true) as Void
    #expect(screen.entries == ["swizzled", "base(true)"])
  }

  @Test("responds(to:) sees entry-point methods and runtime-added methods alike")
  func respondsToBoth() {
    let screen = ProfileScreen()
    #expect(screen.responds(to: "viewWillAppear:"))
    #expect(screen.responds(to: "wr_viewWillAppear:"))
    #expect(!screen.responds(to: "viewDidAppear:"))
  }

  @Test("class_getMethodImplementation returns the table's IMP, never the entry point")
  func implementationIsTheTables() {
    let imp = class_getMethodImplementation(ProfileScreen.runtimeClass, "viewWillAppear:")
    #expect(
      imp
        == method_getImplementation(
          class_getInstanceMethod(OverrideScreen.runtimeClass, "viewWillAppear:"))
    )
    #expect(imp == (try? IMP(swizzledIMP)))
  }

  @Test("a per-instance subclass's method runs inside the Swift override, for this object only")
  func isaSwizzledInstance() throws {
    let hooked = ProfileScreen()
    let other = ProfileScreen()
    let dynamic = try #require(
      objc_allocateClassPair(ProfileScreen.runtimeClass, UniqueName.make("ProfileScreen_Dyn"), 0))
    class_addMethod(dynamic, "viewWillAppear:", try IMP(dynamicIMP), "v@:B")
    objc_registerClassPair(dynamic)
    try hooked.setClass(dynamic)

    hooked.viewWillAppear(true)
    #expect(hooked.entries == ["profile", "dynamic", "swizzled", "base(true)"])
    try objc_msgSend(hooked, "viewWillAppear:", true) as Void
    #expect(hooked.entries == ["profile", "dynamic", "swizzled", "base(true)"])
    other.viewWillAppear(true)
    #expect(other.entries == ["profile", "swizzled", "base(true)"])
  }

  @Test("an entry point sending through a selector reference reaches the swizzle too")
  func referenceFormReachesSwizzle() {
    let screen = PlainScreen()
    screen.viewWillAppearReporting(false)
    screen.viewWillAppearReporting(true)
    #expect(screen.entries == ["swizzled", "base(false)", "swizzled", "base(true)"])
  }

  @Test("the reporting form turns a failure into a warning naming the selector, and does nothing")
  func reportingFormWarns() {
    let screen = PlainScreen()
    let (_, diagnostics) = Diagnostics.collecting(kind: .failedSend) {
      screen.callMissing()
      screen.callMissing()
    }
    let mine = diagnostics.filter { $0.method?.selectorName == "screenMissingMethod:" }
    #expect(mine.count == 2)
    #expect(mine.first?.method?.className == "PlainScreen")
    #expect(screen.entries.isEmpty)
  }

  @Test("objc_msgSendSuper reads tables only, so calling super from an IMP cannot loop")
  func superSendSkipsEntries() throws {
    let screen = ProfileScreen()
    try objc_msgSendSuper(
      ObjCSuper(receiver: screen, superclass: OverrideScreen.runtimeClass), "viewWillAppear:", true)
      as Void
    #expect(screen.entries == ["swizzled", "base(true)"])
  }
}
