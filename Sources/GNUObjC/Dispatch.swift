// The sends of gcc's code: `objc_msg_lookup` and `objc_msg_lookup_super` answer with the function
// to call, a stub that hands the method SwizzleKit's selector as `_cmd`.
internal import CObjCGNU
import ObjCRuntime

enum Dispatch {
  /// The function a send of `reference` to `receiver` calls.
  static func lookup(
    _ receiver: UnsafeMutableRawPointer?, _ reference: UnsafePointer<swk_gnu_selector>?,
    _ cacheable: UnsafeMutablePointer<Int32>?
  ) -> UnsafeMutableRawPointer? {
    guard let receiver, let reference else { return swk_gnu_nil_method() }
    if StaticInstances.isUnsupported(receiver) {
      return StaticInstances.refuse(reference)
    }
    let passed = UnsafeRawPointer(reference).assumingMemoryBound(to: objc_selector.self)
    let selector = Selector(passed)
    let (method, cached) = Unmanaged<ObjCObject>.fromOpaque(receiver)._withUnsafeGuaranteedRef {
      object -> (Unmanaged<Method>?, Bool) in
      if let hit = MessageLookup.cachedMethod(sending: selector, to: object) { return (hit, true) }
      return (MessageLookup.method(sending: selector, to: object), false)
    }
    // The C side's send cache may keep what the runtime's own cache held (a traced send never
    // is): the stub follows exchanges by itself, and a flush ends the entry.
    if cached, passed != selector.sel { cacheable?.pointee = 1 }
    return function(for: method, passed: passed, selector: selector, receiver: receiver)
  }

  /// Turns on the C side's send cache, once the isa's place in an object is checked: the first
  /// stored property of ``ObjCObject``, two words after Swift's header, whatever object class
  /// `object_getClass` answers for.
  static func enableSendCache() {
    let probe = ObjCObject()
    let isaOffset = swk_gnu_isa_offset()
    let address = UnsafeRawPointer(Unmanaged.passUnretained(probe).toOpaque())
    guard let cls = object_getClass(probe),
      address.load(fromByteOffset: isaOffset, as: UInt.self)
        == UInt(bitPattern: Unmanaged.passUnretained(cls).toOpaque())
    else {
      Diagnostics.warn(
        "Objective-C: an object's isa is not where the send cache reads it; sends"
          + " from Objective-C look each method up")
      return
    }
    withExtendedLifetime(probe) {
      swk_gnu_enable_send_cache(MessageLookup.flushGenerationAddress)
    }
  }

  /// The function `[super ...]` calls: the lookup starts at `start`, a class object.
  static func lookupSuper(
    _ receiver: UnsafeMutableRawPointer?, _ start: UnsafeMutableRawPointer?,
    _ reference: UnsafePointer<swk_gnu_selector>?
  ) -> UnsafeMutableRawPointer? {
    guard let receiver, let start, let reference,
      let startClass = Unmanaged<ObjCObject>.fromOpaque(start).takeUnretainedValue() as? Class
    else { return swk_gnu_nil_method() }
    let passed = UnsafeRawPointer(reference).assumingMemoryBound(to: objc_selector.self)
    let selector = Selector(passed)
    let method = Unmanaged<ObjCObject>.fromOpaque(receiver)._withUnsafeGuaranteedRef { object in
      MessageLookup.method(sendingSuper: selector, to: object, startingAt: startClass)
    }
    return function(for: method, passed: passed, selector: selector, receiver: receiver)
  }

