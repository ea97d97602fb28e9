// Reading one key by key-value coding's search, resolved once per class for the readers key-value
// observing keeps, and once per call for value(forKey:).

/// How key-value coding reads one key: the accessor `get<Key>`, `<key>`, `is<Key>` or `_<key>`
/// the class answers, else its ivar, else undefined. A reader makes the key's selectors once and
/// keeps the resolution for the last class read; it resolves again when a method was added
/// anywhere since (each addition flushes method caches, which ``MethodCache/flushes`` counts),
/// for another Swift type, or when an accessor's implementation came or went. Key-value
/// observing reads old and new values through one reader per key; `value(forKey:)` resolves
/// for its one call (``read(_:of:)``), keeping nothing.
internal final class KeyReader: Sendable {
  /// The key.
  let key: String
  private let capitalized: String
  /// `get<Key>`, `<key>`, `is<Key>`, `_<key>`: the accessors, in Foundation's order.
  private let accessors: [Selector]

  /// A getter resolved for a class and a Swift type (`accessInstanceVariablesDirectly` is the
  /// type's), at a count of cache flushes: an accessor method, else an ivar, else neither
  /// (undefined). An implementation set or exchanged flushes nothing, so the accessors passed
  /// over for having none (an Aspects-style forward) are kept, and the resolution holds only
  /// while they still have none and the chosen one still has one. A read checks it under the
  /// lock and takes out only its ``Getter``: a method's getter is two plain values, with nothing
  /// to retain.
  private final class Resolution: Sendable {
    let cls: ObjectIdentifier
    let type: ObjectIdentifier
    let generation: Int
    let method: Method?
    let passedOver: [Method]
    /// How the value is read.
    let getter: Getter

    init(
      cls: ObjectIdentifier, type: ObjectIdentifier, generation: Int, method: Method?,
      code: UInt8, ivar: Ivar?, passedOver: [Method]
    ) {
      self.cls = cls
      self.type = type
      self.generation = generation
      self.method = method
      self.passedOver = passedOver
      if let method {
        getter = .method(method.selector, code)
      } else if let ivar {
        getter = .ivar(ivar)
      } else {
        getter = .undefined
      }
    }

    /// The getter, if the resolution holds for `cls`, `type` and `generation`.
    @inline(__always)
    func getter(for cls: ObjectIdentifier, _ type: ObjectIdentifier, at generation: Int) -> Getter?
    {
      holds(for: cls, type, at: generation) ? getter : nil
    }

    @inline(__always)
    func holds(for cls: ObjectIdentifier, _ type: ObjectIdentifier, at generation: Int) -> Bool {
      guard self.cls == cls, self.type == type, self.generation == generation else {
        return false
      }
      if let method, method.implementation == nil { return false }
      return passedOver.allSatisfy { $0.implementation == nil }
    }
  }

  /// A resolved getter: an accessor method (its selector, and the result code DynamicSend reads
  /// it with), an ivar, or neither (undefined).
  private enum Getter {
    case method(Selector, UInt8)
    case ivar(Ivar)
    case undefined

    /// The value of `key` in `object`.
    @inline(__always)
    func value(of object: ObjCObject, key: String) throws(ObjCRuntimeError) -> Any? {
      switch self {
      case .method(let selector, let code):
        // The code was one DynamicSend reads when resolved: it answers a value.
        return try DynamicSend.get(object, selector, returning: code) ?? nil
      case .ivar(let ivar): return try object.value(of: ivar)
      case .undefined: return try object.value(forUndefinedKey: key)
      }
    }
  }

  /// The resolution for the last class read.
  private let last = RuntimeLock<Resolution?>(nil)

  /// A reader of `key`.
  init(_ key: String) {
    self.key = key
    capitalized = KeyReader.capitalized(key)
    accessors = KeyReader.accessors(key, capitalized)
  }

  /// The value of the key in `object`, as `value(forKey:)` reads it, through the resolution
  /// kept for its class while it holds.
  func read(_ object: ObjCObject) throws(ObjCRuntimeError) -> Any? {
    // The class by identity, without a retain: the object holds it.
    let identity = object.isa._withUnsafeGuaranteedRef { ObjectIdentifier($0) }
    let type = ObjectIdentifier(Swift.type(of: object))
    let generation = MethodCache.flushes.load(ordering: .acquiring)
    if let getter = last.withLock({ $0?.getter(for: identity, type, at: generation) }) {
      return try getter.value(of: object, key: key)
    }
    let made = KeyReader.resolve(
      key, capitalized, accessors, in: object.isa.takeUnretainedValue(), for: object,
      at: generation)
    last.withLock { $0 = made }
    return try made.getter.value(of: object, key: key)
  }

  /// The value of `key` in `object`, resolved for this one read: `value(forKey:)`, which keeps
  /// no reader (its keys are any string).
  static func read(_ key: String, of object: ObjCObject) throws(ObjCRuntimeError) -> Any? {
    let capitalized = capitalized(key)
    return try resolve(
      key, capitalized, accessors(key, capitalized), in: object.isa.takeUnretainedValue(),
      for: object, at: MethodCache.flushes.load(ordering: .acquiring)
    ).getter.value(of: object, key: key)
  }

  private static func capitalized(_ key: String) -> String {
    key.prefix(1).uppercased() + key.dropFirst()
  }

  private static func accessors(_ key: String, _ capitalized: String) -> [Selector] {
    ["get\(capitalized)", key, "is\(capitalized)", "_\(key)"].map { Selector($0) }
  }

  /// The getter of `cls` for `key`, searched in Foundation's order, with the accessors passed
  /// over for having no implementation.
  private static func resolve(
    _ key: String, _ capitalized: String, _ accessors: [Selector], in cls: Class,
    for object: ObjCObject, at generation: Int
  ) -> Resolution {
    var passedOver: [Method] = []
    func resolution(_ method: Method?, _ code: UInt8, _ ivar: Ivar?) -> Resolution {
      Resolution(
        cls: ObjectIdentifier(cls), type: ObjectIdentifier(Swift.type(of: object)),
        generation: generation, method: method, code: code, ivar: ivar, passedOver: passedOver)
    }
    for selector in accessors {
      guard let method = cls.instanceMethod(for: selector) else { continue }
      guard method.implementation != nil else {
        passedOver.append(method)
        continue
      }
      guard method.signature.encoding.argumentTypes.count == 2,
        let code = SignatureCode.code(of: method.signature.encoding.returnType),
        DynamicSend.reads(code)
      else { continue }
      return resolution(method, code, nil)
    }
    if Swift.type(of: object).accessInstanceVariablesDirectly,
      let ivar = object.ivarForKey(key, capitalized, in: cls)
    {
      return resolution(nil, 0, ivar)
    }
    return resolution(nil, 0, nil)
  }
}
