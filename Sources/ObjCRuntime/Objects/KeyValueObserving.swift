// Key-value observing, as Foundation does it: the observed object's isa is swizzled to a hidden
// subclass (`NSKVONotifying_Class`) whose setters notify around the original's, and whose
// `-class` answers the class the object showed before.

/// What an observer asks to be told, as Foundation's `NSKeyValueObservingOptions`.
public struct KeyValueObservingOptions: OptionSet, Sendable {
  /// The raw bits.
  public let rawValue: Int
  /// A set of options.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The value after the change.
  public static let new = KeyValueObservingOptions(rawValue: 1)
  /// The value before the change.
  public static let old = KeyValueObservingOptions(rawValue: 2)
  /// A notification right away, when the observer is added, with the current value.
  public static let initial = KeyValueObservingOptions(rawValue: 4)
  /// A notification before each change as well as after it.
  public static let prior = KeyValueObservingOptions(rawValue: 8)
}

/// A change an observer is told about: Foundation's change dictionary, typed.
public struct KeyValueChange {
  /// The value before the change, when the observer asked for `.old`.
  public let oldValue: Any?
  /// The value after the change, when it asked for `.new` (or the current one, for `.initial`).
  public let newValue: Any?
  /// Whether this is the notification before the change (`.prior`).
  public let isPrior: Bool
}

extension ObjCObject {
  /// Tells `observer` about every change of `keyPath` (one key, such as `"contentOffset"`) made
  /// through its setter, with `observeValue(forKeyPath:of:change:context:)`. The first observer
  /// turns this object into an instance of a hidden subclass (`NSKVONotifying_Class`) whose
  /// setter for the key notifies around the original; `-class` still answers the class the
  /// object showed before. The observer is held weakly, as Foundation holds it unretained.
  ///
  /// - Throws: ``ObjCRuntimeError/notObservable(className:key:reason:)`` when the key path has
  ///   more than one key, or the object's class has no setter for the key in its tables (declare
  ///   `setKey:`, or notify with ``willChangeValue(forKey:)`` and ``didChangeValue(forKey:)``);
  ///   the object is unchanged then.
  public final func addObserver(
    _ observer: ObjCObject, forKeyPath keyPath: String,
    options: KeyValueObservingOptions = [], context: UnsafeMutableRawPointer? = nil
  ) throws(ObjCRuntimeError) {
    try KeyValueObserving.observe(
      self, by: observer, key: keyPath, options: options, context: UInt(bitPattern: context))
  }

  /// Stops telling `observer` about `keyPath` (with `context`, when given); the last observer
  /// gone, the object gets its class back, unless someone isa-swizzled it on top meanwhile.
  ///
  /// - Throws: ``ObjCRuntimeError/observerNotRegistered(className:keyPath:)`` when `observer` does
  ///   not observe `keyPath` here (Foundation raises); nothing changes then.
  public final func removeObserver(
    _ observer: ObjCObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer? = nil
  ) throws(ObjCRuntimeError) {
    try KeyValueObserving.stopObserving(
      self, by: observer, key: keyPath, context: context.map { UInt(bitPattern: $0) })
  }

  /// Says that `key` is about to change: observers that asked for `.prior` are told now. The
  /// setters of an observed object call it; call it yourself for a change made another way,
  /// paired with ``didChangeValue(forKey:)``.
  public final func willChangeValue(forKey key: String) {
    KeyValueObserving.willChange(self, key: key)
  }

  /// Says that `key` changed: observers are told, with the values they asked for.
  public final func didChangeValue(forKey key: String) {
    KeyValueObserving.didChange(self, key: key)
  }
}

/// The machinery behind ``ObjCObject/addObserver(_:forKeyPath:options:context:)``.
internal enum KeyValueObserving {
  /// The object's observation table (``ObservationTable``), under its association.
  static let tableKey = AssociatedKey<ObservationTable?>()
  /// Serializes making observation tables, hidden classes and their setters, and keeps the
  /// setters' interceptors alive (the process may call their IMPs as long as it runs).
  private static let classes = RuntimeLock<[Interceptor]>([])
  /// The reader of each key observed in the process, interned (keys are few; they live as long
  /// as the process).
  private static let readers = RuntimeLock<[String: KeyReader]>([:])

  /// The interned reader of `key`.
  static func reader(for key: String) -> KeyReader {
    readers.withLock { readers in
      if let known = readers[key] { return known }
      let made = KeyReader(key)
      readers[key] = made
      return made
    }
  }
  /// The prefix of the hidden classes, Foundation's.
  static let prefix = "NSKVONotifying_"