  /// What the caller calls: when it passed a reference from gcc's selector tables, a stub that
  /// puts the selector in its place; when it passed a selector already (`_cmd` handed on, as in
  /// `objc_msg_lookup(self, _cmd)`), the implementation itself.
  private static func function(
    for method: Unmanaged<Method>?, passed: SEL, selector: Selector,
    receiver: UnsafeMutableRawPointer
  ) -> UnsafeMutableRawPointer? {
    let isReference = passed != selector.sel
    guard let method else {
      return forwarding(passed, selector: selector, isReference: isReference, receiver: receiver)
    }
    return method._withUnsafeGuaranteedRef { method in
      guard isReference else {
        return method.implementation.map { UnsafeMutableRawPointer(mutating: $0.rawValue) }
          ?? UnsafeMutableRawPointer(mutating: IMP.forward.rawValue)
      }
      let word = method.implementationWordAddress
      let kind: Int32 = returnsInMemory(method.typeEncoding) ? 1 : 0
      if let stub = swk_gnu_cmd_stub_find(word, kind) { return stub }
      return swk_gnu_cmd_stub_for(word, IMP.forward.rawValue, kind) ?? swk_gnu_nil_method()
    }
  }

  /// The function a send nothing implements calls: forwarding, through a stub that fixes `_cmd`,
  /// for results that travel in an integer register. The runtime's forwarding entry cannot take
  /// a struct returned in memory or a floating-point result: when gcc's selector says the call
  /// has one, the send is reported and answers zero without forwarding (a floating-point zero;
  /// a struct returned in memory is left as the caller's memory was). When the file did not
  /// declare the method, the types are unknown, and forwarding is tried.
  private static func forwarding(
    _ passed: SEL, selector: Selector, isReference: Bool, receiver: UnsafeMutableRawPointer
  ) -> UnsafeMutableRawPointer? {
    guard isReference else { return UnsafeMutableRawPointer(mutating: IMP.forward.rawValue) }
    let reference = UnsafeRawPointer(passed).assumingMemoryBound(to: swk_gnu_selector.self)
    guard let types = reference.pointee.sel_types.map({ String(cString: $0) }),
      !forwardable(types)
    else { return forwardStub ?? swk_gnu_nil_method() }
    let cls = Unmanaged<ObjCObject>.fromOpaque(receiver)._withUnsafeGuaranteedRef {
      object_getClass($0)
    }
    Failures.record(
      .unrecognizedSelector(
        MethodReference(
          className: cls?.name ?? "an object", selectorName: selector.name,
          isClassMethod: cls?.isMetaClass ?? false)))
    let result = resultCode(types)
    return result == "f" || result == "d" ? swk_gnu_nil_floating_method() : swk_gnu_nil_method()
  }

  /// Whether the runtime's forwarding entry can answer a call of `types`: its result, if any, in
  /// an integer register.
  private static func forwardable(_ types: String) -> Bool {
    !["{", "(", "[", "f", "d", "D"].contains(resultCode(types))
  }

  /// The first character of the result's type in an encoding, past its qualifiers (`r`, `n`...).
  private static func resultCode(_ types: String) -> Character? {
    types.first { !"rnNoORV".contains($0) }
  }

  /// A stub whose implementation word stays zero: every call forwards, with `_cmd` fixed.
  // nonisolated(unsafe): the address of immutable code, made once by Swift's lazy initialization.
  private nonisolated(unsafe) static let forwardStub: UnsafeMutableRawPointer? = {
    let zero = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
    zero.initialize(to: 0)
    return swk_gnu_cmd_stub_make(zero, IMP.forward.rawValue, 0)
  }()

  /// Whether a method of `types` returns its result through a hidden pointer (x86-64 System V:
  /// an aggregate larger than two words), which moves the selector to the third register.
  private static func returnsInMemory(_ types: String) -> Bool {
    let result = resultCode(types)
    guard result == "{" || result == "(" || result == "[",
      let descriptor = try? MethodSignature(types: types).returnDescriptor
    else { return false }
    switch descriptor {
    case .structure, .union, .array: return descriptor.size > 16
    default: return false
    }
  }

  /// The class or metaclass named `name`, as the address gcc's code holds; nil when unknown.
  static func classNamed(_ name: UnsafePointer<CChar>?, meta: Bool) -> UnsafeMutableRawPointer? {
    guard let name, let cls = Foundation.lookUpClass(String(cString: name)) else { return nil }
    return Unmanaged.passUnretained(meta ? cls.metaclass : cls).toOpaque()
  }
}
