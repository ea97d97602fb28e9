// The root class: every object the runtime can message derives from `ObjCObject`.
import Synchronization

/// The root class of SwizzleKit's object model, the counterpart of objc4's `NSObject`.
///
/// Foundation on Linux already owns the name `NSObject`, hence `ObjCObject`. Every object the
/// runtime can message derives from it. Each object carries an isa, its runtime ``Class``, which
/// starts as the class realized for its Swift type and can be changed with `object_setClass(_:_:)`
/// (the basis of KVO-style dynamic subclasses). Messages are looked up from the isa, never from
/// the Swift type.
///
/// A subclass declares the methods it puts in the runtime's tables by overriding
/// ``objcDeclaration``; its runtime class is made the first time it is used, with no registration
/// call. Runtime methods that have a Swift entry point (a Swift method that continues into the
/// method table) can be overridden in Swift with `override func` and `super`: see
/// `Docs/Architecture.md`, "Swift overrides and the dynamic table".
open class ObjCObject: CustomStringConvertible, Hashable {
  /// The runtime class, as the address of a ``Class``. Atomic because `object_setClass` may race
  /// with sends to the same object; classes are never freed while an object points at them.
  @usableFromInline internal let isaWord: Atomic<UInt>

  /// The address of the object's association table, zero when it has none. The table itself is
  /// guarded by the association lock; the word is atomic so that deinit can test it without one.
  internal let associationWord: Atomic<UInt>

  /// The class an object starts with.
  public enum InitialClass: Sendable {
    /// The class the runtime realizes for the object's Swift type.
    case ofSwiftType
  }

  /// Makes an object whose runtime class is the class of its Swift type: `ObjCObject()`, or
  /// `super.init()` in a subclass.
  ///
  /// The initializer takes an argument (with a default) rather than none, so that a subclass
  /// isolated to a global actor, as the UIKit model's `UIResponder` is to the main actor, can
  /// declare an `init()` of its own: Swift does not let an isolated initializer override a
  /// nonisolated one.
  public init(_ initialClass: InitialClass = .ofSwiftType) {
    isaWord = Atomic(0)
    associationWord = Atomic(0)
    let cls = ClassRealizer.realizedAddress(of: type(of: self))
    isaWord.store(UInt(bitPattern: cls), ordering: .releasing)
  }

  /// Makes an object whose isa is set later; used for class objects, which exist before their
  /// metaclass.
  internal init(isaSetLater: Void) {
    isaWord = Atomic(0)
    associationWord = Atomic(0)
  }

  /// Releases the object's associations, after every subclass's deinit has run (Swift runs the
  /// root class's deinit last), as objc4's `objc_destructInstance` does after the C++ and Swift
  /// destructors.
  ///
  /// When some class's `dealloc` was hooked or swizzled, the runtime first sends `dealloc`
  /// through the method tables. It runs after every Swift subclass's deinit, so an
  /// implementation of `dealloc` may use the object's runtime state (class, associations) but not
  /// the stored properties of its Swift subclasses, which are gone by then.
  deinit {
    if Runtime.deallocIsCustomized.load(ordering: .acquiring) {
      sendDealloc()
    }
    if associationWord.load(ordering: .acquiring) != 0 {
      Associations.removeAll(self)
    }
    // The class outlives its instances (disposal waits for them), so no reference is taken.
    isa._withUnsafeGuaranteedRef { cls in
      if cls.isRuntimeMade {
        cls.liveInstances.subtract(1, ordering: .releasing)
      }
    }
  }

  /// Sends `dealloc` to the dying object through the method tables (not the Swift entry points:
  /// the Swift object is half destroyed).
  private func sendDealloc() {
    let cls = isa.takeUnretainedValue()
    let imp = cls.methodImplementation(for: RootMethods.deallocSelector)
    guard imp != .forward, imp != RootMethods.deallocIMP else { return }
    let function = unsafeBitCast(imp.rawValue, to: (@convention(c) (id, SEL) -> Void).self)
    function(
      id(OpaquePointer(Unmanaged.passUnretained(self).toOpaque())),
      RootMethods.deallocSelector.sel)
  }

  /// The runtime class, read without reference counting.
  @inlinable @inline(__always)
  internal final var isa: Unmanaged<Class> {
    Unmanaged.fromOpaque(
      UnsafeRawPointer(bitPattern: isaWord.load(ordering: .acquiring)).unsafelyUnwrapped)
  }

  internal final func setIsa(_ cls: Class) {
    isaWord.store(UInt(bitPattern: Unmanaged.passUnretained(cls).toOpaque()), ordering: .releasing)
  }

  // MARK: Declarations

