// "Did you mean": the selectors of a class nearest to one it does not have, for the errors of
// every API that can fail on a selector; and encodings read back as Swift signatures.

extension Class {
  /// The selectors instances of this class respond to (its own and its superclasses' methods)
  /// whose names are nearest to `selector`, nearest first: a misspelling, a missing colon, the
  /// Swift spelling of an Objective-C name (`popToRootViewController` for
  /// `popToRootViewControllerAnimated:`). At most `limit`, and only reasonably near ones.
  public func nearestSelectors(to selector: Selector, limit: Int = 3) -> [Selector] {
    let target = Array(selector.name.lowercased().utf8)
    var seen: Set<Selector> = []
    var scored: [(Int, Selector)] = []
    for cls in sequence(first: self, next: { $0.superclass }) {
      for method in cls.methods where seen.insert(method.selector).inserted {
        let name = Array(method.selector.name.lowercased().utf8)
        let distance = Suggestions.distance(target, name)
        let related = name.starts(with: target) || target.starts(with: name)
        guard distance <= max(2, target.count / 3) || related else { continue }
        scored.append((related ? min(distance, 1) : distance, method.selector))
      }
    }
    return scored.sorted { ($0.0, $0.1.name) < ($1.0, $1.1.name) }.prefix(limit).map(\.1)
  }
}

package enum Suggestions {
  /// The Levenshtein distance between two byte strings.
  static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for (i, x) in a.enumerated() {
      current[0] = i + 1
      for (j, y) in b.enumerated() {
        current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// `; did you mean -[A b:]?` for the class `method` names, or nothing when the class is
  /// unknown or has no near selector.
  package static func didYouMean(_ method: MethodReference) -> String {
    guard let found = objc_lookUpClass(method.className) else { return "" }
    let cls = method.isClassMethod ? found.metaclass : found
    let near = cls.nearestSelectors(to: Selector(method.selectorName))
    guard !near.isEmpty else { return "" }
    let names = near.map { MethodReference(owner: cls, selector: $0).description }
    return " Did you mean " + names.joined(separator: " or ") + "?"
  }
}

extension MethodEncoding {
  /// The signature as Swift spells it, after the receiver and `_cmd`: `(Bool) -> Void` for
  /// `v@:B`, `(UIViewController?, Bool) -> ObjCObject?` is `@@:@B`'s (objects are `ObjCObject?`,
  /// structs their names).
  public var swiftSignature: String {
    let arguments = explicitArgumentTypes.indices.map { index in
      MethodEncoding.swiftType(argumentDescriptors[index], text: argumentTypes[index])
    }
    return "(\(arguments.joined(separator: ", "))) -> "
      + MethodEncoding.swiftType(returnDescriptor, text: returnType)
  }

  /// The Swift type of one encoded type.
  static func swiftType(_ descriptor: ObjCTypeDescriptor, text: String) -> String {
    let code = text.utf8.first { !"rnNoORV".utf8.contains($0) } ?? 0
    switch code {
    case UInt8(ascii: "@"): return text.contains("@?") ? "(closure)" : "ObjCObject?"
    case UInt8(ascii: "#"): return "Class?"
    case UInt8(ascii: ":"): return "Selector"
    case UInt8(ascii: "*"): return "UnsafePointer<CChar>?"
    case UInt8(ascii: "^"), UInt8(ascii: "?"): return "UnsafeRawPointer?"
    case UInt8(ascii: "B"): return "Bool"
    default: break
    }
    switch descriptor {
    case .void: return "Void"
    case .integer(let size, let signed):
      let bits = size * 8
      return bits == 64 ? (signed ? "Int" : "UInt") : "\(signed ? "Int" : "UInt")\(bits)"
    case .float: return "Float"
    case .double: return "Double"
    case .structure(let name, _): return name.isEmpty || name == "?" ? "(struct)" : name
    case .array(let count, _): return "(array of \(count))"
    case .union(let name, _): return "(union \(name))"
    case .bitField(let width): return "(bit field of \(width))"
    case .unsupported(let code): return "(\(code))"
    case .pointer: return "UnsafeRawPointer?"
    }
  }

  /// The Swift spelling of `encoding`, or nil when it does not parse.
  public static func swiftSignature(of encoding: String) -> String? {
    (try? MethodEncoding(parsing: encoding))?.swiftSignature
  }
}
