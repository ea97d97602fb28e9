import ObjCRuntime
import Testing

// The check for Swift methods that never run: members of extensions named as methods of the
// runtime's tables.
@testable import Hooks

/// A class whose table has methods named as UIKit names its own, added at run time.
private final class ShadowKettle: ObjCObject {
  static let prepared: Void = {
    let nothing = try! imp_implementationWithBlock { (_: ShadowKettle) in }
    let flag = try! imp_implementationWithBlock {
      (_: ShadowKettle, _: ObjCObject?, _: ObjCObject?) in true
    }
    let object = try! imp_implementationWithBlock { (_: ShadowKettle) -> ObjCObject? in nil }
    class_addMethod(ShadowKettle.self, "boil", nothing, "v@:")
    class_addMethod(ShadowKettle.self, "kettle:shouldPourCup:", flag, "B@:@@")
    class_addMethod(ShadowKettle.self, "nextKettle", object, "@@:")
    class_addMethod(
      ShadowKettle.self, "popKettleAnimated:",
      try! imp_implementationWithBlock { (_: ShadowKettle, _: Bool) in }, "v@:B")
  }()
}

@Suite("ShadowedMethods")
struct ShadowedMethodsTests {
  init() { ShadowKettle.prepared }

  @Test("a member named as a table method is listed, with its line and the method it shadows")
  func listsShadowingMembers() {
    let source = """
      import ObjCRuntime

      extension ShadowKettle {
        // the seed's habit: an override of a delegate method in an extension
        public func kettle(_ kettle: ShadowKettle, shouldPour cup: ObjCObject) -> Bool { false }
        var next: ShadowKettle? { nil }
        func popKettle(animated: Bool) {}
        func brew() {}
      }
      """
    let found = ShadowedMethods.find(inSource: source, file: "Kettle.swift")
    #expect(
      found.map { "\($0.line) \($0.swiftName) \($0.method)" } == [
        "5 kettle(_:shouldPour:) -[ShadowKettle kettle:shouldPourCup:]",
        "6 next -[ShadowKettle nextKettle]",
        "7 popKettle(animated:) -[ShadowKettle popKettleAnimated:]",
      ])
    #expect(
      found.first?.description.hasPrefix(
        "Kettle.swift:5: ShadowKettle.kettle(_:shouldPour:) never runs: sends of") == true)
    #expect(found.first?.method == "-[ShadowKettle kettle:shouldPourCup:]")
    #expect(found.first?.swiftName == "kettle(_:shouldPour:)")
  }

  @Test("a selector the file names in a string is its own business: hooked, exposed or replaced")
  func namedSelectorsAreLeftAlone() {
    let source = """
      extension ShadowKettle {
        func boil() {}
        static let setUp: Void = { _ = try? ShadowKettle.exposeMethod("boil", ShadowKettle.boil) }()
      }
      """
    #expect(ShadowedMethods.find(inSource: source, file: "F.swift").isEmpty)
  }

  @Test("an @objc member of a file written for iOS is in the table under its own name: it runs")
  func objcMembersRun() {
    let source = """
      extension ShadowKettle {
        @objc func boil() {}
        @objc public static func boil() {}
        func popKettle(animated: Bool) {}
      }
      """
    #expect(ShadowedMethods.find(inSource: source, file: "F.swift").map(\.line) == [4])
  }

  @Test("comments, strings, nested types, function bodies and other types are not members")
  func onlyMembersOfExtensionsOfRuntimeClasses() {
    let source = #"""
      /* extension ShadowKettle { func boil() {} } */
      let text = "extension ShadowKettle { func boil() {} }"
      extension ShadowKettle {
        final class Inner { func boil() {} }
        func helper() { func boil() {} }
      }
      extension NotARuntimeClass { func boil() {} }
      extension String { func boil() {} }
      """#
    #expect(ShadowedMethods.find(inSource: source, file: "F.swift").isEmpty)
  }

  @Test(
    "Swift names match selectors as UIKit's are imported",
    arguments: [
      ("navigationBar", [nil, "shouldPop"], "navigationBar:shouldPopItem:", true),
      ("popViewController", ["animated"], "popViewControllerAnimated:", true),
      ("viewWillAppear", [nil], "viewWillAppear:", true),
      ("next", [], "nextResponder", true),
      ("pushViewController", [nil, "animated"], "pushViewController:animated:", true),
      ("view", [], "viewWillAppear", false),
      ("pop", [nil], "popViewControllerAnimated:", false),
      ("push", [nil, "animated"], "pushViewController:", false),
      ("navigationBar", [nil, "should"], "navigationBar:shouldPopItem:", false),
      ("forwardingTarget", ["for"], "forwardingTargetForSelector:", true),
      ("bar", [], "barTintColor", false),
    ] as [(String, [String?], String, Bool)])
  func nameMatching(base: String, labels: [String?], selector: String, expected: Bool) {
    #expect(ShadowedMethods.matches(base, labels, selector: selector) == expected)
  }

  @Test("bad input gives no members and never traps: empty, unbalanced, unterminated")
  func badInput() {
    for source in [
      "", "extension", "extension ShadowKettle {", "}}}} extension {", "\"unterminated",
      "/* open comment", "extension ShadowKettle { func boil(", "extension ShadowKettle { func <",
    ] {
      #expect(ShadowedMethods.find(inSource: source, file: "F.swift").isEmpty)
    }
  }
}
