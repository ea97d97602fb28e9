// Objects laid out by foreign code in its own static data: gcc's `@"..."` literals, which its
// code points at directly, made objects of this runtime in place.
import CObjCRuntime

/// Objects in memory that foreign code allocated statically, such as the constant strings gcc
/// lays out as `{isa, characters, length}` in a compiled file's data and points its code at.
///
/// ``make(at:class:)`` rewrites such a record, in place, into an object of this runtime: the
/// Swift header of an immortal object (retains and releases do nothing, it is never freed) and
/// the runtime class, 24 bytes in all. Sends, `-class`, `isKindOfClass:` and passing it to Swift
/// code work as for any object. The record has no room for the association word of an
/// ``ObjCObject``, so associations on a static object are refused with a warning, and read as
/// none; what the record held before (its characters) is the caller's to keep elsewhere.
public enum StaticObjects {
  /// The bytes ``make(at:class:)`` rewrites.
  public static let size = 3 * MemoryLayout<UInt>.size

  /// Makes the `size` bytes at `memory` (pointer-aligned, writable, living as long as the
  /// process) an immortal object whose runtime class is `cls`, and returns it.
  ///
  /// - Throws: ``ObjCRuntimeError/invalidDeclaration(className:reason:)`` when `memory` is not
  ///   pointer-aligned or `cls` is a metaclass, ``ObjCRuntimeError/classDisposed(className:)``
  ///   when `cls` was disposed of; nothing is written then. A class made at run time counts its
  ///   static objects as live instances for ever: it can no longer be disposed of.
  public static func make(at memory: UnsafeMutableRawPointer, class cls: Class)
    throws(ObjCRuntimeError) -> ObjCObject
  {
    guard Int(bitPattern: memory) % MemoryLayout<UInt>.alignment == 0 else {
      throw .invalidDeclaration(
        className: cls.name, reason: "a static object's memory must be pointer-aligned")
    }
    guard !cls.isMetaClass else {
      throw .invalidDeclaration(
        className: cls.name, reason: "a static object cannot be an instance of a metaclass")
    }
    if cls.isRuntimeMade {
      // Counted for ever (a static object never dies), so that the class is never disposed of
      // under it; counted first, then the flag read, as object_setClass does.
      cls.liveInstances.add(1, ordering: .sequentiallyConsistent)
      guard !cls.isDisposed.load(ordering: .sequentiallyConsistent) else {
        cls.liveInstances.subtract(1, ordering: .sequentiallyConsistent)
        throw .classDisposed(className: cls.name)
      }
    }
    let words = memory.assumingMemoryBound(to: UInt.self)
    // Published for isStatic before the first static object exists (the same value each time).
    swk_static_object_metadata_store(metadata)
    words[1] = immortalReferenceCounts
    words[2] = UInt(bitPattern: Unmanaged.passUnretained(cls).toOpaque())
    // The metadata last: until it is there, nothing reads the record as an object.
    words[0] = metadata
    return Unmanaged<ObjCObject>.fromOpaque(memory).takeUnretainedValue()
  }

  /// Whether `object` was made by ``make(at:class:)``: its Swift class is the static objects'.
  @inline(__always)
  public static func isStatic(_ object: ObjCObject) -> Bool {
    isStatic(at: UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
  }

  /// Whether the memory at `address` (a pointer-aligned word, readable) is already a static
  /// object: for a record that may not be an object yet, which must not be retained as one.
  @inline(__always)
  public static func isStatic(at address: UnsafeRawPointer) -> Bool {
    // 1 until the first static object is made, which no first word holds (a record gcc laid out
    // holds zero there until it is made an object).
    address.load(as: UInt.self) == swk_static_object_metadata_load()
  }

  /// The address of the static objects' Swift metadata (its accessor runs a once-check: read it
  /// when making an object, never on an association's path, which reads the C global).
  private static var metadata: UInt {
    @inline(__always) get {
      UInt(bitPattern: unsafeBitCast(StaticObject.self as AnyClass, to: UnsafeRawPointer.self))
    }
  }

  /// The Swift class of every static object: an ``ObjCObject`` with nothing of its own.
  private final class StaticObject: ObjCObject {}

  /// The reference-count word of an immortal object in this Swift runtime, read from one: the
  /// storage of an empty array is the runtime's immortal empty-array singleton.
  private static let immortalReferenceCounts: UInt = {
    let empty: [Int] = []
    return empty.withUnsafeBufferPointer { _ in
      let storage = unsafeBitCast(empty, to: UnsafeRawPointer.self)
      return storage.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
    }
  }()
}
