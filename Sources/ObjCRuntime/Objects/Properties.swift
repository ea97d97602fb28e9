// Declared properties: what a class says about its properties (type, memory policy, accessors),
// as objc4 keeps `@property` declarations in the class's property list, and the functions that
// read them.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

// swift-format-ignore: TypeNamesShouldBeCapitalized
/// One attribute of a declared property, objc4's `objc_property_attribute_t`: a one-letter name
/// and a value. The letters objc4 writes: `T` the type encoding (`T@"NSString"`, `Td`), `R`
/// read-only, `C` copy, `&` retain, `W` weak, `N` nonatomic, `G` the getter's selector, `S` the
/// setter's, `V` the backing ivar, `D` dynamic.
public struct objc_property_attribute_t: Sendable, Hashable, CustomStringConvertible {
  /// The attribute's letter.
  public let name: String
  /// Its value: empty for a flag such as `N`.
  public let value: String

  /// An attribute.
  public init(name: String, value: String = "") {
    self.name = name
    self.value = value
  }

  /// As it appears in the attribute string: `Td`, `N`, `V_title`.
  public var description: String { name + value }
}

/// A property declared in a class's table: objc4's `objc_property_t`. Its attributes say what
/// `@property` said (`T@,C,N`); the runtime stores and answers them, and does not make
/// accessors from them (declare those as methods).
public final class Property: Sendable, CustomStringConvertible {
  /// The property's name.
  public let name: String
  /// Its attributes, in declaration order.
  public let attributes: [objc_property_attribute_t]

  internal init(name: String, attributes: [objc_property_attribute_t]) {
    self.name = name
    self.attributes = attributes
  }

  /// The attribute string objc4's `property_getAttributes` returns: the attributes, comma
  /// separated (`Td,N,V_alpha`).
  public var attributeString: String { attributes.map(\.description).joined(separator: ",") }

  /// The value of the attribute named `name` (`T` for the type), or nil when it has none.
  public func attributeValue(_ name: String) -> String? {
    attributes.first { $0.name == name }?.value
  }

  /// `name` and the attribute string.
  public var description: String { "\(name) (\(attributeString))" }

  /// Parses an attribute string (`T@,C,N,V_title`); nil when it does not start with the type,
  /// or an attribute has no letter.
  internal static func attributes(parsing text: String) -> [objc_property_attribute_t]? {
    var attributes: [objc_property_attribute_t] = []
    // A type such as `T{CGPoint=dd}` holds no comma; one such as `T@"NSString"` neither.
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let letter = part.first else { return nil }
      attributes.append(
        objc_property_attribute_t(name: String(letter), value: String(part.dropFirst())))
    }
    guard attributes.first?.name == "T", attributes.first?.value.isEmpty == false else {
      return nil
    }
    return attributes
  }
}

/// One property of a class declaration, for ``ObjCClassDeclaration``: the counterpart of an
/// Objective-C `@property` line.
///
/// ```swift
/// ObjCClassDeclaration(Badge.self) {
///   ObjCPropertyDeclaration("count", \Badge.count)                 // Tq,N
///   ObjCPropertyDeclaration("title", attributes: "T@,C,N,V_title")  // written out
/// }
/// ```
public struct ObjCPropertyDeclaration {
  internal let name: String
  /// The attributes, or the problem with them.
  internal let attributes: Result<[objc_property_attribute_t], ObjCRuntimeError>

  /// What is wrong with `attributes` for a property `property`, or nil: the type (T) first and
  /// not empty; each name one ASCII character other than the comma; no value holding a comma
  /// or a NUL; each name once. The attribute string is each name followed by its value, joined
  /// by commas (`T@,C,N,V_title`): anything else would read back as other attributes.
  static func problem(
    with attributes: [objc_property_attribute_t], property: String, className: String
  ) -> ObjCRuntimeError? {
    func problem(_ reason: String) -> ObjCRuntimeError {
      .invalidDeclaration(className: className, reason: "property '\(property)': \(reason)")
    }
    guard attributes.first?.name == "T", attributes.first?.value.isEmpty == false,
      attributes.allSatisfy({ !$0.name.isEmpty })
    else { return problem("the first attribute must be the type (T), each a letter") }
    if let bad = attributes.first(where: { attribute in
      let scalars = attribute.name.unicodeScalars
      return scalars.count != 1 || !scalars.allSatisfy(\.isASCII) || attribute.name == ","
        || (scalars.first?.value ?? 0) < 0x21
    }) {
      return problem(
        "the attribute name '\(bad.name)' is not one character (objc4's are T, R, C, &, N, D,"
          + " W, P, G, S and V)")
    }
    if let bad = attributes.first(where: { $0.value.contains(",") || $0.value.contains("\0") }) {
      return problem(
        "the value of \(bad.name) holds a comma or a NUL, which would split the attribute string")
    }
    let names = attributes.map(\.name)
    if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
      return problem("the attribute \(twice) is given twice")
    }
    return nil
  }

  /// A property with the attribute string `attributes`, as objc4's `property_getAttributes`
  /// would return it; a string that does not start with the type (`T...`) is reported when the
  /// class is declared, and the property left out.
  public init(_ name: String, attributes: String) {
    self.name = name
    if let parsed = Property.attributes(parsing: attributes), !name.isEmpty {
      // The same rules as class_addProperty's (a name once, one character each...).
      if let problem = ObjCPropertyDeclaration.problem(with: parsed, property: name, className: "?")
      {
        self.attributes = .failure(problem)
      } else {
        self.attributes = .success(parsed)
      }
    } else {
      self.attributes = .failure(
        .invalidDeclaration(
          className: "?",
          reason: "property '\(name)' has the attributes '\(attributes)'; write the type first, "
            + "as in T@,C,N or Td,N"))
    }
  }

  /// A nonatomic property backed by the Swift property at `keyPath`: its type from the property's
  /// type (`?` when the type has none), read-only unless the key path is writable, `copy` when
  /// asked.
  public init<Owner: ObjCObject, Value>(
    _ name: String, _ keyPath: KeyPath<Owner, Value>, copy: Bool = false
  ) {
    var attributes = [
      objc_property_attribute_t(
        name: "T", value: objcTypeEncoding(of: Value.self) ?? "?")
    ]
    if !(keyPath is ReferenceWritableKeyPath<Owner, Value>) {
      attributes.append(objc_property_attribute_t(name: "R"))
    }
    if copy { attributes.append(objc_property_attribute_t(name: "C")) }
    attributes.append(objc_property_attribute_t(name: "N"))
    self.name = name
    self.attributes = .success(attributes)
  }
}

