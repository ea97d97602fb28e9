// The short, type-checked declarations classes use to fill their method lists.

/// What a class puts in the runtime's tables when it is first used: the counterpart of the method
/// lists an Objective-C compiler emits.
///
/// ```swift
/// override class var objcDeclaration: ObjCClassDeclaration {
///   ObjCClassDeclaration(Greeter.self) {
///     ObjCMethodDeclaration("greeting", Greeter.greetingIMP, swiftEntry: Greeter.greetingEntry)
///     ObjCMethodDeclaration("shout:", Greeter.shoutIMP)
///     ObjCMethodDeclaration.classMethod("defaultVolume", Greeter.defaultVolumeIMP)
///   }
/// }
/// ```
public struct ObjCClassDeclaration {
  /// The class the declaration belongs to; a subclass that inherits the declaration declares
  /// nothing.
  public let owner: ObjCObject.Type
  /// The runtime name to use instead of the Swift type's name.
  public let runtimeName: String?
  /// The declared methods, instance and class.
  public let methods: [ObjCMethodDeclaration]
  /// The declared instance variables.
  public let ivars: [ObjCIvarDeclaration]
  /// The declared properties.
  public let properties: [ObjCPropertyDeclaration]

  /// A declaration of `owner`'s own methods and instance variables.
  ///
  /// - Parameters:
  ///   - owner: The class being declared; must be the class whose `objcDeclaration` returns this.
  ///   - runtimeName: A name for the runtime class, when the Swift name will not do.
  ///   - members: One ``ObjCMethodDeclaration``, ``ObjCIvarDeclaration`` or
  ///     ``ObjCPropertyDeclaration`` per line.
  public init(
    _ owner: ObjCObject.Type, runtimeName: String? = nil,
    @ObjCDeclarationBuilder members: () -> [ObjCClassMember] = { [] }
  ) {
    self.owner = owner
    self.runtimeName = runtimeName
    let members = members()
    self.methods = members.compactMap { if case .method(let method) = $0 { method } else { nil } }
    self.ivars = members.compactMap { if case .ivar(let ivar) = $0 { ivar } else { nil } }
    self.properties = members.compactMap {
      if case .property(let property) = $0 { property } else { nil }
    }
  }
}

/// One line of a class declaration.
public enum ObjCClassMember {
  /// A method.
  case method(ObjCMethodDeclaration)
  /// An instance variable.
  case ivar(ObjCIvarDeclaration)
  /// A declared property.
  case property(ObjCPropertyDeclaration)
}

/// Collects the members of a class declaration, written one per line.
@resultBuilder
public enum ObjCDeclarationBuilder {
  /// A method.
  public static func buildExpression(_ method: ObjCMethodDeclaration) -> [ObjCClassMember] {
    [.method(method)]
  }
  /// An instance variable.
  public static func buildExpression(_ ivar: ObjCIvarDeclaration) -> [ObjCClassMember] {
    [.ivar(ivar)]
  }
  /// A declared property.
  public static func buildExpression(_ property: ObjCPropertyDeclaration) -> [ObjCClassMember] {
    [.property(property)]
  }
  /// The members of a block, in order.
  public static func buildBlock(_ parts: [ObjCClassMember]...) -> [ObjCClassMember] {
    parts.flatMap { $0 }
  }
  /// Members made in a loop.
  public static func buildArray(_ parts: [[ObjCClassMember]]) -> [ObjCClassMember] {
    parts.flatMap { $0 }
  }
  /// Members under an `if` without `else`.
  public static func buildOptional(_ part: [ObjCClassMember]?) -> [ObjCClassMember] {
    part ?? []
  }
  /// Members under one branch of an `if`/`else`.
  public static func buildEither(first part: [ObjCClassMember]) -> [ObjCClassMember] {
    part
  }
  /// Members under the other branch of an `if`/`else`.
  public static func buildEither(second part: [ObjCClassMember]) -> [ObjCClassMember] {
    part
  }
}

/// One method of a class declaration: a selector and a `@convention(c)` IMP, whose Swift
/// signature gives the method's type encoding.
///
/// A method may also have a Swift entry point: a `@convention(c)` function that calls the Swift
/// method of the same name. Sends of the selector then call the Swift method (so a Swift
/// override runs), and the Swift method's base body continues into the table with
/// `ObjCObject/sendToTable(_:)`, where the IMP, swizzles and hooks live.
public struct ObjCMethodDeclaration {
  /// The method's selector.
  public let selector: Selector
  /// Whether it is a class method (a method of the metaclass).
  public let isClassMethod: Bool
  internal let implementation: Result<(IMP, String), ObjCRuntimeError>
  internal let swiftEntry: Result<(IMP, String), ObjCRuntimeError>?

