// The libffi call interface of a method signature, and the type tables it points at.
internal import CFFI

/// The `ffi_type`s a signature needs. Scalars point at libffi's own descriptors; each struct gets
/// a descriptor and a NULL-terminated element list allocated here and freed with the table.
internal final class FFITypeTable {
  private var allocations: [UnsafeMutableRawPointer] = []

  deinit {
    for allocation in allocations { allocation.deallocate() }
  }

  /// The libffi type of an argument or return value. An array passed as an argument decays to a
  /// pointer, as in C.
  func type(for descriptor: ObjCTypeDescriptor, topLevel: Bool = true) throws(FFITypeProblem)
    -> UnsafeMutablePointer<ffi_type>
  {
    switch descriptor {
    case .void: return cffi_type_void()
    case .integer(let size, let signed):
      switch (size, signed) {
      case (1, true): return cffi_type_sint8()
      case (1, false): return cffi_type_uint8()
      case (2, true): return cffi_type_sint16()
      case (2, false): return cffi_type_uint16()
      case (4, true): return cffi_type_sint32()
      case (4, false): return cffi_type_uint32()
      case (_, true): return cffi_type_sint64()
      default: return cffi_type_uint64()
      }
    case .float: return cffi_type_float()
    case .double: return cffi_type_double()
    case .pointer: return cffi_type_pointer()
    case .array(let count, let element):
      if topLevel { return cffi_type_pointer() }
      // libffi has no array type; inside a struct an array is laid out as its elements.
      let elementType = try type(for: element, topLevel: false)
      return try structType(Array(repeating: elementType, count: count))
    case .structure(_, let fields):
      var elements: [UnsafeMutablePointer<ffi_type>] = []
      for field in fields {
        if case .array(let count, let element) = field {
          let elementType = try type(for: element, topLevel: false)
          elements += Array(repeating: elementType, count: count)
        } else {
          elements.append(try type(for: field, topLevel: false))
        }
      }
      return try structType(elements)
    case .union:
      throw FFITypeProblem(description: "unions cannot be passed by value through libffi")
    case .bitField: throw FFITypeProblem(description: "bit fields cannot be passed through libffi")
    case .unsupported(let code):
      throw FFITypeProblem(description: "the type code \(code) is not supported by libffi here")
    }
  }

  private func structType(_ elements: [UnsafeMutablePointer<ffi_type>]) throws(FFITypeProblem)
    -> UnsafeMutablePointer<ffi_type>
  {
    guard !elements.isEmpty else {
      throw FFITypeProblem(description: "an empty struct cannot be passed by value")
    }
    let list = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(
      capacity: elements.count + 1)
    allocations.append(UnsafeMutableRawPointer(list))
    for (index, element) in elements.enumerated() { (list + index).initialize(to: element) }
    (list + elements.count).initialize(to: nil)
    let structure = UnsafeMutablePointer<ffi_type>.allocate(capacity: 1)
    allocations.append(UnsafeMutableRawPointer(structure))
    structure.initialize(
      to: ffi_type(size: 0, alignment: 0, type: UInt16(FFI_TYPE_STRUCT), elements: list))
    return structure
  }
}

/// Why a type cannot go through libffi.
internal struct FFITypeProblem: Error {
  let description: String
}

/// A prepared libffi call interface (`ffi_cif`) for one method signature, with everything it
/// points at. Made once per signature and reused for every call.
///
/// `@unchecked Sendable`: nothing changes after init, and libffi only reads a prepared cif.
internal final class FFICallInterface: @unchecked Sendable {
  let encoding: MethodEncoding
  let cif: UnsafeMutablePointer<ffi_cif>
  private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
  private let types = FFITypeTable()
  /// Bytes the return slot needs: the return type's size, at least one `ffi_arg`, since libffi
  /// widens narrow integral results.
  let returnSlotSize: Int
  /// Where each argument's slot lies in an invocation's frame, its size, and the frame's size:
  /// worked out once per signature, read by every ``InvocationFrame`` made for it.
  let frameLayout: (offsets: [Int], sizes: [Int], size: Int)
  /// The merged code (``SignatureCode``) of each argument (`self` and `_cmd` included) and of
  /// the return type, which an invocation checks typed reads and writes against.
  let argumentCodes: [UInt8?]
  let returnCode: UInt8?

  /// The most arguments (`self` and `_cmd` included) a call through libffi may have: 256.
  static let maximumArguments = 256
  /// The largest value a call through libffi passes or returns by value: 64 KiB, which the call
  /// copies onto the stack (a thread's stack is 8 MiB by default).
  static let maximumValueSize = 1 << 16

