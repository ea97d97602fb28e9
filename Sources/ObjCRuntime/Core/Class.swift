// Runtime classes: a name, a superclass, a metaclass, a method list and two caches.
import Synchronization

/// A class of the runtime, the counterpart of objc4's `Class`.
///
/// A class is itself an object: its isa is its metaclass, whose method list holds the class
/// methods. The metaclass chain follows objc4: a metaclass's superclass is the superclass's
/// metaclass, the root metaclass's superclass is the root class, and every metaclass's isa is the
/// root metaclass. Classes live as long as the process.
///
/// Swift subclasses of ``ObjCObject`` get their class on first use; classes can also be made at
/// run time (`objc_allocateClassPair`, `API/ClassPairs.swift`).
public final class Class: ObjCObject, @unchecked Sendable {
  // @unchecked Sendable: `name`, `superclass`, `isMetaClass` and `storageType` never change after
  // init; the method tables, entries and subclass list are read and written only under the
  // runtime lock (Runtime.state); the caches follow their own single-writer protocol.

  /// The class's name, unique among classes.
  public let name: String
  /// The superclass; nil for the root class.
  public let superclass: Class?
  /// Whether this is a metaclass.
  public let isMetaClass: Bool
  /// The Swift class whose storage every instance has: the class itself for a Swift class, the
  /// nearest Swift ancestor for a class made at run time, `Class` for metaclasses.
  public let storageType: ObjCObject.Type

  /// The cache the send path probes: Swift entry points and methods.
  @usableFromInline internal let sendCache = MethodCache()
  /// The cache Swift entry points and `objc_msgSendSuper` probe: methods only.
  @usableFromInline internal let tableCache = MethodCache()

  // Guarded by the runtime lock, which already makes every access exclusive: the dynamic
  // exclusivity checks Swift would add to each access of a class's stored property (about 100
  // instructions per mutation) are switched off for these.
  @exclusivity(unchecked) internal var methodTable: [Selector: Method] = [:]
  @exclusivity(unchecked) internal var methodList: [Method] = []
  @exclusivity(unchecked) internal var swiftEntries: [Selector: Method] = [:]
  @exclusivity(unchecked) internal var subclasses: [Class] = []
  /// The metaclass, held strongly: the isa word does not retain it.
  @exclusivity(unchecked) internal var retainedMetaclass: Class?
  @exclusivity(unchecked) internal var ivarList: [Ivar] = []
  /// The declared properties, under the runtime lock.
  @exclusivity(unchecked) internal var propertyList: [Property] = []
  /// The instance size once ivars were added at run time; nil while none were.
  @exclusivity(unchecked) internal var addedInstanceSize: Int?

  /// Whether the class was made with `objc_allocateClassPair` (and so may be disposed of).
  public let isRuntimeMade: Bool
  /// Objects whose isa was set to this class and that are still alive; counted for classes made
  /// at run time only, so that `objc_disposeClassPair` can refuse to free a class in use.
  internal let liveInstances = Atomic<Int>(0)
  /// Whether the class was disposed of. `object_setClass` counts the object in
  /// ``liveInstances`` before it reads this, and disposal sets this before it reads the count
  /// (both sequentially consistent), so a class cannot be disposed of under an object that is
  /// given it at the same moment.
  internal let isDisposed = Atomic<Bool>(false)
  /// Whether `+initialize` was sent to the class and returned (set with release, read with
  /// acquire by ``Initialization``).
  internal let initialized = Atomic<Bool>(false)
  /// Whether an isa-swizzler made the class to sit between objects and their class
  /// (``isIsaLayer``).
  internal let isaLayer = Atomic<Bool>(false)

  /// Whether the class has received `+initialize` (before its first message, or one to its
  /// instances): objc4 answers the same question with the private `_class_isInitialized`.
  public var isInitialized: Bool { initialized.load(ordering: .acquiring) }

