// The register-shape class the hooks-on-registers suites hook: narrow integers, a floating-point
// result, an object result and three integer arguments.
import ObjCRuntime

/// A class of register-shape methods with narrow integers, whose widening a hook that passes
/// other arguments on must redo.
final class Narrow: ObjCObject {
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(Narrow.self) {
      ObjCMethodDeclaration("negated:", Narrow.negated)
      ObjCMethodDeclaration("choose:flag:", Narrow.choose)
      ObjCMethodDeclaration("sum:b:c:", Narrow.sum)
      ObjCMethodDeclaration("fresh:", Narrow.fresh)
      ObjCMethodDeclaration("halfOf:", Narrow.halfOf)
      ObjCMethodDeclaration(
        "wide:",
        implementation: IMP(rawValue: unsafeBitCast(Narrow.wide, to: UnsafeRawPointer.self)),
        types: "q@:c")
    }
  }

  /// `c@:c`: the value negated.
  static let negated: @convention(c) (id, SEL, Int8) -> Int8 = { _, _, value in -value }
  /// `i@:iB`: the value when the flag is set, else its negation.
  static let choose: @convention(c) (id, SEL, Int32, Bool) -> Int32 = { _, _, value, flag in
    flag ? value : -value
  }
  /// `q@:qqq`: the sum.
  static let sum: @convention(c) (id, SEL, Int, Int, Int) -> Int = { _, _, a, b, c in a + b + c }

  /// `@@:B`: a new object (returned retained, so the caller holds its only reference), or nil.
  static let fresh: @convention(c) (id, SEL, Bool) -> id? = { _, _, make in
    make ? ObjCObject().passRetained() : nil
  }

  /// `d@:q`: half the value, a floating-point result of an integer argument.
  static let halfOf: @convention(c) (id, SEL, Int) -> Double = { _, _, value in Double(value) / 2 }
  /// `q@:c`, read as its whole register: what a callee that relies on its caller's widening of
  /// a `char` sees.
  static let wide: @convention(c) (id, SEL, Int) -> Int = { _, _, register in register }

  /// A subclass made at run time, unique to the test that asks.
  static func freshClass() -> Class {
    let cls = objc_allocateClassPair(Narrow.runtimeClass, UniqueNames.make("Narrow"), 0)!
    objc_registerClassPair(cls)
    return cls
  }

  static func make(_ cls: Class) -> Narrow {
    let object = Narrow()
    try! object.setClass(cls)
    return object
  }

  func negated(_ value: Int8) -> Int8 { (try? objc_msgSend(self, "negated:", value)) ?? 0 }
  func choose(_ value: Int32, _ flag: Bool) -> Int32 {
    (try? objc_msgSend(self, "choose:flag:", value, flag)) ?? 0
  }
  func halfOf(_ value: Int) -> Double { (try? objc_msgSend(self, "halfOf:", value)) ?? .nan }
  /// Calls `wide:` with `register` as the whole argument register, upper bytes included.
  func wide(register: Int) -> Int {
    let imp = object_getClass(self)!.methodImplementation(for: "wide:")
    let function = unsafeBitCast(imp.rawValue, to: (@convention(c) (id, SEL, Int) -> Int).self)
    return withExtendedLifetime(self) {
      function(
        id(OpaquePointer(Unmanaged.passUnretained(self).toOpaque())), Selector("wide:").sel,
        register)
    }
  }
  func fresh(_ make: Bool) -> ObjCObject? { (try? objc_msgSend(self, "fresh:", make)) ?? nil }
  func sum(_ a: Int, _ b: Int, _ c: Int) -> Int {
    (try? objc_msgSend(self, "sum:b:c:", a, b, c)) ?? 0
  }
}