  /// Prepares the call interface of `encoding`.
  ///
  /// - Throws: ``ObjCRuntimeError/unsupportedSignature(_:encoding:)`` (with `reference`) for a
  ///   type libffi cannot pass; nothing is leaked on failure.
  init(_ encoding: MethodEncoding, text: String, reference: MethodReference)
    throws(ObjCRuntimeError)
  {
    self.encoding = encoding
    let count = encoding.argumentDescriptors.count
    cif = .allocate(capacity: 1)
    argumentTypes = .allocate(capacity: max(count, 1))
    returnSlotSize = max(encoding.returnDescriptor.size, cffi_arg_size(), 8)
    frameLayout = FFICallInterface.layout(of: encoding.argumentDescriptors)
    argumentCodes = encoding.argumentTypes.map(SignatureCode.code(of:))
    returnCode = SignatureCode.code(of: encoding.returnType)
    do throws(FFITypeProblem) {
      // Every value passed by value is copied onto the call's stack, by libffi and by the C
      // ABI: bound what one call can put there, so that no signature can overflow a stack.
      guard count <= FFICallInterface.maximumArguments else {
        throw FFITypeProblem(
          description: "\(count) arguments; a call through libffi takes at most"
            + " \(FFICallInterface.maximumArguments)")
      }
      for descriptor in [encoding.returnDescriptor] + encoding.argumentDescriptors {
        if case .array = descriptor { continue }  // passed as a pointer
        guard descriptor.size <= FFICallInterface.maximumValueSize else {
          throw FFITypeProblem(
            description: "a value of \(descriptor.size) bytes; a call through libffi passes at"
              + " most \(FFICallInterface.maximumValueSize) bytes by value")
        }
      }
      let returnType = try types.type(for: encoding.returnDescriptor)
      for (index, descriptor) in encoding.argumentDescriptors.enumerated() {
        (argumentTypes + index).initialize(to: try types.type(for: descriptor))
      }
      let status = ffi_prep_cif(
        cif, cffi_default_abi(), UInt32(count), returnType, count == 0 ? nil : argumentTypes)
      guard status == FFI_OK else {
        throw FFITypeProblem(
          description: "libffi refused the signature (status \(status.rawValue))")
      }
    } catch {
      // Every stored property is set by now, so the object is complete: throwing releases it and
      // deinit frees the cif, the type list and the type table.
      throw .unsupportedSignature(reference, encoding: "\(text): \(error.description)")
    }
  }

  deinit {
    cif.deallocate()
    argumentTypes.deallocate()
  }

  /// The slots of a frame for `descriptors`: each at least a word, aligned to at least a word;
  /// an array argument is passed as a pointer, as in C.
  private static func layout(of descriptors: [ObjCTypeDescriptor])
    -> (offsets: [Int], sizes: [Int], size: Int)
  {
    var offsets: [Int] = []
    var sizes: [Int] = []
    var end = 0
    for descriptor in descriptors {
      let isArray = if case .array = descriptor { true } else { false }
      let size = isArray ? 8 : max(descriptor.size, 8)
      let alignment = isArray ? 8 : max(descriptor.alignment, 8)
      let offset = ObjCTypeDescriptor.align(end, to: alignment)
      offsets.append(offset)
      sizes.append(size)
      end = offset + size
    }
    return (offsets, sizes, max(end, 8))
  }

  /// Calls `function` with `arguments` (one pointer per argument, to its value) and lets it
  /// write its result to `returnSlot`.
  ///
  /// libffi is handed a copy of the pointer array, on the stack: for a struct passed in memory,
  /// libffi 3.4 on x86-64 replaces the argument's pointer in the array it is given with the
  /// address of its own copy on the call's stack, which is dead once the call returns. Given our
  /// array, an invocation's argument would afterwards read that dead stack, and a second invoke
  /// would pass garbage (and a hook reading its arguments after forwarding the call too).
  func call(
    _ function: UnsafeRawPointer, returnSlot: UnsafeMutableRawPointer,
    arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  ) {
    let count = encoding.argumentDescriptors.count
    withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: max(count, 1)) {
      scratch in
      let pointers = scratch.baseAddress.unsafelyUnwrapped
      pointers.initialize(from: arguments, count: count)
      ffi_call(
        cif, unsafeBitCast(function, to: (@convention(c) () -> Void).self), returnSlot,
        pointers)
    }
  }

}