  internal init(
    name: String, superclass: Class?, isMetaClass: Bool, storageType: ObjCObject.Type,
    isRuntimeMade: Bool = false
  ) {
    self.name = name
    self.superclass = superclass
    self.isMetaClass = isMetaClass
    self.storageType = storageType
    self.isRuntimeMade = isRuntimeMade
    super.init(isaSetLater: ())
  }

  /// The Swift class this runtime class was realized for; nil for classes made at run time and
  /// for metaclasses. This is what the seeds' discovery casts: on iOS a class from
  /// `objc_getClassList` is itself a Swift type, here it is a runtime object, so
  /// `cls.swiftClass as? any SelfAware.Type` plays the part of `cls as? SelfAware.Type`.
  public var swiftClass: ObjCObject.Type? {
    isMetaClass || isRuntimeMade ? nil : storageType
  }

  /// The metaclass of a class, or the root metaclass for a metaclass.
  public var metaclass: Class {
    isa.takeUnretainedValue()
  }

  /// The description of a class is its name.
  public override var description: String { name }

  /// The superclass chain starting at the receiver.
  internal var lineage: some Sequence<Class> {
    sequence(first: self) { $0.superclass }
  }

  /// Whether `ancestor` is the receiver or one of its superclasses.
  public func inherits(from ancestor: Class) -> Bool {
    // A plain loop: `lineage.contains` goes through a generic unfold sequence, which dominated
    // the ownership check of every `object_getIvar`. Unretained: each class holds its
    // superclass for good.
    let target = Unmanaged.passUnretained(ancestor).toOpaque()
    var current: Unmanaged<Class>? = Unmanaged.passUnretained(self)
    while let level = current {
      if level.toOpaque() == target { return true }
      current = level._withUnsafeGuaranteedRef {
        $0.superclass.map { Unmanaged.passUnretained($0) }
      }
    }
    return false
  }

  // MARK: Lookup, under the runtime lock

  /// The first method for `selector` in the receiver's lineage, optionally preferring Swift
  /// entry points anywhere in it (entries are the outermost layer).
  ///
  /// One walk, unretained (the runtime lock keeps every class of the lineage alive), that skips
  /// empty tables without hashing: the first send after a flush walks the whole chain.
  internal func findMethod(_ selector: Selector, includingEntries: Bool) -> Method? {
    var found: Method?
    var current: Unmanaged<Class>? = Unmanaged.passUnretained(self)
    while let level = current {
      let (entry, next) = level._withUnsafeGuaranteedRef { cls -> (Method?, Unmanaged<Class>?) in
        if includingEntries, !cls.swiftEntries.isEmpty, let entry = cls.swiftEntries[selector] {
          return (entry, nil)
        }
        if found == nil, !cls.methodTable.isEmpty, let method = cls.methodTable[selector] {
          found = method
          // Without entries, the nearest table's method is the answer.
          if !includingEntries { return (nil, nil) }
        }
        return (nil, cls.superclass.map { Unmanaged.passUnretained($0) })
      }
      if let entry { return entry }
      current = next
    }
    return found
  }

  /// Adds `method` to the receiver's own list (kept oldest first; read newest first, as objc4
  /// lists them).
  internal func appendMethod(_ method: Method) {
    Runtime.state.assertHeld()
    methodTable[method.selector] = method
    methodList.append(method)
  }

  /// Flushes the caches of the receiver and every class below it; returns the classes whose
  /// caches held something.
  internal func flushCachesOfSubtree() -> [Class] {
    Runtime.state.assertHeld()
    var flushed: [Class] = []
    var pending: [Class] = [self]
    while let cls = pending.popLast() {
      let sent = cls.sendCache.flush()
      let table = cls.tableCache.flush()
      if sent || table { flushed.append(cls) }
      pending.append(contentsOf: cls.subclasses)
    }
    return flushed
  }
}

extension ObjCObject {
  /// The runtime class of this Swift type, made on first use.
  public static var runtimeClass: Class {
    ClassRealizer.realize(self)
  }
}
