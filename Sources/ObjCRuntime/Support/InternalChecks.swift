// Invariants the runtime and the layers on it keep, checked in builds with
// SWIZZLEKIT_INTERNAL_CHECKS (`swift test -Xswiftc -DSWIZZLEKIT_INTERNAL_CHECKS`; .ci/run does one
// full test run so), and compiled out of every other build.

/// The runtime's invariant checks: whether this build has them, and the one function that fails
/// one. `Docs/Reliability.md` lists what is checked.
public enum InternalChecks {
  /// Whether this build checks its invariants (it was compiled with
  /// `SWIZZLEKIT_INTERNAL_CHECKS`).
  public static var isEnabled: Bool {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      true
    #else
      false
    #endif
  }

  /// Stops the process with `message` when `condition` is false: an invariant is broken, and
  /// going on would hide where. Used only inside `#if SWIZZLEKIT_INTERNAL_CHECKS`.
  @inlinable
  public static func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
  ) {
    if !condition() { fail(message(), file: file, line: line) }
  }

  @usableFromInline
  static func fail(_ message: String, file: StaticString, line: UInt) -> Never {
    let text = "internal check failed at \(file):\(line): \(message)"
    Diagnostics.warn(text)
    fatalError(text)
  }

  /// Checks the shape objc4 gives a class and its metaclass: the metaclass's superclass is the
  /// superclass's metaclass (the root class, for the root metaclass), every metaclass's isa is
  /// the root metaclass, and the root metaclass is its own isa.
  static func checkShape(of cls: Class) {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      let meta = cls.metaclass
      require(!cls.isMetaClass && meta.isMetaClass, "\(cls.name): class and metaclass swapped")
      let expected = cls.superclass?.metaclass ?? cls
      require(meta.superclass === expected, "\(cls.name): its metaclass's superclass is wrong")
      let root = cls.rootMetaclass
      require(meta.metaclass === root, "\(cls.name): its metaclass's isa is not the root metaclass")
      require(root.metaclass === root, "the root metaclass is not its own isa")
    #endif
  }

  /// Checks that a method about to be cached for `start` belongs to a class of `start`'s
  /// superclass chain: a send can only ever find one of those.
  static func checkCacheEntry(_ method: Method, for start: Class) {
    #if SWIZZLEKIT_INTERNAL_CHECKS
      require(
        start.inherits(from: method.owner),
        "the cache of \(start.name) was given \(method), which is not in its superclass chain")
    #endif
  }
}
