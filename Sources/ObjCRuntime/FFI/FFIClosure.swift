// libffi closures: a real C function pointer that runs a Swift handler, for any signature.
internal import CFFI

/// What a closure's handler sees of one call: the argument pointers (one per argument, `self`
/// and `_cmd` included) and the slot the return value goes to. Nothing is allocated per call.
@usableFromInline
internal typealias FFIClosureHandler = (
  _ arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ returnSlot: UnsafeMutableRawPointer
) -> Void

/// Owns a libffi closure: executable code that, when called through its address with the C
/// calling convention of its signature, runs `handler`.
///
/// The closure's user data is this object, unretained: whoever hands out the code address must
/// keep the object alive for as long as the address can be called (the IMP registry does).
internal final class FFIClosure {
  let interface: FFICallInterface
  let handler: FFIClosureHandler
  private let closure: UnsafeMutablePointer<ffi_closure>
  /// The executable address: the IMP.
  let code: UnsafeRawPointer

  init(_ interface: FFICallInterface, handler: @escaping FFIClosureHandler) throws(ObjCRuntimeError)
  {
    self.interface = interface
    self.handler = handler
    var codeAddress: UnsafeMutableRawPointer?
    guard
      let raw = ffi_closure_alloc(MemoryLayout<ffi_closure>.size, &codeAddress),
      let codeAddress
    else {
      throw .invalidImplementation("libffi could not allocate a closure")
    }
    closure = raw.assumingMemoryBound(to: ffi_closure.self)
    code = UnsafeRawPointer(codeAddress)
    let status = ffi_prep_closure_loc(
      closure, interface.cif, ffiClosureEntry, Unmanaged.passUnretained(self).toOpaque(),
      codeAddress)
    guard status == FFI_OK else {
      // The object is complete by now, so throwing releases it and deinit frees the closure.
      throw .invalidImplementation("libffi could not prepare a closure (status \(status.rawValue))")
    }
  }

  deinit {
    ffi_closure_free(closure)
  }
}

/// The C function every closure enters through; it finds its `FFIClosure` in the user data.
private let ffiClosureEntry:
  @convention(c) (
    UnsafeMutablePointer<ffi_cif>?, UnsafeMutableRawPointer?,
    UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutableRawPointer?
  ) -> Void = { _, returnSlot, arguments, userData in
    guard let returnSlot, let arguments, let userData else { return }
    Unmanaged<FFIClosure>.fromOpaque(userData)._withUnsafeGuaranteedRef {
      $0.handler(arguments, returnSlot)
    }
  }
