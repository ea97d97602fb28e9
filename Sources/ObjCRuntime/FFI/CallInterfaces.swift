// The call interfaces of the process, one per distinct encoding text.

/// Prepared libffi call interfaces, shared by every closure and invocation with the same encoding.
internal enum CallInterfaces {
  private static let table = RuntimeLock<[String: FFICallInterface]>([:])

  /// The prepared call interface of `encoding`, made on first use.
  ///
  /// - Throws: ``ObjCRuntimeError/malformedTypeEncoding(_:position:expected:)`` and
  ///   ``ObjCRuntimeError/unsupportedSignature(_:encoding:)`` (naming `reference`).
  static func interface(
    for encoding: String,
    reference: MethodReference = MethodReference(className: "(block)", selectorName: "imp")
  ) throws(ObjCRuntimeError) -> FFICallInterface {
    if let known = table.withLock({ $0[encoding] }) { return known }
    let parsed = try ParsedSignature.of(encoding)
    let made = try FFICallInterface(parsed.encoding, text: encoding, reference: reference)
    return table.withLock { table in
      if let known = table[encoding] { return known }
      table[encoding] = made
      return made
    }
  }
}
