// The part of Foundation's NSObject that Objective-C code under manual reference counting needs:
// +alloc, +new, -init, -retain, -release, -autorelease, added to the root class's tables.
import Glibc
import ObjCRuntime
import Synchronization

enum Foundation {
  /// The root class: gcc's code calls it `NSObject`, SwizzleKit `ObjCObject` (Foundation on
  /// Linux owns the Swift name NSObject).
  static var rootClass: Class { ObjCObject.runtimeClass }

  /// The class gcc's code names `name`: `NSObject` is the root class.
  static func lookUpClass(_ name: String) -> Class? {
    name == "NSObject" ? rootClass : objc_getClass(name)
  }

  /// Attaches the methods (once) as a category of the root class.
  static func install() {
    _ = installed
  }

  private static let installed: Bool = {
    let root = rootClass
    // Realized now, so that gcc's code finds them by name: NSString, NSConstantString, NSNumber,
    // NSValue.
    _ = (ObjCString.runtimeClass, ConstantStrings.runtimeClass, ObjCNumber.runtimeClass)
    do throws(ObjCRuntimeError) {
      try root.attachCategory(
        "NSObjectMRC",
        methods: [
          CategoryMethod("init", try IMP(initialize), "@@:"),
          CategoryMethod("retain", try IMP(retain), "@@:"),
          CategoryMethod("release", try IMP(release), "v@:"),
          CategoryMethod("autorelease", try IMP(autorelease), "@@:"),
          CategoryMethod("description", try IMP(describe), "@@:"),
        ],
        classMethods: [
          CategoryMethod("alloc", try IMP(alloc), "@@:"),
          CategoryMethod("new", try IMP(new), "@@:"),
        ])
      try ObjCValue.runtimeClass.metaclass.attachCategory("UIGeometry", methods: ObjCValue.makers)
      return true
    } catch {
      Diagnostics.warn("Objective-C: the root class's NSObject methods were refused: \(error)")
      return false
    }
  }()

  /// `+alloc`: a new instance, retained (+1), made by the Swift class's
  /// `ObjCObject.makeInstance()` (a class made at run time, such as the classes a `.m` file
  /// defines, gets its nearest Swift class's instance with its isa set). A Swift class that
  /// does not override it cannot be allocated from Objective-C: the send answers nil, with a
  /// warning.
  static let alloc: @convention(c) (id, SEL) -> id? = { me, _ in
    guard let cls = me.takeUnretainedObject(as: Class.self) else { return nil }
    guard let object = cls.storageType.makeInstance() else {
      Diagnostics.warn(
        "+[\(cls.name) alloc]: the Swift class \(cls.storageType) does not make instances for"
          + " Objective-C (override makeInstance() to let it)")
      return nil
    }
    if object_getClass(object) !== cls {
      do throws(ObjCRuntimeError) {
        try object.setClass(cls)
      } catch {
        Diagnostics.warn("+[\(cls.name) alloc]: \(error)")
        return nil
      }
    }
    return object.passRetained()
  }

  /// `+new`: `[[cls alloc] init]`, the class's own `-init` included.
  static let new: @convention(c) (id, SEL) -> id? = { me, _ in
    let initSelector: Selector = "init"
    guard let object = alloc(me, Selector("alloc").sel),
      let cls = object_getClass(object.takeUnretainedObject()),
      let imp = class_getMethodImplementation(cls, initSelector)
    else { return nil }
    typealias Initializer = @convention(c) (id, SEL) -> id?
    return unsafeBitCast(imp.rawValue, to: Initializer.self)(object, initSelector.sel)
  }

  /// `-init`: the receiver, as manual reference counting has it (it consumes the reference it
  /// was sent to and returns it).
  static let initialize: @convention(c) (id, SEL) -> id? = { me, _ in me }

  /// `-retain`: one more reference; the receiver (a class: nothing).
  static let retain: @convention(c) (id, SEL) -> id? = { me, _ in
    guard !isClass(me) else { return me }
    _ = Unmanaged<ObjCObject>.fromOpaque(UnsafeRawPointer(me)).retain()
    return me
  }

  /// `-release`: one reference less; the object is freed with its last. A class object is not
  /// reference-counted by Objective-C (objc4's classes ignore it too).
  static let release: @convention(c) (id, SEL) -> Void = { me, _ in
    guard !isClass(me) else { return }
    Unmanaged<ObjCObject>.fromOpaque(UnsafeRawPointer(me)).release()
  }

  /// `-autorelease`: the reference is released when the pool is drained (after each `+load`, for
  /// what it autoreleased, and at ``ObjectiveCModules/drainAutoreleasePool()``). A class object:
  /// nothing to release.
  static let autorelease: @convention(c) (id, SEL) -> id? = { me, _ in
    guard !isClass(me) else { return me }
    let thread = UInt(pthread_self())
    pool.withLock { pool in
      pool.serial += 1
      pool.entries.append((thread, pool.serial, UInt(bitPattern: UnsafeRawPointer(me))))
    }
    return me
  }

  /// `-description`: `<Class: 0x...>`, as NSObject's; a new string, retained (+1).
  static let describe: @convention(c) (id, SEL) -> id? = { me, _ in
    let object = me.takeUnretainedObject()
    let address = String(UInt(bitPattern: UnsafeRawPointer(me)), radix: 16)
    return ObjCString("<\(object.objcClass.name): 0x\(address)>").passRetained()
  }

  /// The methods the root class gets here, as `+alloc` or `-init`: declared in
  /// `<Foundation/Foundation.h>` beside the root's own.
  static let methodNames: Set<String> = [
    "+alloc", "+new", "-init", "-retain", "-release", "-autorelease", "-description",
  ]

  /// Whether `object` is a class (its isa is a metaclass): `-retain`, `-release` and
  /// `-autorelease` leave classes alone.
  static func isClass(_ object: id) -> Bool {
    object_getClass(object.takeUnretainedObject())?.isMetaClass ?? false
  }

  /// Objects autoreleased and not yet released, with the thread that autoreleased each (each
  /// entry holds one reference).
  struct Pool {
    var entries: [(thread: UInt, serial: Int, address: UInt)] = []
    var serial = 0
  }

  static let pool = Mutex(Pool())

  /// Where the pool stands: what ``drainPool(since:)`` releases comes after it.
  static func poolMark() -> Int {
    pool.withLock { $0.serial }
  }

  /// Releases what this thread autoreleased since `mark`.
  static func drainPool(since mark: Int) {
    let thread = UInt(pthread_self())
    release(
      pool.withLock { pool in
        let mine = pool.entries.filter { $0.thread == thread && $0.serial > mark }
        pool.entries.removeAll { $0.thread == thread && $0.serial > mark }
        return mine.map(\.address)
      })
  }

  /// Releases everything autoreleased, on every thread.
  static func drainPool() {
    release(
      pool.withLock { pool in
        defer { pool.entries.removeAll() }
        return pool.entries.map(\.address)
      })
  }

  private static func release(_ addresses: [UInt]) {
    for address in addresses {
      guard let pointer = UnsafeRawPointer(bitPattern: address) else { continue }
      Unmanaged<ObjCObject>.fromOpaque(pointer).release()
    }
  }
}
