// The techniques the coexistence lab pairs, and what they share: where a technique goes, how its
// layer says that it ran, and how its users take it out again. Each technique is in a file of its
// own in Techniques/, written as the people who use it write it; a layer is an `Interceptor` (a C
// function pointer whose code sees `self`, `_cmd` and the arguments), because Linux Swift has no
// other way to write a C function that keeps its own statics per class.
import Hooks
import ObjCRuntime

/// Where a technique goes: the class it changes (the class-wide techniques), the object the cell
/// calls (the per-object ones), and the method.
struct CoexistenceSite {
  /// The class the technique is installed on.
  let cls: Class
  /// The object the cell calls: the per-object techniques install on it.
  let object: ObjCObject
  /// The method's selector, such as `setTag:`.
  let selector: Selector
  /// The method's type encoding.
  let types: String
  /// The name the technique's layer records: its own, or `Base.exchange` when the matrix puts
  /// the same technique on a class and its subclass.
  let label: String
  /// The key a key-value observer of the method watches (`tag` for `setTag:`).
  var key: String {
    let name = selector.name.dropFirst(3).dropLast()
    return name.prefix(1).lowercased() + name.dropFirst()
  }
}

/// A technique installed: how its users take it out again.
struct TechniqueInstall {
  /// Takes the layer out, as the technique's users do; nil when the technique offers no way back.
  let revert: (() throws -> Void)?
}

/// A swizzling technique, as its users write it.
struct Technique: Sendable {
  /// The name the lab takes (`exchange`).
  let name: String
  /// One line: who writes it this way.
  let summary: String
  /// Whether it changes one object (isa-swizzling) rather than the class.
  let isPerObject: Bool
  /// Why it has no revert, when it has none.
  var noRevert: String? = nil
  /// Installs the technique's layer on `site`'s method.
  let install: @Sendable (CoexistenceSite) throws -> TechniqueInstall

  /// Every technique, in the order the lab shows them.
  static let all: [Technique] = [
    .categoryExchange, .safePattern, .directOverride, .callTimeLookup, .classHook, .objectHook,
    .keyValueObserving, .aspects, .cmdChecker,
  ]

  /// The technique named `name`.
  static func named(_ name: String) -> Technique? {
    all.first { $0.name == name }
  }
}

/// Why a technique refused to install.
struct TechniqueRefusal: Error, CustomStringConvertible {
  let description: String
}

/// The layers of one call, in the order they ran, each with the `_cmd` it received.
enum LayerLog {
  /// One layer's run.
  struct Entry: Equatable, Sendable {
    /// The technique's name, or `original`.
    let layer: String
    /// The `_cmd` the layer received; nil for a layer that is not given one (an observer).
    let cmd: Selector?
  }

  /// The most layers one call runs before the lab calls it a loop: the next layer then returns
  /// without calling on, so that a loop is a result rather than a stack overflow.
  static let limit = 24

  private static let entries = RuntimeLock<[Entry]>([])
  /// The Interceptors the layers are made of, kept for the life of the process (an IMP that is
  /// installed must outlive every call of it).
  private static let kept = RuntimeLock<[Interceptor]>([])

  /// Records that `layer` runs with `cmd`; false when the call has run ``limit`` layers already,
  /// and the layer must return without calling on.
  static func enter(_ layer: String, _ cmd: Selector?) -> Bool {
    entries.withLock { entries in
      guard entries.count < limit else { return false }
      entries.append(Entry(layer: layer, cmd: cmd))
      return true
    }
  }

  /// What the layers recorded since the last take.
  static func take() -> [Entry] {
    entries.withLock { entries in
      defer { entries = [] }
      return entries
    }
  }

  /// A layer: an IMP of the method's type whose calls go to `body`, kept alive.
  static func layer(types: String, _ body: @escaping @Sendable (InterceptedCall) -> Void) throws
    -> IMP
  {
    let interceptor = try Interceptor(types: types, handler: body)
    kept.withLock { $0.append(interceptor) }
    return interceptor.implementation
  }
}

extension InterceptedCall {
  /// `[self selector …]` with this call's arguments: the implementation the receiver's class
  /// finds for `selector` (the forward IMP when none, which forwards), called with `selector`
  /// as `_cmd`, as objc_msgSend calls it.
  func send(_ selector: Selector) {
    let imp = class_getMethodImplementation(object_getClass(receiver), selector) ?? .forward
    forward(to: imp, as: selector)
  }
}
