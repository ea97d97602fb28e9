// The one place that reads the Swift runtime's unstable metadata layout: the images the runtime
// registered, the classes their type-metadata sections describe, and their conformance records.
internal import CSwiftMetadata

/// Why SelfAware discovery could not read the Swift metadata of this process.
public enum DiscoveryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The Swift runtime reported a metadata-sections structure of a version this build does not
  /// know; the layout SwizzleKit reads may have changed.
  case unexpectedLayout(version: UInt, image: String)
  /// A library could not be loaded.
  case loadFailed(path: String, reason: String)

  /// What went wrong and what to do.
  public var description: String {
    switch self {
    case .unexpectedLayout(let version, let image):
      "the Swift runtime describes \(image) with metadata sections of version \(version), which"
        + " this build of SwizzleKit does not know (it reads versions 1 to"
        + " \(SwiftImages.knownVersions.upperBound)); update SwizzleKit for this toolchain"
    case .loadFailed(let path, let reason):
      "could not load \(path): \(reason)"
    }
  }
}

/// An image (the executable or a shared library) whose Swift metadata the runtime registered.
internal struct SwiftImage {
  /// The image's base address, which identifies it.
  let base: UInt
  /// Its path; empty for the main executable.
  let path: String
  /// The `swift5_type_metadata` records: relative references to type context descriptors.
  let typeRecords: UnsafeBufferPointer<Int32>
  /// The `swift5_protocol_conformances` records: relative references to conformance descriptors.
  let conformanceRecords: UnsafeBufferPointer<Int32>
}

/// Reads the images of the process, the classes they define and the classes that conform to a
/// protocol.
///
/// This relies on two things that are not Swift API: `swift_enumerateAllMetadataSections` (the
/// route Swift Testing uses on ELF platforms) and the layout of context and conformance
/// descriptors (`docs/ABI/TypeMetadata.rst`, `include/swift/ABI/Metadata.h`). A sections version
/// this file does not know is a ``DiscoveryError``, never a guess.
internal enum SwiftImages {
  /// The versions of `swift::MetadataSections` whose prefix is known here (fields are only
  /// appended, so later versions keep it, but we do not assume so).
  static let knownVersions: ClosedRange<UInt> = 1...10

  /// Every image registered with the Swift runtime, in load order.
  static func all() throws(DiscoveryError) -> [SwiftImage] {
    final class Collector {
      var sections: [swk_metadata_sections_prefix] = []
      var paths: [UInt: String] = [:]
    }
    let collector = Collector()
    withExtendedLifetime(collector) {
      let context = Unmanaged.passUnretained(collector).toOpaque()
      swift_enumerateAllMetadataSections(
        { sections, context in
          guard let sections, let context else { return true }
          Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().sections.append(
            sections.load(as: swk_metadata_sections_prefix.self))
          return true
        }, context)
      swk_enumerate_loaded_objects(
        { base, path, context in
          guard let context, let path else { return }
          Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().paths[UInt(base)] =
            String(cString: path)
        }, context)
    }
    var images: [SwiftImage] = []
    for prefix in collector.sections {
      let base = UInt(bitPattern: prefix.baseAddress)
      let path = collector.paths[base] ?? ""
      guard knownVersions.contains(UInt(prefix.version)) else {
        throw .unexpectedLayout(version: UInt(prefix.version), image: path.isEmpty ? "?" : path)
      }
      images.append(
        SwiftImage(
          base: base, path: path, typeRecords: records(prefix.swift5_type_metadata),
          conformanceRecords: records(prefix.swift5_protocol_conformances)))
    }
    return images
  }

  private static func records(_ range: swk_section_range) -> UnsafeBufferPointer<Int32> {
    UnsafeBufferPointer(
      start: UnsafePointer<Int32>(bitPattern: range.start),
      count: range.start == 0 ? 0 : range.length / MemoryLayout<Int32>.size)
  }