  static func observe(
    _ object: ObjCObject, by observer: ObjCObject, key: String,
    options: KeyValueObservingOptions, context: UInt
  ) throws(ObjCRuntimeError) {
    let shown = object.objcClass
    guard !key.isEmpty, !key.contains(".") else {
      throw .notObservable(
        className: shown.name, key: key,
        reason: "observe one key (\"contentOffset\"); for a path, observe each object on it")
    }
    guard !object.isa.takeUnretainedValue().isMetaClass else {
      throw .notObservable(
        className: shown.name, key: key,
        reason: "it is a class object, whose class is a metaclass: its instances' hidden class"
          + " \(prefix)\(shown.name) cannot serve it. Observe an instance, or keep the value in"
          + " an object")
    }
    let setter = setterSelector(for: key)
    let types = try setterTypes(object, setter, key: key)
    // Values asked for must be readable: Foundation raises on the first change otherwise.
    if !options.isDisjoint(with: [.old, .new, .initial]) {
      do {
        _ = try object.value(forKey: key)
      } catch {
        throw .notObservable(
          className: shown.name, key: key,
          reason: "its value cannot be read (\(error)); declare a getter, or observe without"
            + " .old, .new and .initial")
      }
    }
    let table = makeTable(for: object)
    // The whole change under the table's lock, the isa included: a removal on another thread
    // sees the registration and the class together, never one without the other. And under
    // the object's class-change lock: a hook engine on another thread does not change its
    // class meanwhile.
    try ClassChangeLock.withLock(for: ObjectIdentifier(object)) { () throws(ObjCRuntimeError) in
      try register(object, table, observer, key, setter, types, options, context)
    }
    if options.contains(.initial) {
      let value = options.contains(.new) ? read(object, key) : nil
      observer.observeValue(
        forKeyPath: key, of: object,
        change: KeyValueChange(oldValue: nil, newValue: value, isPrior: false),
        context: UnsafeMutableRawPointer(bitPattern: context))
    }
  }

  /// The registration and the class change of ``observe(_:by:key:options:context:)``, under
  /// the locks.
  private static func register(
    _ object: ObjCObject, _ table: ObservationTable, _ observer: ObjCObject, _ key: String,
    _ setter: Selector, _ types: String, _ options: KeyValueObservingOptions, _ context: UInt
  ) throws(ObjCRuntimeError) {
    try table.state.withLock { state throws(ObjCRuntimeError) in
      let current = object.isa.takeUnretainedValue()
      // The hidden class: the one the object has, or one made (or found) for its class now,
      // under the global lock: two objects of one class observed at once share one class.
      // A hidden class of ours still in the object's chain (someone's layer on top of it) is
      // used again: its setters still notify. A new one on top would notify twice.
      let hidden: Class
      if let known = state.hidden, known === current || current.inherits(from: known) {
        hidden = known
      } else {
        hidden = try classes.withLock { _ throws(ObjCRuntimeError) -> Class in
          try hiddenClass(below: current)
        }
      }
      try addNotifyingSetter(setter, key: key, types: types, to: hidden)
      // Not on the hidden class (or a class above it): put it there, first: if the object
      // cannot take it, nothing is registered. The hidden class may be known already (the
      // object was given its class back by someone else meanwhile).
      if current !== hidden, !current.inherits(from: hidden) {
        do {
          _ = try object.setClassUnsettled(hidden)
        } catch {
          throw .notObservable(
            className: object.objcClass.name, key: key,
            reason: "its class cannot be changed (\(error))")
        }
        state.original = current
        state.hidden = hidden
      }
      state.nextNumber += 1
      state.registrations.append(
        ObservationTable.Registration(
          observer: observer, identity: ObjectIdentifier(observer), reader: reader(for: key),
          options: options, context: context, number: state.nextNumber))
    }
  }

  /// The type encoding of `object`'s setter for `key`.
  private static func setterTypes(_ object: ObjCObject, _ setter: Selector, key: String)
    throws(ObjCRuntimeError) -> String
  {
    let current = object.isa.takeUnretainedValue()
    // A setter whose implementation is the forward IMP (Aspects hooked it) is a setter: its
    // calls forward, and Foundation observes it as any other.
    guard let method = current.instanceMethod(for: setter) else {
      throw .notObservable(
        className: object.objcClass.name, key: key,
        reason: "it has no setter \(setter) in its method tables; declare one, or notify "
          + "with willChangeValue(forKey:) and didChangeValue(forKey:)")
    }
    return method.typeEncoding
  }

  static func stopObserving(
    _ object: ObjCObject, by observer: ObjCObject, key: String, context: UInt?
  ) throws(ObjCRuntimeError) {
    guard let table = object[tableKey] else {
      throw .observerNotRegistered(className: object.objcClass.name, keyPath: key)
    }
    try ClassChangeLock.withLock(for: ObjectIdentifier(object)) { () throws(ObjCRuntimeError) in
      try unregister(object, table, observer, key, context)
    }
  }

