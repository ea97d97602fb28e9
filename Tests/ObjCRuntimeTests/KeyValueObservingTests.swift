// Key-value observing as Foundation does it: an isa-swizzled hidden subclass whose setter
// notifies around the original, a `-class` that lies, the options, manual notifications, the
// class given back, and bad input refused with the object unchanged.
import Foundation
import ObjCRuntime
import Synchronization
import Testing

private final class KVOThermostat: ObjCObject {
  var temperature = 20.0
  static let setTemperature: @convention(c) (id, SEL, Double) -> Void = { me, _, value in
    me.takeUnretainedObject(as: KVOThermostat.self)?.temperature = value
  }
  static let mode: @convention(c) (id, SEL) -> Int = { _, _ in 1 }
  /// A setter with no getter and no ivar to read.
  static let setSecret: @convention(c) (id, SEL, Int) -> Void = { _, _, _ in }
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(KVOThermostat.self) {
      ObjCMethodDeclaration("setSecret:", KVOThermostat.setSecret)
      ObjCMethodDeclaration("setTemperature:", KVOThermostat.setTemperature)
      ObjCMethodDeclaration("mode", KVOThermostat.mode)
      ObjCIvarDeclaration("_temperature", \KVOThermostat.temperature)
    }
  }
}

/// Records what it is told: (key, old, new, prior, context).
private final class Recorder: ObjCObject {
  struct Note: Equatable {
    let key: String
    let old: Double?
    let new: Double?
    let prior: Bool
  }
  let notes = Mutex<[Note]>([])
  /// The contexts, as addresses.
  let contexts = Mutex<[UInt]>([])

  override func observeValue(
    forKeyPath keyPath: String, of object: ObjCObject, change: KeyValueChange,
    context: UnsafeMutableRawPointer?
  ) {
    notes.withLock {
      $0.append(
        Note(
          key: keyPath, old: change.oldValue as? Double, new: change.newValue as? Double,
          prior: change.isPrior))
    }
    let address = UInt(bitPattern: context)
    contexts.withLock { $0.append(address) }
  }

  var all: [Note] { notes.withLock { $0 } }
}

/// Drops the last reference to the object it observes while it is told, and notes whether the
/// object was still alive then.
private final class Dropper: ObjCObject {
  // nonisolated(unsafe): set and read by the one test that uses it, on its own thread.
  nonisolated(unsafe) var held: KVOThermostat?
  nonisolated(unsafe) weak var watched: KVOThermostat?
  nonisolated(unsafe) var aliveAfterDrop: Bool?

  override func observeValue(
    forKeyPath keyPath: String, of object: ObjCObject, change: KeyValueChange,
    context: UnsafeMutableRawPointer?
  ) {
    guard held != nil else { return }
    // The reference dropped is the last one the test kept; the setter's call must hold its own.
    held = nil
    aliveAfterDrop = watched != nil
  }
}

private func set(_ thermostat: KVOThermostat, _ value: Double) throws {
  try objc_msgSend(thermostat, "setTemperature:", value) as Void
}

@Suite("Key-value observing")
struct KeyValueObservingTests {
  @Test("the first observer isa-swizzles to NSKVONotifying_; -class lies; the setter notifies")
  func hiddenSubclass() throws {
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    try thermostat.addObserver(recorder, forKeyPath: "temperature", options: [.old, .new])
    #expect(object_getClass(thermostat)?.name == "NSKVONotifying_KVOThermostat")
    #expect(thermostat.objcClass === KVOThermostat.runtimeClass, "-class answers the class it had")
    try set(thermostat, 25)
    #expect(thermostat.temperature == 25, "the original setter ran")
    #expect(recorder.all == [.init(key: "temperature", old: 20, new: 25, prior: false)])
    #expect(try objc_msgSend(thermostat, "mode") as Int == 1, "other methods are untouched")
    try thermostat.removeObserver(recorder, forKeyPath: "temperature")
    #expect(object_getClass(thermostat) === KVOThermostat.runtimeClass, "its class back")
    try set(thermostat, 30)
    #expect(recorder.all.count == 1, "no observer, no notification")
  }