  /// An instance method implemented by `implementation`.
  ///
  /// - Parameters:
  ///   - selector: The method's selector.
  ///   - implementation: A `@convention(c)` function taking `(id, SEL, Arguments...)`.
  public init<Function>(_ selector: Selector, _ implementation: Function) {
    self.init(selector, implementation, entry: Function?.none, isClassMethod: false)
  }

  /// An instance method implemented by `implementation` with a Swift entry point.
  ///
  /// - Parameters:
  ///   - selector: The method's selector.
  ///   - implementation: The base behaviour, a `@convention(c)` function taking
  ///     `(id, SEL, Arguments...)`.
  ///   - swiftEntry: A `@convention(c)` function of the same type that calls the Swift method
  ///     (virtually, so that overrides run).
  public init<Function>(_ selector: Selector, _ implementation: Function, swiftEntry: Function) {
    self.init(selector, implementation, entry: swiftEntry, isClassMethod: false)
  }

  /// An instance method implemented by an IMP made at run time for `types`, such as an
  /// ``Interceptor``'s: how a class declares a method that takes or returns a struct (a
  /// `CGPoint`), which a `@convention(c)` Swift function cannot. The IMP must stay valid for
  /// the life of the process (keep its interceptor in a `static let`).
  ///
  /// ```swift
  /// ObjCMethodDeclaration("setContentOffset:", implementation: setter.implementation,
  ///                       types: "v@:{CGPoint=dd}")
  /// ```
  public init(_ selector: Selector, implementation: IMP, types: String) {
    self.selector = selector
    self.isClassMethod = false
    self.implementation = .success((implementation, types))
    self.swiftEntry = nil
  }

  /// A class method implemented by `implementation`, stored in the metaclass.
  public static func classMethod<Function>(_ selector: Selector, _ implementation: Function) -> Self
  {
    Self(selector, implementation, entry: Function?.none, isClassMethod: true)
  }

  private init<Function>(
    _ selector: Selector, _ implementation: Function, entry: Function?, isClassMethod: Bool
  ) {
    self.selector = selector
    self.isClassMethod = isClassMethod
    self.implementation = Result { () throws(ObjCRuntimeError) in
      let imp = try IMP(implementation)
      return (imp, try FunctionSignature.encoding(of: Function.self))
    }
    self.swiftEntry = entry.map { entry in
      Result { () throws(ObjCRuntimeError) in
        (try IMP(entry), try FunctionSignature.encoding(of: Function.self))
      }
    }
  }

  internal func validated(className: String) -> Result<ValidMethodDeclaration, ObjCRuntimeError> {
    if let problem = selector.problem {
      return .failure(.invalidSelectorName(selector.name, reason: problem))
    }
    switch (implementation, swiftEntry) {
    case (.failure(let error), _), (_, .failure(let error)?):
      return .failure(
        .invalidDeclaration(
          className: className,
          reason: "\(isClassMethod ? "+" : "-")\(selector): \(error.description)"))
    case (.success(let (imp, encoding)), let entry):
      let entryIMP = entry.flatMap { try? $0.get().0 }
      return Result { () throws(ObjCRuntimeError) in
        ValidMethodDeclaration(
          selector: selector, isClassMethod: isClassMethod, implementation: imp,
          signature: try ParsedSignature.of(encoding), swiftEntry: entryIMP)
      }
    }
  }
}

internal struct ValidMethodDeclaration {
  let selector: Selector
  let isClassMethod: Bool
  let implementation: IMP
  let signature: ParsedSignature
  let swiftEntry: IMP?
}

/// Declarations the runtime could not use, kept for tests and tools and printed once.
public enum DeclarationProblems {
  private static let recorded = RuntimeLock<[ObjCRuntimeError]>([])

  /// Every declaration problem seen so far, oldest first.
  public static var all: [ObjCRuntimeError] {
    recorded.withLock { $0 }
  }

  /// Keeps `problems` without printing them (the caller prints them once it may).
  internal static func record(_ problems: [ObjCRuntimeError]) {
    guard !problems.isEmpty else { return }
    recorded.withLock { $0.append(contentsOf: problems) }
  }
}