  /// The target of the relative pointer at `address`.
  private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = address.load(as: Int32.self)
    return offset == 0 ? nil : address + Int(offset)
  }

  /// The target of the relative indirectable pointer at `address` (low bit set: the target holds
  /// a pointer to the real target).
  private static func indirectable(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = address.load(as: Int32.self)
    guard offset != 0 else { return nil }
    let target = address + Int(offset & ~1)
    return offset & 1 == 0 ? target : target.load(as: UnsafeRawPointer?.self)
  }

  /// The type context descriptor a type reference of `kind` at `address` points at.
  private static func typeDescriptor(_ address: UnsafeRawPointer, kind: Int32)
    -> UnsafeRawPointer?
  {
    switch kind {  // TypeReferenceKind
    case 0: return relative(address)  // a direct reference to the descriptor
    case 1:  // an indirect one, through a pointer
      return relative(address).flatMap { $0.load(as: UnsafeRawPointer?.self) }
    default: return nil  // Objective-C class references: none on Linux
    }
  }

  /// The metadata of the class `descriptor` describes, made if needed (which runs no user
  /// code); nil for anything but a non-generic class.
  private static func classMetadata(_ descriptor: UnsafeRawPointer) -> AnyClass? {
    let flags = descriptor.load(as: UInt32.self)
    guard flags & 0x1F == 16,  // ContextDescriptorKind.Class
      flags & 0x80 == 0  // not generic: a generic class has no metadata until it is named
    else { return nil }
    // TypeContextDescriptor: flags, parent, name, then the metadata access function.
    guard let accessor = relative(descriptor + 12) else { return nil }
    // The accessor is swiftcc (MetadataRequest) -> MetadataResponse; on x86-64 and arm64 the
    // request travels and the metadata returns in the C registers, so a C call is exact.
    typealias Accessor = @convention(c) (Int) -> UnsafeRawPointer?
    guard let metadata = unsafeBitCast(accessor, to: Accessor.self)(0) else { return nil }
    return unsafeBitCast(metadata, to: AnyClass.self)
  }

  /// The non-generic classes an image defines.
  static func classes(in image: SwiftImage) -> [AnyClass] {
    var classes: [AnyClass] = []
    for index in image.typeRecords.indices {
      let record = UnsafeRawPointer(image.typeRecords.baseAddress.unsafelyUnwrapped + index)
      let raw = record.load(as: Int32.self)
      // The record is a relative pointer whose low two bits are the TypeReferenceKind.
      let target = record + Int(raw & ~3)
      let descriptor: UnsafeRawPointer?
      switch raw & 3 {
      case 0: descriptor = target
      case 1: descriptor = target.load(as: UnsafeRawPointer?.self)
      default: descriptor = nil
      }
      if let descriptor, let cls = classMetadata(descriptor) { classes.append(cls) }
    }
    return classes
  }

  /// Whether the context descriptor at `descriptor` is named `name` and its parent is a module
  /// named `module`.
  private static func isNamed(_ descriptor: UnsafeRawPointer, _ name: String, in module: String)
    -> Bool
  {
    // ContextDescriptor: flags, parent (relative indirectable), name (relative, protocols and
    // types alike).
    guard let namePointer = relative(descriptor + 8),
      String(cString: namePointer.assumingMemoryBound(to: CChar.self)) == name,
      let parent = indirectable(descriptor + 4),
      parent.load(as: UInt32.self) & 0x1F == 0,  // ContextDescriptorKind.Module
      let moduleName = relative(parent + 8)
    else { return false }
    return String(cString: moduleName.assumingMemoryBound(to: CChar.self)) == module
  }

  /// The classes of `image` whose own conformance records say they conform to the protocol
  /// `name` of `module` (subclasses that inherit a conformance have no record); `protocol`
  /// caches the protocol's descriptor once found, so that later records compare by address.
  static func conformingClasses(
    in image: SwiftImage, to name: String, in module: String,
    protocol known: inout UnsafeRawPointer?
  ) -> [AnyClass] {
    var classes: [AnyClass] = []
    for index in image.conformanceRecords.indices {
      let record = UnsafeRawPointer(image.conformanceRecords.baseAddress.unsafelyUnwrapped + index)
      // ProtocolConformanceDescriptor: protocol (relative indirectable), type reference
      // (relative), witness table pattern (relative), flags.
      guard let conformance = relative(record),
        let protocolDescriptor = indirectable(conformance)
      else { continue }
      if let known {
        guard protocolDescriptor == known else { continue }
      } else {
        guard isNamed(protocolDescriptor, name, in: module) else { continue }
        known = protocolDescriptor
      }
      let flags = conformance.load(fromByteOffset: 12, as: UInt32.self)
      let kind = Int32((flags >> 3) & 0x7)  // ConformanceFlags.TypeReferenceKind
      if let descriptor = typeDescriptor(conformance + 4, kind: kind),
        let cls = classMetadata(descriptor)
      {
        classes.append(cls)
      }
    }
    return classes
  }

  /// Loads the library at `path`.
  static func load(_ path: String) throws(DiscoveryError) {
    guard swk_dlopen(path) != nil else {
      let reason = swk_dlerror().map { String(cString: $0) } ?? "unknown error"
      throw .loadFailed(path: path, reason: reason)
    }
  }

  /// The directory of the Swift runtime library: images there are the toolchain's own (the
  /// standard library, Foundation...), which hold no SelfAware type and no subclass of one.
  static let toolchainDirectory: String? = {
    guard let core = (try? all())?.first(where: { $0.path.hasSuffix("/libswiftCore.so") }),
      let slash = core.path.lastIndex(of: "/")
    else { return nil }
    return String(core.path[...slash])
  }()

  /// Whether `image` is one of the toolchain's libraries.
  static func isToolchain(_ image: SwiftImage) -> Bool {
    guard let directory = toolchainDirectory, !image.path.isEmpty else { return false }
    return image.path.hasPrefix(directory)
  }
}