  @Test("options: initial now, prior before each change, and only the values asked for")
  func options() throws {
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    var marker = 0
    try withUnsafeMutablePointer(to: &marker) { context in
      try thermostat.addObserver(
        recorder, forKeyPath: "temperature", options: [.initial, .new, .prior], context: context)
      try set(thermostat, 21)
      #expect(
        recorder.all == [
          .init(key: "temperature", old: nil, new: 20, prior: false),
          .init(key: "temperature", old: nil, new: nil, prior: true),
          .init(key: "temperature", old: nil, new: 21, prior: false),
        ])
      let address = UInt(bitPattern: UnsafeMutableRawPointer(context))
      #expect(recorder.contexts.withLock { $0 } == [address, address, address])
      try thermostat.removeObserver(recorder, forKeyPath: "temperature", context: context)
    }
  }

  @Test("willChangeValue and didChangeValue notify for a change made another way")
  func manualNotifications() throws {
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    try thermostat.addObserver(recorder, forKeyPath: "temperature", options: [.old, .new])
    thermostat.willChangeValue(forKey: "temperature")
    thermostat.temperature = 18  // straight to the Swift property: no setter ran
    thermostat.didChangeValue(forKey: "temperature")
    #expect(recorder.all == [.init(key: "temperature", old: 20, new: 18, prior: false)])
    try thermostat.removeObserver(recorder, forKeyPath: "temperature")
  }

  @Test("two observers are both told; each removal takes one; the class comes back last")
  func twoObservers() throws {
    let thermostat = KVOThermostat()
    let first = Recorder()
    let second = Recorder()
    try thermostat.addObserver(first, forKeyPath: "temperature", options: .new)
    try thermostat.addObserver(second, forKeyPath: "temperature", options: .new)
    try set(thermostat, 22)
    #expect(first.all.count == 1 && second.all.count == 1)
    try thermostat.removeObserver(first, forKeyPath: "temperature")
    #expect(object_getClass(thermostat)?.name == "NSKVONotifying_KVOThermostat")
    try set(thermostat, 23)
    #expect(first.all.count == 1 && second.all.count == 2)
    try thermostat.removeObserver(second, forKeyPath: "temperature")
    #expect(object_getClass(thermostat) === KVOThermostat.runtimeClass)
  }

  @Test("each of several observers gets the old and new values; one told before gets the old")
  func valuesForSeveralObservers() throws {
    // A setter moves the values into the one observer's change, and copies them for more: both
    // ways must hand every observer the same values.
    let thermostat = KVOThermostat()
    let first = Recorder()
    let second = Recorder()
    let prior = Recorder()
    try thermostat.addObserver(first, forKeyPath: "temperature", options: [.old, .new])
    try set(thermostat, 22)
    #expect(first.all == [.init(key: "temperature", old: 20, new: 22, prior: false)])
    try thermostat.addObserver(second, forKeyPath: "temperature", options: [.old, .new])
    try thermostat.addObserver(prior, forKeyPath: "temperature", options: [.old, .prior])
    try set(thermostat, 23)
    #expect(first.all.last == .init(key: "temperature", old: 22, new: 23, prior: false))
    #expect(second.all == [.init(key: "temperature", old: 22, new: 23, prior: false)])
    #expect(
      prior.all == [
        .init(key: "temperature", old: 22, new: nil, prior: true),
        .init(key: "temperature", old: 22, new: nil, prior: false),
      ])
    for observer in [first, second, prior] {
      try thermostat.removeObserver(observer, forKeyPath: "temperature")
    }

    // One observer of the old value only: it moves into the change, and the new one is nil.
    let other = KVOThermostat()
    let oldOnly = Recorder()
    try other.addObserver(oldOnly, forKeyPath: "temperature", options: .old)
    try set(other, 24)
    #expect(oldOnly.all == [.init(key: "temperature", old: 20, new: nil, prior: false)])
    try other.removeObserver(oldOnly, forKeyPath: "temperature")
  }

  @Test("an observer that drops the last reference to the object while told: it stays alive")
  func observerDropsTheObject() throws {
    // The setter is called as C code that holds no reference would call it: only the observer
    // holds the object, and drops it inside its notification. The notifying setter keeps the
    // object alive until it returns (borrowed, it was freed under the notification).
    let dropper = Dropper()
    weak var watched: KVOThermostat?
    let receiver: UnsafeMutableRawPointer = try {
      let thermostat = KVOThermostat()
      try thermostat.addObserver(dropper, forKeyPath: "temperature", options: .new)
      dropper.held = thermostat
      dropper.watched = thermostat
      watched = thermostat
      return Unmanaged.passUnretained(thermostat).toOpaque()
    }()
    let setter = unsafeBitCast(
      object_getClass(Unmanaged<ObjCObject>.fromOpaque(receiver).takeUnretainedValue())!
        .methodImplementation(for: "setTemperature:").rawValue,
      to: (@convention(c) (id, SEL, Double) -> Void).self)
    setter(id(OpaquePointer(receiver)), Selector("setTemperature:").sel, 25)
    #expect(dropper.aliveAfterDrop == true)
    #expect(watched == nil, "freed once the setter returned")
  }

  @Test("an observer that died is not told, and nothing crashes")
  func deadObserver() throws {
    let thermostat = KVOThermostat()
    do {
      let recorder = Recorder()
      try thermostat.addObserver(recorder, forKeyPath: "temperature", options: .new)
    }
    try set(thermostat, 24)
    #expect(thermostat.temperature == 24)
  }

  @Test("a key without a setter, or a path of two keys, is refused; the object is unchanged")
  func notObservable() {
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    #expect(throws: ObjCRuntimeError.self) {
      try thermostat.addObserver(recorder, forKeyPath: "humidity")
    }
    do {
      try thermostat.addObserver(recorder, forKeyPath: "humidity")
    } catch {
      #expect(error.description.contains("KVOThermostat cannot be observed for \"humidity\""))
      #expect(error.description.contains("setHumidity:"))
    }
    #expect(throws: ObjCRuntimeError.self) {
      try thermostat.addObserver(recorder, forKeyPath: "sensor.temperature")
    }
    #expect(object_getClass(thermostat) === KVOThermostat.runtimeClass)
  }

  @Test("removing an observer that was never added is refused, and changes nothing")
  func removeUnknown() throws {
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    #expect(throws: ObjCRuntimeError.self) {
      try thermostat.removeObserver(recorder, forKeyPath: "temperature")
    }
    try thermostat.addObserver(recorder, forKeyPath: "temperature", options: .new)
    #expect(throws: ObjCRuntimeError.self) {
      try thermostat.removeObserver(Recorder(), forKeyPath: "temperature")
    }
    try set(thermostat, 26)
    #expect(recorder.all.count == 1, "still observing")
    try thermostat.removeObserver(recorder, forKeyPath: "temperature")
  }

  @Test("a swizzle of the original setter made after observing runs, inside the notification")
  func laterSwizzleSeen() throws {
    let cls = try #require(
      objc_allocateClassPair(KVOThermostat.runtimeClass, "DoublingThermostat", 0))
    objc_registerClassPair(cls)
    let thermostat = KVOThermostat()
    object_setClass(thermostat, cls)
    let recorder = Recorder()
    try thermostat.addObserver(recorder, forKeyPath: "temperature", options: .new)
    let doubling = try imp_implementationWithBlock { (me: KVOThermostat, value: Double) in
      me.temperature = value * 2
    }
    class_addMethod(cls, "setTemperature:", doubling, "v@:d")
    try set(thermostat, 10)
    #expect(recorder.all == [.init(key: "temperature", old: nil, new: 20, prior: false)])
    try thermostat.removeObserver(recorder, forKeyPath: "temperature")
    #expect(object_getClass(thermostat) === cls)
  }
}