  /// The methods and ivars this class puts in the runtime's tables, built the first time the class
  /// is used.
  ///
  /// Override it in every class that declares runtime methods, naming the class itself as the
  /// declaration's owner; a class that does not override it inherits its superclass's property,
  /// whose owner is the superclass, and so declares nothing of its own:
  ///
  /// ```swift
  /// final class Counter: ObjCObject {
  ///   var total = 0
  ///   override class var objcDeclaration: ObjCClassDeclaration {
  ///     ObjCClassDeclaration(Counter.self) {
  ///       ObjCMethodDeclaration("add:", Counter.addIMP)
  ///     }
  ///   }
  ///   static let addIMP: @convention(c) (id, SEL, Int) -> Int = { me, _, amount in
  ///     let counter = me.takeUnretainedObject(as: Counter.self)!
  ///     counter.total += amount
  ///     return counter.total
  ///   }
  /// }
  /// ```
  open class var objcDeclaration: ObjCClassDeclaration {
    RootMethods.declaration
  }

  // MARK: NSObject protocol

  /// The receiver's class as the runtime answers `-class`: normally its isa.
  ///
  /// Sent through the runtime, so a dynamic subclass can hide itself by adding a `class` method
  /// that returns the original class, as KVO does.
  public final var objcClass: Class {
    (try? sendClassMessage()) ?? isa.takeUnretainedValue()
  }

  private final func sendClassMessage() throws(ObjCRuntimeError) -> Class {
    try objc_msgSend(self, RootMethods.classSelector)
  }

  /// Whether the receiver's class implements or inherits a method for `selector`.
  ///
  /// Sees methods added at run time and methods with a Swift entry point alike. The corresponding
  /// objc4 method is `-respondsToSelector:`.
  public final func responds(to selector: Selector) -> Bool {
    class_respondsToSelector(isa.takeUnretainedValue(), selector)
  }

  /// Whether the receiver is an instance of `cls` or of a subclass of it, judged from its class
  /// as `-class` reports it. The corresponding objc4 method is `-isKindOfClass:`.
  public final func isKind(of cls: Class) -> Bool {
    var current: Class? = objcClass
    while let candidate = current {
      if candidate === cls { return true }
      current = candidate.superclass
    }
    return false
  }

  /// Whether the receiver's class, as `-class` reports it, is exactly `cls`. The corresponding
  /// objc4 method is `-isMemberOfClass:`.
  public final func isMember(of cls: Class) -> Bool {
    objcClass === cls
  }

  /// Sends a message that takes no argument and returns an object or nothing.
  ///
  /// Goes through the runtime like any send, so Swift overrides, swizzles and added methods are
  /// all seen. The corresponding objc4 method is `-performSelector:`.
  ///
  /// - Returns: The object the method returned, or nil when it returns nothing.
  /// - Throws: ``ObjCRuntimeError/unrecognizedSelector(_:)`` when nothing answers `selector`,
  ///   and ``ObjCRuntimeError/signatureMismatch(_:method:call:)`` when the method takes
  ///   arguments or returns something other than an object or nothing.
  @discardableResult
  public final func perform(_ selector: Selector) throws(ObjCRuntimeError) -> ObjCObject? {
    try PerformDispatch.perform(self, selector, argument: nil, argumentCount: 0)
  }

  /// Sends a message that takes one object and returns an object or nothing. The corresponding
  /// objc4 method is `-performSelector:withObject:`.
  ///
  /// - Throws: As ``perform(_:)``.
  @discardableResult
  public final func perform(_ selector: Selector, with object: ObjCObject?) throws(ObjCRuntimeError)
    -> ObjCObject?
  {
    try PerformDispatch.perform(self, selector, argument: object, argumentCount: 1)
  }

  /// Whether the receiver equals `other`: identity unless a subclass overrides it.
  ///
  /// This is the Swift entry point of `-isEqual:`. A subclass may override it in Swift; a method
  /// added to or swizzled into the table for `isEqual:` runs when the base implementation is
  /// reached. The corresponding objc4 method is `-isEqual:`.
  open func isEqual(_ other: ObjCObject?) -> Bool {
    (try? sendToTable(RootMethods.isEqualSelector, other) as Bool) ?? (self === other)
  }

  /// A hash that agrees with ``isEqual(_:)``: the address unless a subclass overrides it.
  ///
  /// The Swift entry point of `-hash`. The corresponding objc4 method is `-hash`.
  open var hash: Int {
    (try? sendToTable(RootMethods.hashSelector) as UInt).map { Int(bitPattern: $0) }
      ?? ObjectIdentifier(self).hashValue
  }

  // MARK: Initialization

  /// A new instance of this Swift class made without arguments, for code that cannot call Swift
  /// initializers: `+alloc` sent from Objective-C compiled by gcc (the GNUObjC module). Nil when
  /// the class cannot be made so; the default makes the root class only, since a subclass's
  /// initializers are its own.
  ///
  /// Override it in a class whose objects Objective-C may allocate, returning an instance of the
  /// class itself; Objective-C's `-init` then runs on it. A class made at run time under this
  /// one gets an instance of this class with its isa set to the runtime class.
  open class func makeInstance() -> ObjCObject? {
    self == ObjCObject.self ? ObjCObject() : nil
  }

