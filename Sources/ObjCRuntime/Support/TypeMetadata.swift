// The kind word at the start of every Swift type's metadata, part of Swift's stable ABI
// (`MetadataKind`), for the questions the runtime answers without a dynamic cast.

/// Reads a type's metadata kind: a function type's, to read its signature (`FunctionSignature`),
/// and an optional's, which a check of a protocol would answer by scanning every conformance
/// record of the process the first time for each type (see `objcTypeEncoding(of:)`).
internal enum TypeMetadata {
  /// `MetadataKind::Function`: 2, with the flags of metadata that is not on the heap (0x200)
  /// and private to the runtime (0x100).
  static let functionKind: UInt = 0x302
  /// `MetadataKind::Optional`: 2, with the flag of metadata that is not on the heap (0x200).
  static let optionalKind: UInt = 0x202

  /// The kind word of `type`'s metadata.
  static func kind(of type: Any.Type) -> UInt {
    unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
  }
}

/// Whether `type` is an `Optional`, read from its metadata's kind.
internal func isOptional(_ type: Any.Type) -> Bool {
  TypeMetadata.kind(of: type) == TypeMetadata.optionalKind
}