/// An observer that stops observing in its `deinit`, as Foundation's users write it.
private final class LeavingObserver: ObjCObject {
  let target: KVOThermostat
  init(_ target: KVOThermostat) throws {
    self.target = target
    super.init()
    try target.addObserver(self, forKeyPath: "temperature", options: .new)
  }
  deinit { try? target.removeObserver(self, forKeyPath: "temperature") }
}

@Suite("Key-value observing at the edges")
struct KeyValueObservingEdgeTests {
  @Test("an observer that removes itself in its deinit is removed; the object's class comes back")
  func removesInDeinit() throws {
    let thermostat = KVOThermostat()
    do {
      let observer = try LeavingObserver(thermostat)
      #expect(object_getClass(thermostat)?.name == "NSKVONotifying_KVOThermostat")
      _ = observer
    }
    #expect(object_getClass(thermostat) === KVOThermostat.runtimeClass)
    try set(thermostat, 30)
    #expect(thermostat.temperature == 30)
  }

  @Test("a class object is refused, and its instances keep the hidden-class name")
  func classObjectRefused() throws {
    let cls = KVOThermostat.runtimeClass
    #expect(throws: ObjCRuntimeError.self) {
      try cls.addObserver(Recorder(), forKeyPath: "temperature")
    }
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    try thermostat.addObserver(recorder, forKeyPath: "temperature", options: .new)
    #expect(object_getClass(thermostat)?.superclass === cls)
    try thermostat.removeObserver(recorder, forKeyPath: "temperature")
  }

  // Foundation keeps the changes under way per thread: each didChange pairs with its own
  // thread's willChange.
  @Test("willChange and didChange on two threads keep each their own old value")
  func pendingPerThread() throws {
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    try thermostat.addObserver(recorder, forKeyPath: "temperature", options: [.old, .new])
    // Thread A begins a change at 20; thread B begins one at 30 and ends it at 40; A ends at 50.
    let stepA = DispatchSemaphore(value: 0)
    let stepB = DispatchSemaphore(value: 0)
    // nonisolated(unsafe): the two threads take turns, ordered by the semaphores.
    nonisolated(unsafe) let shared = thermostat
    let a = Thread {
      shared.willChangeValue(forKey: "temperature")
      stepA.signal()
      stepB.wait()
      shared.temperature = 50
      shared.didChangeValue(forKey: "temperature")
      stepA.signal()
    }
    a.start()
    stepA.wait()
    let b = Thread {
      shared.temperature = 30
      shared.willChangeValue(forKey: "temperature")
      shared.temperature = 40
      shared.didChangeValue(forKey: "temperature")
      stepB.signal()
    }
    b.start()
    stepA.wait()
    #expect(
      recorder.all == [
        .init(key: "temperature", old: 30, new: 40, prior: false),
        .init(key: "temperature", old: 20, new: 50, prior: false),
      ])
    try thermostat.removeObserver(recorder, forKeyPath: "temperature")
  }

  @Test("the first observer, added between willChange and didChange, is not told of that change")
  func firstObserverMidChange() throws {
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    thermostat.willChangeValue(forKey: "temperature")
    try thermostat.addObserver(recorder, forKeyPath: "temperature", options: [.old, .new])
    thermostat.temperature = 22
    thermostat.didChangeValue(forKey: "temperature")
    #expect(recorder.all.isEmpty)
    try set(thermostat, 23)
    #expect(recorder.all == [.init(key: "temperature", old: 22, new: 23, prior: false)])
    try thermostat.removeObserver(recorder, forKeyPath: "temperature")
  }

  @Test("an observer added during a change is not told of it; one removed during it is not")
  func changeSnapshot() throws {
    let thermostat = KVOThermostat()
    let early = Recorder()
    let late = Recorder()
    try thermostat.addObserver(early, forKeyPath: "temperature", options: [.old, .new])
    thermostat.willChangeValue(forKey: "temperature")
    try thermostat.addObserver(late, forKeyPath: "temperature", options: [.old, .new])
    thermostat.temperature = 25
    thermostat.didChangeValue(forKey: "temperature")
    #expect(early.all == [.init(key: "temperature", old: 20, new: 25, prior: false)])
    #expect(late.all.isEmpty, "it never had the old value")
    thermostat.willChangeValue(forKey: "temperature")
    try thermostat.removeObserver(early, forKeyPath: "temperature")
    thermostat.temperature = 26
    thermostat.didChangeValue(forKey: "temperature")
    #expect(early.all.count == 1, "gone before the change ended")
    #expect(late.all == [.init(key: "temperature", old: 25, new: 26, prior: false)])
    try thermostat.removeObserver(late, forKeyPath: "temperature")
    #expect(object_getClass(thermostat) === KVOThermostat.runtimeClass)
  }

  @Test("observed again after someone else's class came and went: notified again")
  func observedAgainAfterOwnClass() throws {
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    try thermostat.addObserver(recorder, forKeyPath: "temperature", options: .new)
    let mine = try #require(
      objc_allocateClassPair(object_getClass(thermostat), "MineOverKVO", 0))
    objc_registerClassPair(mine)
    object_setClass(thermostat, mine)
    try thermostat.removeObserver(recorder, forKeyPath: "temperature")
    #expect(object_getClass(thermostat) === mine, "someone else's class stays on top")
    object_setClass(thermostat, KVOThermostat.runtimeClass)
    try thermostat.addObserver(recorder, forKeyPath: "temperature", options: .new)
    try set(thermostat, 6)
    #expect(recorder.all == [.init(key: "temperature", old: nil, new: 6, prior: false)])
    try thermostat.removeObserver(recorder, forKeyPath: "temperature")
    #expect(object_getClass(thermostat) === KVOThermostat.runtimeClass)
  }

  @Test("a key with a setter and no getter: observable without values, refused with them")
  func setterWithoutGetter() throws {
    let thermostat = KVOThermostat()
    let recorder = Recorder()
    #expect(throws: ObjCRuntimeError.self) {
      try thermostat.addObserver(recorder, forKeyPath: "secret", options: .new)
    }
    #expect(object_getClass(thermostat) === KVOThermostat.runtimeClass, "unchanged")
  }

  @Test("an observer that died without removing itself: the object gets its class back")
  func deadObserver() throws {
    let thermostat = KVOThermostat()
    do {
      let recorder = Recorder()
      try thermostat.addObserver(recorder, forKeyPath: "temperature", options: .new)
    }
    try set(thermostat, 31)
    #expect(object_getClass(thermostat) === KVOThermostat.runtimeClass)
    #expect(thermostat.temperature == 31)
  }
}