  /// Sent once to each class before the class or one of its instances receives its first
  /// message, superclasses first, as objc4 sends `+initialize`. The message goes through the
  /// class's table, so it can be hooked or swizzled; a class that does not implement it inherits
  /// its superclass's, which then runs once for the superclass and again for this class (check
  /// `self == MyClass.self`, as Objective-C code checks `self == [MyClass class]`). The default
  /// does nothing. The thread that runs it may message the class meanwhile; other threads that
  /// message it wait until it returns.
  open class func initialize() {}

  // MARK: Key-value observing

  /// Called on an observer when a key path it observes changed (see
  /// ``addObserver(_:forKeyPath:options:context:)``), with the values it asked for. The default
  /// does nothing; override it in the observer's class. Foundation's
  /// `-observeValueForKeyPath:ofObject:change:context:`.
  open func observeValue(
    forKeyPath keyPath: String, of object: ObjCObject, change: KeyValueChange,
    context: UnsafeMutableRawPointer?
  ) {}

  // MARK: Message forwarding

  /// Called once when a send finds no instance method for `selector`; add one (with
  /// `class_addMethod`) and return true to have the send retried. The corresponding objc4 method
  /// is `+resolveInstanceMethod:`.
  open class func resolveInstanceMethod(_ selector: Selector) -> Bool {
    false
  }

  /// Called once when a send to the class finds no class method for `selector`. The
  /// corresponding objc4 method is `+resolveClassMethod:`.
  open class func resolveClassMethod(_ selector: Selector) -> Bool {
    false
  }

  /// An object to re-send an unanswered message to, arguments intact; nil (the default) moves on
  /// to ``methodSignature(for:)``. The Swift entry point of `-forwardingTargetForSelector:`.
  open func forwardingTarget(for selector: Selector) -> ObjCObject? {
    (try? sendToTable(RootMethods.forwardingTargetSelector, selector) as ObjCObject?) ?? nil
  }

  /// The types of `selector`, so that an unanswered message can be packed into an
  /// ``Invocation``; by default the signature of the method the class has, if any. The Swift entry
  /// point of `-methodSignatureForSelector:`.
  open func methodSignature(for selector: Selector) -> MethodSignature? {
    (try? sendToTable(RootMethods.methodSignatureSelector, selector) as MethodSignature?) ?? nil
  }

  /// Receives an unanswered message as an ``Invocation``: invoke it on another object, change its
  /// arguments, or set its return value. The default does not answer, and the runtime then calls
  /// ``doesNotRecognizeSelector(_:)``. The Swift entry point of `-forwardInvocation:`.
  open func forwardInvocation(_ invocation: Invocation) {
    try? sendToTable(RootMethods.forwardInvocationSelector, invocation as ObjCObject?) as Void
  }

  /// Ends forwarding: the default throws ``ObjCRuntimeError/unrecognizedSelector(_:)`` naming
  /// `-[Class selector]`, which the send rethrows to its caller. The corresponding objc4 method is
  /// `-doesNotRecognizeSelector:`, which raises an exception instead.
  open func doesNotRecognizeSelector(_ selector: Selector) throws(ObjCRuntimeError) -> Never {
    throw .unrecognizedSelector(
      MethodReference(owner: isa.takeUnretainedValue(), selector: selector))
  }

  // MARK: Key-value coding

  /// Whether key-value coding may read and write ivars when no accessor answers a key; true, as
  /// in Foundation. The corresponding Foundation property is `+accessInstanceVariablesDirectly`.
  open class var accessInstanceVariablesDirectly: Bool {
    true
  }

  /// Called by ``value(forKey:)`` when nothing answers `key`; the default throws
  /// ``ObjCRuntimeError/undefinedKey(className:key:)`` (Foundation raises
  /// `NSUndefinedKeyException`).
  open func value(forUndefinedKey key: String) throws(ObjCRuntimeError) -> Any? {
    throw .undefinedKey(className: isa.takeUnretainedValue().name, key: key)
  }

  /// Called by ``setValue(_:forKey:)`` when nothing answers `key`; the default throws
  /// ``ObjCRuntimeError/undefinedKey(className:key:)``.
  open func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjCRuntimeError) {
    throw .undefinedKey(className: isa.takeUnretainedValue().name, key: key)
  }

  /// `<ClassName: 0x…>`, with the class the isa names (so a dynamic subclass shows).
  open var description: String {
    let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
    return "<\(isa.takeUnretainedValue().name): 0x\(String(address, radix: 16))>"
  }

  /// Equality through ``isEqual(_:)``.
  public static func == (lhs: ObjCObject, rhs: ObjCObject) -> Bool {
    lhs.isEqual(rhs)
  }

  /// Hashes ``hash``.
  public final func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }
}
