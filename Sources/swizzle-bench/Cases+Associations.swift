// The association cases: the untyped getters (as `Any?`, as an object, unretained), the typed
// keys (an object, a value), and the setter.
import ObjCRuntime

extension Cases {
  static let valueKey = AssociatedKey<Int>(default: 0)
  static let colorKey: Selector = "bench.color"
  static let tintKey: Selector = "bench.tint"

  /// An object with three associations; the one the getters read is the last, so each lookup
  /// scans past two others.
  static func holderWithThreeAssociations() -> BenchTarget {
    let holder = BenchTarget()
    let value = BenchTarget()
    objc_setAssociatedObject(holder, colorKey, value, .retain)
    objc_setAssociatedObject(holder, tintKey, value, .retain)
    objc_setAssociatedObject(holder, valueKey.address, value, .retain)
    return holder
  }

  static func associatedGet(count: Int) -> Int {
    getLoop(holderWithThreeAssociations(), valueKey.address, count)
  }

  @inline(never)
  static func getLoop(_ holder: ObjCObject, _ key: UnsafeRawPointer, _ count: Int) -> Int {
    var found = 0
    Stopwatch.time {
      for _ in 0..<count {
        if case .some = objc_getAssociatedObject(holder, key) { found &+= 1 }
      }
    }
    return found
  }

  static func associatedObjectGet(count: Int) -> Int {
    objectGetLoop(holderWithThreeAssociations(), valueKey.address, count)
  }

  @inline(never)
  static func objectGetLoop(_ holder: ObjCObject, _ key: UnsafeRawPointer, _ count: Int) -> Int {
    var found = 0
    Stopwatch.time {
      for _ in 0..<count where holder.associatedObject(forKey: key) != nil {
        found &+= 1
      }
    }
    return found
  }

  static func unretainedGet(count: Int) -> Int {
    unretainedLoop(holderWithThreeAssociations(), valueKey.address, count)
  }

  @inline(never)
  static func unretainedLoop(_ holder: ObjCObject, _ key: UnsafeRawPointer, _ count: Int) -> Int {
    var found = 0
    Stopwatch.time {
      for _ in 0..<count where holder.unretainedAssociatedObject(forKey: key) != nil {
        found &+= 1
      }
    }
    return found
  }

  static let viewKey = AssociatedKey<BenchTarget?>()
  static let alphaKey = AssociatedKey<Double?>(default: nil)

  static func typedKeyGet(count: Int) -> Int {
    let holder = BenchTarget()
    holder[viewKey] = BenchTarget()
    return typedLoop(holder, viewKey, count)
  }

  static func typedValueGet(count: Int) -> Int {
    let holder = BenchTarget()
    holder[alphaKey] = 0.5
    return typedLoop(holder, alphaKey, count)
  }

  /// Reads `key` `count` times; the compiler specializes it for each key type, as a plugin's
  /// reads are specialized where they are written.
  @inline(never)
  static func typedLoop<Value>(
    _ holder: BenchTarget, _ key: AssociatedKey<Value?>, _ count: Int
  ) -> Int {
    var found = 0
    Stopwatch.time {
      for _ in 0..<count where holder[key] != nil {
        found &+= 1
      }
    }
    return found
  }

  static func associatedSet(count: Int) -> Int {
    let holder = BenchTarget()
    let values = [BenchTarget(), BenchTarget()]
    return setLoop(holder, values, count)
  }

  @inline(never)
  static func setLoop(_ holder: ObjCObject, _ values: [ObjCObject], _ count: Int) -> Int {
    Stopwatch.time {
      for index in 0..<count {
        objc_setAssociatedObject(holder, colorKey, values[index & 1], .retain)
      }
    }
    return count
  }

  /// `setLoop` with a key at an address, as the scaling cases' keys are.
  @inline(never)
  static func rawKeySetLoop(
    _ holder: ObjCObject, _ key: UnsafeRawPointer, _ values: [ObjCObject], _ count: Int
  ) -> Int {
    Stopwatch.time {
      for index in 0..<count {
        objc_setAssociatedObject(holder, key, values[index & 1], .retain)
      }
    }
    return count
  }

  /// Keys at distinct addresses, as many as the scaling cases use.
  /// nonisolated(unsafe): the block is only used for its addresses, never read or written.
  nonisolated(unsafe) static let manyKeys = UnsafeMutableRawPointer.allocate(
    byteCount: 10_000, alignment: 16)

  /// An object with `count` associations, added in order; the getters read the last.
  static func holder(withAssociations count: Int) -> BenchTarget {
    let holder = BenchTarget()
    let value = BenchTarget()
    for index in 0..<count {
      objc_setAssociatedObject(holder, UnsafeRawPointer(manyKeys + index), value, .retain)
    }
    return holder
  }

  static func associatedGetAmong(_ keys: Int, _ count: Int) -> Int {
    getLoop(holder(withAssociations: keys), UnsafeRawPointer(manyKeys + (keys - 1)), count)
  }

  static func associatedSetAmong(_ keys: Int, _ count: Int) -> Int {
    rawKeySetLoop(
      holder(withAssociations: keys), UnsafeRawPointer(manyKeys + (keys - 1)),
      [BenchTarget(), BenchTarget()], count)
  }
}