/// A getter that answers something else than the ivar it stands beside, to tell which one a
/// read went through.
private final class KVODial: ObjCObject {
  var stored = 1.0
  static let setTemperature: @convention(c) (id, SEL, Double) -> Void = { me, _, value in
    me.takeUnretainedObject(as: KVODial.self)?.stored = value
  }
  static let temperature: @convention(c) (id, SEL) -> Double = { _, _ in 100 }
  override class var objcDeclaration: ObjCClassDeclaration {
    ObjCClassDeclaration(KVODial.self) {
      ObjCMethodDeclaration("setTemperature:", KVODial.setTemperature)
      ObjCMethodDeclaration("temperature", KVODial.temperature)
      ObjCIvarDeclaration("_temperature", \KVODial.stored)
    }
  }
}

extension KeyValueObservingTests {
  @Test("a getter whose implementation goes (a forward) and comes back is read again at once")
  func getterComesAndGoes() throws {
    let dial = KVODial()
    let recorder = Recorder()
    try dial.addObserver(recorder, forKeyPath: "temperature", options: [.new])
    defer { try? dial.removeObserver(recorder, forKeyPath: "temperature") }
    let getter = try #require(class_getInstanceMethod(KVODial.runtimeClass, "temperature"))
    let original = try #require(method_getImplementation(getter))
    try objc_msgSend(dial, "setTemperature:", 5.0) as Void
    // No method is added in between: only the getter's implementation changes.
    _ = method_setImplementation(getter, IMP.forward)
    try objc_msgSend(dial, "setTemperature:", 6.0) as Void
    _ = method_setImplementation(getter, original)
    try objc_msgSend(dial, "setTemperature:", 7.0) as Void
    #expect(recorder.all.map(\.new) == [100, 6, 100], "the getter, the ivar, the getter again")
  }
}
