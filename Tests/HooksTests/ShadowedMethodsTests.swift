import ObjCRuntime
import Testing

// The check for Swift methods that never run: members of extensions named as methods of the
// runtime's tables.
@testable import Hooks

private final class ShadowCup: ObjCObject {}

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
    class_addMethod(ShadowKettle.self, "pourCup:completion:", flag, "B@:@@")
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
        public func kettle(_ kettle: ShadowKettle, shouldPour cup: ShadowCup) -> Bool { false }
        var boil: Int { 0 }
        func popKettle(animated: Bool) {}
        func brew() {}
      }
      """
    let found = ShadowedMethods.find(inSource: source, file: "Kettle.swift")
    #expect(
      found.map { "\($0.line) \($0.swiftName) \($0.method)" } == [
        "5 kettle(_:shouldPour:) -[ShadowKettle kettle:shouldPourCup:]",
        "6 boil -[ShadowKettle boil]",
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
      (
        "navigationBar", [nil, "shouldPop"], ["UINavigationBar", "UINavigationItem"],
        "navigationBar:shouldPopItem:", true
      ),
      ("popViewController", ["animated"], ["Bool"], "popViewControllerAnimated:", true),
      ("viewWillAppear", [nil], ["Bool"], "viewWillAppear:", true),
      (
        "pushViewController", [nil, "animated"], ["UIViewController", "Bool"],
        "pushViewController:animated:", true
      ),
      ("forwardingTarget", ["for"], ["Selector"], "forwardingTargetForSelector:", true),
      ("isKind", ["of"], ["AnyClass"], "isKindOfClass:", true),
      ("perform", [nil, "with"], ["Selector", "Any"], "performSelector:withObject:", true),
      ("pop", [nil], ["Bool"], "popViewControllerAnimated:", false),
      ("push", [nil, "animated"], ["UIViewController", "Bool"], "pushViewController:", false),
      (
        "navigationBar", [nil, "should"], ["UINavigationBar", "UINavigationItem"],
        "navigationBar:shouldPopItem:", false
      ),
      ("add", [nil], ["UIView"], "addSubview:", false),
      ("insert", [nil, "at"], ["UIView", "Int"], "insertSubview:atIndex:", false),
      ("set", [nil], ["CGFloat"], "setAlpha:", false),
      ("layout", [], [], "layoutSubviews", false),
    ] as [(String, [String?], [String], String, Bool)])
  func nameMatching(
    base: String, labels: [String?], types: [String], selector: String, expected: Bool
  ) {
    let parameters = zip(labels, types).map { SwiftSourceScan.Parameter(label: $0, type: $1) }
    #expect(ShadowedMethods.matches(base, parameters, selector: selector) == expected)
  }

  @Test("properties match their getter exactly, or UIKit's renamed one")
  func properties() {
    let source = """
      extension ShadowKettle {
        var next: ShadowKettle? { nil }
        var boil: Int { 0 }
        var kettle: Int { 0 }
      }
      """
    #expect(
      ShadowedMethods.find(inSource: source, file: "F.swift").map(\.swiftName) == ["boil"])
  }

  @Test("closure parameters, CRLF line ends and selectors named in another file are read right")
  func closuresLineEndsAndOtherFiles() {
    let closures = """
      extension ShadowKettle {
        func pour(_ cup: ShadowCup, completion: @escaping () -> Void) {}
      }
      """
    #expect(ShadowedMethods.find(inSource: closures, file: "F.swift").map(\.line) == [2])
    let crlf =
      "// a comment\r\nextension ShadowKettle {\r\n  func popKettle(animated: Bool) {}\r\n}\r\n"
    #expect(ShadowedMethods.find(inSource: crlf, file: "F.swift").map(\.line) == [3])
    let exposed = ShadowedMethods.find(inSources: [
      (closures, "Cups.swift"), ("let s: Selector = \"pourCup:completion:\"", "Swizzles.swift"),
    ])
    #expect(exposed.isEmpty)
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