extension Class {
  /// The class's own declared properties, in declaration order (objc4's
  /// `class_copyPropertyList`, which lists a class's own too).
  public var properties: [Property] {
    Runtime.state.withLock { _ in propertyList }
  }

  /// The property named `name` of this class or the nearest superclass that declares it (objc4's
  /// `class_getProperty`).
  public func property(named name: String) -> Property? {
    Runtime.state.withLock { _ in
      var current: Class? = self
      while let cls = current {
        if let found = cls.propertyList.first(where: { $0.name == name }) { return found }
        current = cls.superclass
      }
      return nil
    }
  }

  /// Adds a property to this class, or replaces the class's own property of that name when
  /// `replacing`.
  ///
  /// - Throws: ``ObjCRuntimeError/invalidDeclaration(className:reason:)`` for an empty name, no
  ///   type attribute (`T`), an attribute without a letter, or (unless `replacing`) a property
  ///   the class already has; the class is unchanged then.
  public func addProperty(
    _ name: String, attributes: [objc_property_attribute_t], replacing: Bool = false
  ) throws(ObjCRuntimeError) {
    guard !name.isEmpty else {
      throw .invalidDeclaration(className: self.name, reason: "a property needs a name")
    }
    guard !name.contains("\0") else {
      throw .invalidDeclaration(
        className: self.name, reason: "a property name holds a NUL, which would cut it short")
    }
    if let problem = ObjCPropertyDeclaration.problem(
      with: attributes, property: name, className: self.name)
    {
      throw problem
    }
    guard !isDisposed.load(ordering: .sequentiallyConsistent) else {
      throw .classDisposed(className: self.name)
    }
    let property = Property(name: name, attributes: attributes)
    try Runtime.state.withLock { _ throws(ObjCRuntimeError) in
      if let index = propertyList.firstIndex(where: { $0.name == name }) {
        guard replacing else {
          throw .invalidDeclaration(
            className: self.name,
            reason: "it already declares a property '\(name)' (class_replaceProperty replaces it)")
        }
        propertyList[index] = property
      } else {
        propertyList.append(property)
      }
    }
  }
}

/// The class's own declared properties; empty for nil. The Swift form of objc4's
/// `class_copyPropertyList`.
public func class_copyPropertyList(_ cls: Class?) -> [Property] {
  cls?.properties ?? []
}

/// The property `name` of the class or a superclass; nil for nil or when none declares it. The
/// corresponding objc4 function is `class_getProperty`.
public func class_getProperty(_ cls: Class?, _ name: String) -> Property? {
  cls?.property(named: name)
}

/// Adds a property; false when the class already has one of that name, or for bad input (a
/// warning says which). The corresponding objc4 function is `class_addProperty`.
@discardableResult
public func class_addProperty(
  _ cls: Class?, _ name: String, _ attributes: [objc_property_attribute_t]
) -> Bool {
  guard let cls else { return false }
  do {
    try cls.addProperty(name, attributes: attributes)
    return true
  } catch {
    Diagnostics.warn("class_addProperty", refused: error)
    return false
  }
}

/// Replaces the class's property `name`, or adds it. The corresponding objc4 function is
/// `class_replaceProperty`.
public func class_replaceProperty(
  _ cls: Class?, _ name: String, _ attributes: [objc_property_attribute_t]
) {
  guard let cls else { return }
  do {
    try cls.addProperty(name, attributes: attributes, replacing: true)
  } catch {
    Diagnostics.warn("class_replaceProperty", refused: error)
  }
}

/// The property's name; nil for nil. The corresponding objc4 function is `property_getName`.
public func property_getName(_ property: Property?) -> String? {
  property?.name
}

/// The property's attribute string (`T@,C,N,V_title`); nil for nil. The corresponding objc4
/// function is `property_getAttributes`.
public func property_getAttributes(_ property: Property?) -> String? {
  property?.attributeString
}

/// The property's attributes; empty for nil. The Swift form of objc4's
/// `property_copyAttributeList`.
public func property_copyAttributeList(_ property: Property?) -> [objc_property_attribute_t] {
  property?.attributes ?? []
}

/// The value of the attribute `name` (`T` for the type encoding); nil when the property has no
/// such attribute. The corresponding objc4 function is `property_copyAttributeValue`.
public func property_copyAttributeValue(_ property: Property?, _ name: String) -> String? {
  property?.attributeValue(name)
}