  /// The removal and the class change of ``stopObserving(_:by:key:context:)``, under the locks.
  private static func unregister(
    _ object: ObjCObject, _ table: ObservationTable, _ observer: ObjCObject, _ key: String,
    _ context: UInt?
  ) throws(ObjCRuntimeError) {
    let restored = try table.state.withLock { state throws(ObjCRuntimeError) -> Class? in
      guard
        let index = state.registrations.lastIndex(where: {
          $0.belongs(to: observer) && $0.reader.key == key
            && (context == nil || $0.context == context)
        })
      else {
        throw .observerNotRegistered(className: object.objcClass.name, keyPath: key)
      }
      state.registrations.remove(at: index)
      state.registrations.removeAll {
        $0.observer == nil && $0.identity != ObjectIdentifier(observer)
      }
      guard state.registrations.isEmpty, let original = state.original,
        let hidden = state.hidden
      else { return nil }
      // The object gets its class back only if it still has ours: someone who isa-swizzled it
      // on top keeps theirs, and ours stays under it, notifying nobody, until the object comes
      // back to it (then it goes on to the original: `settle`).
      guard object.isa.takeUnretainedValue() === hidden else { return nil }
      state.original = nil
      state.hidden = nil
      _ = try? object.setClassUnsettled(original)
      return original
    }
    // The class below may be a layer its owner no longer needs either.
    if let restored, restored.isIsaLayer { IsaLayers.arrived(object, at: restored) }
  }

  /// An object was just given `cls`, one of the hidden classes, by someone else (a hook
  /// library taking its own class off): if nobody observes it any more, it goes on to the
  /// class it had before it was observed, so no hidden class is left behind.
  static func settle(_ object: ObjCObject, arrivedAt cls: Class) {
    guard let table = object[tableKey] else { return }
    ClassChangeLock.withLock(for: ObjectIdentifier(object)) {
      settleLocked(object, table, arrivedAt: cls)
    }
  }

  private static func settleLocked(
    _ object: ObjCObject, _ table: ObservationTable, arrivedAt cls: Class
  ) {
    let restored = table.state.withLock { state -> Class? in
      guard state.hidden === cls, let original = state.original,
        !state.registrations.contains(where: { $0.observer != nil })
      else { return nil }
      state.registrations.removeAll()
      state.original = nil
      state.hidden = nil
      _ = try? object.setClassUnsettled(original)
      return original
    }
    if let restored, restored.isIsaLayer { IsaLayers.arrived(object, at: restored) }
  }

  /// The object's observation table, made if it has none: under the lock, so that two first
  /// observers (or a first observer and a change) on two threads share one table.
  static func makeTable(for object: ObjCObject) -> ObservationTable {
    classes.withLock { _ in
      if let table = object[tableKey] { return table }
      let made = ObservationTable()
      object[tableKey] = made
      return made
    }
  }

  /// The calling thread, as a number.
  static func currentThread() -> UInt { CurrentThread.identifier }

  /// `setContentOffset:` for `contentOffset`.
  static func setterSelector(for key: String) -> Selector {
    Selector("set" + key.prefix(1).uppercased() + key.dropFirst() + ":")
  }

  /// The value of `key`, read by key-value coding; nil when it cannot be read.
  private static func read(_ object: ObjCObject, _ key: String) -> Any? {
    (try? reader(for: key).read(object)) ?? nil
  }

  /// The hidden subclass of `base`: found by its name when made before, made and registered
  /// otherwise, with a `-class` that answers what `base`'s instances show.
  private static func hiddenClass(below base: Class) throws(ObjCRuntimeError) -> Class {
    let name = base.subclassName(prefix: prefix)
    if let known = objc_getClass(name), known.superclass === base { return known }
    guard let hidden = objc_allocateClassPair(base, name, 0) else {
      throw .notObservable(
        className: base.name, key: "", reason: "the name \(name) is taken by another class")
    }
    // `-class`: what the class below answers (the class the object showed), unless that is the
    // root's answer, the isa (this class, or another isa-swizzler's on top of it).
    let showsClass = try imp_implementationWithBlock { (me: ObjCObject) -> Class in
      let answer: Class? = try? objc_msgSendSuper(
        ObjCSuper(receiver: me, superclass: base), "class")
      return base.shownClass(answer: answer)
    }
    _ = try hidden.addMethod("class", implementation: showsClass, types: "#@:")
    hidden.markIsaLayer()
    objc_registerClassPair(hidden)
    return hidden
  }

  /// Gives `hidden` a setter for `key` that notifies around the implementation of the class
  /// below, looked up on every call (so a swizzle made there later is seen), unless it has one.
  private static func addNotifyingSetter(
    _ setter: Selector, key: String, types: String, to hidden: Class
  ) throws(ObjCRuntimeError) {
    try classes.withLock { interceptors throws(ObjCRuntimeError) in
      guard !hidden.methods.contains(where: { $0.selector == setter }) else { return }
      let below = hidden.superclass
      let reader = reader(for: key)
      let interceptor = try Interceptor(types: types) { call in
        // Retained, not borrowed: observers run in the middle of the call, and one that drops
        // the last reference to the object must not free it under the notification.
        let object = call.receiver
        let table = willChange(object, reader)
        if let original = class_getMethodImplementation(below, setter) {
          call.forward(to: original)
        }
        didChange(object, reader, in: table)
      }
      _ = try hidden.addMethod(setter, implementation: interceptor.implementation, types: types)
      interceptors.append(interceptor)
    }
  }
}
