// Typed errors of the runtime: each names the method or class at fault and says what to do.

/// A method named the way Objective-C prints it: `-[Class selector]` or `+[Class selector]`.
public struct MethodReference: Hashable, Sendable, CustomStringConvertible {
  /// The class's name.
  public let className: String
  /// The selector's name.
  public let selectorName: String
  /// Whether the method is a class method (`+`).
  public let isClassMethod: Bool

  /// A reference to a method by names.
  public init(className: String, selectorName: String, isClassMethod: Bool = false) {
    self.className = className
    self.selectorName = selectorName
    self.isClassMethod = isClassMethod
  }

  /// A reference to `selector` as sent to instances of `owner`, or to `owner` itself when it is
  /// a metaclass.
  public init(owner: Class, selector: Selector) {
    self.init(
      className: owner.name, selectorName: selector.name, isClassMethod: owner.isMetaClass)
  }

  /// `-[Class selector]` or `+[Class selector]`.
  public var description: String {
    "\(isClassMethod ? "+" : "-")[\(className) \(selectorName)]"
  }
}

/// An error of the runtime: a misuse by the caller, reported before anything changed.
///
/// Every error leaves the runtime as it was. Its ``description`` names the culprit as
/// `-[Class selector]` where there is one, and says what to do.
public enum ObjCRuntimeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Nothing answered a message: no method, no resolver, no forwarding. objc4 raises this from
  /// `-doesNotRecognizeSelector:`.
  case unrecognizedSelector(MethodReference)
  /// A selector name no method could have.
  case invalidSelectorName(String, reason: String)
  /// No class has this name.
  case classNotFound(String)
  /// An argument that must not be nil was nil; the associated value names the parameter.
  case nilArgument(String)
  /// The class and its superclasses have no method for the selector.
  case methodNotFound(MethodReference)
  /// The class already has its own method for the selector.
  case methodAlreadyExists(MethodReference)
  /// A method was passed along with a class it does not belong to.
  case methodNotInClass(MethodReference, className: String)
  /// A method was exchanged with itself.
  case exchangeWithItself(MethodReference)
  /// A type encoding that cannot be parsed; `position` is the offset of the first bad character.
  case malformedTypeEncoding(String, position: Int, expected: String)
  /// A method's encoding disagrees with the encoding its IMP was declared with.
  case implementationMismatch(MethodReference, encoding: String, implementation: String)
  /// A typed call passes or expects other types than the method's encoding says.
  case signatureMismatch(MethodReference, method: String, call: String)
  /// A function that cannot be an IMP.
  case invalidImplementation(String)
  /// `object_setClass` to a class whose instances need Swift storage the object does not have.
  case incompatibleClass(objectType: String, targetClass: String, storageClass: String)
  /// A class declaration that names another class as its owner, or declares a selector twice.
  case invalidDeclaration(className: String, reason: String)
  /// A signature whose values do not all travel in registers (structs by value, more than six
  /// arguments), which needs libffi to be called.
  case unsupportedSignature(MethodReference, encoding: String)
  /// An ivar that cannot be added, read or written as asked.
  case invalidIvar(className: String, name: String, reason: String)
  /// A key that neither an accessor method nor an ivar answers, in key-value coding.
  case undefinedKey(className: String, key: String)
  /// A key-value coding value whose type the accessor or ivar cannot take.
  case keyValueTypeMismatch(className: String, key: String, expected: String, actual: String)
  /// A class that cannot be disposed of.
  case cannotDispose(className: String, reason: String)
  /// An implementation written for instances of one Swift class would be given to a method whose
  /// receivers are instances of an unrelated one (by an exchange or a set).
  case incompatibleImplementation(
    MethodReference, implementationFor: String, receivers: String)
  /// The class was disposed of (`objc_disposeClassPair`) and can no longer be used.
  case classDisposed(className: String)
  /// A COPY association policy met a value that cannot be copied.
  case notCopyable(valueType: String, objectClass: String)
  /// A key that key-value observing cannot observe on the class.
  case notObservable(className: String, key: String, reason: String)
  /// `removeObserver` for an observer that does not observe the key path on that object.
  case observerNotRegistered(className: String, keyPath: String)

  /// What went wrong and what to do about it.
  public var description: String {
    switch self {
    case .unrecognizedSelector(let method):
      return "\(method): unrecognized selector sent to "
        + (method.isClassMethod ? "class" : "instance")
        + ". Add the method (class_addMethod), resolve it in resolveInstanceMethod(_:), "
        + "or forward it with forwardingTarget(for:)." + Suggestions.didYouMean(method)
    case .invalidSelectorName(let name, let reason):
      return "invalid selector name \(String(reflecting: name)): \(reason). "
        + "Use a method name such as \"viewWillAppear:\"."
    case .classNotFound(let name):
      return "no class named \(String(reflecting: name)). "
        + "A Swift class is registered the first time it is used; touch it first "
        + "(for example MyClass.runtimeClass) or check the spelling."
    case .nilArgument(let parameter):
      return "\(parameter) must not be nil."
    case .methodNotFound(let method):
      return "\(method): no such method in the class or its superclasses. "
        + "Check the selector's spelling and colons, and whether it is a class method (+)."
        + Suggestions.didYouMean(method)
    case .methodAlreadyExists(let method):
      return "\(method) already exists in that class. "
        + "Use class_replaceMethod or method_setImplementation to change it."
    case .methodNotInClass(let method, let className):
      return "\(method) does not belong to \(className) or its superclasses. "
        + "Look the method up with class_getInstanceMethod on \(className)."
    case .exchangeWithItself(let method):
      return "\(method) was exchanged with itself, which changes nothing. "
        + "Pass the method to swap with as the second argument."
    case .malformedTypeEncoding(let encoding, let position, let expected):
      // A hostile encoding can be megabytes long: show its start only.
      let shown = encoding.count > 120 ? "\(encoding.prefix(120))…" : encoding
      return "malformed type encoding \(String(reflecting: shown)) at offset \(position): "
        + "expected \(expected). Encodings look like \"v@:\" or \"q@:q\"."
    case .implementationMismatch(let method, let encoding, let implementation):
      return "\(method) is declared as \(encoding) but its IMP was made from a function of type "
        + "\(implementation). Give the encoding the IMP's signature implies."
    case .signatureMismatch(let method, let methodEncoding, let call):
      return "\(method) has type \(methodEncoding)"
        + (MethodEncoding.swiftSignature(of: methodEncoding).map { ", \($0) in Swift," } ?? "")
        + " but the call passes and expects \(call)"
        + (MethodEncoding.swiftSignature(of: call).map { ", \($0)" } ?? "")
        + ". Call it with the types of its encoding."
    case .invalidImplementation(let reason):
      return "not a valid IMP: \(reason). Write IMPs as "
        + "@convention(c) (id, SEL, Arguments...) -> Result."
    case .incompatibleClass(let objectType, let targetClass, let storageClass):
      return "an instance of \(objectType) cannot become a \(targetClass): instances of "
        + "\(targetClass) are \(storageClass)s in memory, which \(objectType) is not. "
        + "Set a class derived from \(objectType) or from one of its superclasses."
    case .invalidDeclaration(let className, let reason):
      return "the runtime declaration of \(className) is invalid: \(reason)."
    case .unsupportedSignature(let method, let encoding):
      return "\(method) has type \(encoding), which cannot be called with register-sized "
        + "arguments alone. Call it with at most six scalar arguments, or through libffi."
    case .invalidIvar(let className, let name, let reason):
      return "ivar \(name) of \(className): \(reason)."
    case .undefinedKey(let className, let key):
      return
        "\(className) is not key-value coding compliant for the key \(String(reflecting: key)): "
        + "no accessor (get<Key>, <key>, is<Key>, _<key>) and no ivar (_<key>, _is<Key>, <key>, "
        + "is<Key>). Check the key, or override value(forUndefinedKey:)."
    case .keyValueTypeMismatch(let className, let key, let expected, let actual):
      return "the key \(String(reflecting: key)) of \(className) takes \(expected), not \(actual). "
        + "Pass a value of that type."
    case .cannotDispose(let className, let reason):
      return "\(className) cannot be disposed of: \(reason)."
    case .incompatibleImplementation(let method, let implementationFor, let receivers):
      return "\(method) cannot take that implementation: it was written for \(implementationFor)"
        + " objects, and the method's receivers are \(receivers)s, which are not. Exchange or set"
        + " implementations between methods of related classes, or use a closure IMP"
        + " (imp_implementationWithBlock), which checks its receiver."
    case .classDisposed(let className):
      return "\(className) was disposed of with objc_disposeClassPair and can no longer be used. "
        + "Make a new class with objc_allocateClassPair."
    case .notCopyable(let valueType, let objectClass):
      return "a \(valueType) cannot be associated with a \(objectClass) under a COPY policy: "
        + "it does not adopt ObjCCopying. Adopt it, or use a RETAIN policy."
    case .notObservable(let className, let key, let reason):
      return "\(className) cannot be observed for \(String(reflecting: key)): \(reason)."
    case .observerNotRegistered(let className, let keyPath):
      return "the observer does not observe \(String(reflecting: keyPath)) on this \(className) "
        + "(with that context): removeObserver takes what addObserver was given."
    }
  }
}
