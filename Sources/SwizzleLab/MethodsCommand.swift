// `methods`: the methods of a class's table, with their encodings, who implements them, and the
// hooks and swizzles on them; and the same as a Markdown table, for Docs/UIKitModel.md.
import Hooks
import ObjCRuntime

/// `methods CLASS`: what a plugin can hook on a class.
enum MethodsCommand {
  /// One method a class responds to through its table.
  struct Row: Equatable {
    var selector: String
    var encoding: String
    /// The class in the chain whose table holds the method.
    var implementedBy: String
    /// The hook map's layers on the method, outermost first.
    var layers: [String]
  }

  /// The methods instances of `cls` find in their table: its own and those it inherits from the
  /// model's classes (up to, not including, the root `ObjCObject`), by selector. With
  /// `declaredOnly`, only the methods the classes' declarations give them (not those added at
  /// run time by plugins, hooks or tests).
  static func rows(of cls: Class, declaredOnly: Bool = false) -> [Row] {
    let map = PluginRegistry.shared.hookMap
    var rows: [Row] = []
    var seen: Set<Selector> = []
    var current: Class? = cls
    while let owner = current, owner.superclass != nil {
      let declared = Set(
        owner.swiftClass?.objcDeclaration.methods.filter { !$0.isClassMethod }.map(\.selector)
          ?? [])
      for method in owner.methods.sorted(by: { $0.selector.name < $1.selector.name })
      where (!declaredOnly || declared.contains(method.selector))
        && seen.insert(method.selector).inserted
      {
        let reference = MethodReference(owner: owner, selector: method.selector)
        let layers = map.entries.first { $0.method == reference }?.layers ?? []
        rows.append(
          Row(
            selector: method.selector.name, encoding: method.typeEncoding,
            implementedBy: owner.name, layers: layers.map(\.description)))
      }
      current = owner.superclass
    }
    return rows
  }

  static func run(className: String, output: LabOutput) throws(LabError) -> LabExit {
    guard let cls = objc_getClass(className) else {
      let known = UIKitClasses.names.joined(separator: ", ")
      throw .usage("no class '\(className)'; the model's classes: \(known)", topic: "methods")
    }
    let rows = rows(of: cls)
    let width = rows.map(\.selector.count).max() ?? 0
    let encodingWidth = rows.map(\.encoding.count).max() ?? 0
    var lines = ["\(cls.name): \(rows.count) method\(rows.count == 1 ? "" : "s")"]
    for row in rows {
      let selector = row.selector.padding(toLength: width + 2, withPad: " ", startingAt: 0)
      let encoding = row.encoding.padding(toLength: encodingWidth + 2, withPad: " ", startingAt: 0)
      lines.append("  \(selector)\(encoding)\(row.implementedBy)")
      for layer in row.layers { lines.append("    -> \(layer)") }
    }
    output.out(lines.joined(separator: "\n") + "\n")
    return .ok
  }

  /// The hookable methods of the model's classes as Markdown: a section per class with a table
  /// of selector, encoding and the class that implements it.
  static func markdown() -> String {
    var text: [String] = []
    for name in UIKitClasses.names {
      guard let cls = objc_getClass(name) else { continue }
      text.append("**\(name)**")
      text.append("")
      text.append("| selector | encoding | implemented by |")
      text.append("|---|---|---|")
      for row in rows(of: cls, declaredOnly: true) {
        text.append("| `\(row.selector)` | `\(row.encoding)` | \(row.implementedBy) |")
      }
      text.append("")
    }
    return text.joined(separator: "\n")
  }
}

/// The model's classes whose tables a plugin hooks, in the order the docs list them.
enum UIKitClasses {
  static let names = [
    "UIResponder", "UIView", "UIScrollView", "UINavigationBar", "UIViewController",
    "UINavigationController", "UITabBarController",
  ]
}
