// The one place that reads the Swift runtime's unstable metadata layout: the images the runtime
// registered, the types their type-metadata sections describe, and their conformance records.
internal import CSwiftMetadata

/// Why discovery could not read the Swift metadata of this process, or could not load a library.
public enum DiscoveryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The Swift runtime reported a metadata-sections structure of a version this build does not
  /// know; the layout SwizzleKit reads may have changed.
  case unexpectedLayout(version: UInt, image: String)
  /// A library could not be loaded.
  case loadFailed(path: String, reason: String)
  /// The library carries its own copy of SwizzleKit's modules (`modules`), so its classes would
  /// subclass, hook and register into that copy instead of the host's. It was not awoken.
  case secondCopy(path: String, modules: [String])

  /// What went wrong and what to do.
  public var description: String {
    switch self {
    case .unexpectedLayout(let version, let image):
      "the Swift runtime describes \(image) with metadata sections of version \(version), which"
        + " this build of SwizzleKit does not know (it reads versions 1 to"
        + " \(SwiftImages.knownVersions.upperBound)); update SwizzleKit for this toolchain"
    case .loadFailed(let path, let reason):
      "could not load \(path.isEmpty ? "\"\"" : path): \(reason)"
    case .secondCopy(let path, let modules):
      "\(path) carries its own copy of SwizzleKit (\(modules.joined(separator: ", "))), so it"
        + " would work on that copy instead of this process's; make its targets depend on the"
        + " SwizzleKit library product (type: .dynamic) instead of the separate modules, and"
        + " rebuild it (Docs/Plugins.md, \"A loadable library\")"
    }
  }
}

/// An image (the executable or a shared library) whose Swift metadata the runtime registered.
package struct SwiftImage {
  /// The image's base address, which identifies it.
  package let base: UInt
  /// Its path; empty for the main executable.
  package let path: String
  /// The `swift5_type_metadata` records: relative references to type context descriptors.
  let typeRecords: UnsafeBufferPointer<Int32>
  /// The `swift5_protocol_conformances` records: relative references to conformance descriptors.
  let conformanceRecords: UnsafeBufferPointer<Int32>
}

/// Reads the images of the process, the types they define and the types that conform to a
/// protocol.
///
/// This relies on two things that are not Swift API: `swift_enumerateAllMetadataSections` (the
/// route Swift Testing uses on ELF platforms) and the layout of context and conformance
/// descriptors (`docs/ABI/TypeMetadata.rst`, `include/swift/ABI/Metadata.h`). A sections version
/// this file does not know is a ``DiscoveryError``, never a guess.
package enum SwiftImages {
  /// The versions of `swift::MetadataSections` whose prefix is known here (fields are only
  /// appended, so later versions keep it, but we do not assume so).
  static let knownVersions: ClosedRange<UInt> = 1...10

  /// SwizzleKit's modules in the image that holds this runtime (the host's copy: the executable
  /// that links it statically, or `libSwizzleKit.so`): `ObjCRuntime`, and each module of that
  /// image that declares a `SwizzleKitModule` marker. An image other than the host's that
  /// defines types in one of them carries a second copy. Read from the image, once, so that the
  /// runtime names no module above it; the host's other modules (the lab's, a package both link)
  /// are not SwizzleKit's. Only `ObjCRuntime` when the image cannot be read.
  static func hostModules() -> Set<String> {
    hostModuleNames.withLock { known in
      if let known { return known }
      var modules: Set<String> = ["ObjCRuntime"]
      if let images = try? all(),
        let host = images.first(where: { image in
          classes(in: image).contains { ObjectIdentifier($0) == ObjectIdentifier(ObjCObject.self) }
        })
      {
        for descriptor in typeDescriptors(in: host) {
          if let module = moduleName(of: descriptor),
            isNamed(descriptor, "SwizzleKitModule", in: module)
          {
            modules.insert(module)
          }
        }
      }
      known = modules
      return modules
    }
  }

  private static let hostModuleNames = RuntimeLock<Set<String>?>(nil)

  /// A number that changes whenever a library is loaded into the process; reading it costs one
  /// call of `dl_iterate_phdr` that stops at the first object.
  package static var loadGeneration: UInt64 { UInt64(swk_loaded_object_generation()) }

  /// The paths of the loaded objects by load address, as last read. A Swift image is never
  /// unloaded, so a path once read stays right; the objects are enumerated again only when an
  /// image shows up whose path is not known (discovery runs at every launch of the model, and
  /// reading every object's path was most of its cost).
  private static let knownPaths = RuntimeLock<[UInt: String]>([:])

  /// Every image registered with the Swift runtime, in load order.
  package static func all() throws(DiscoveryError) -> [SwiftImage] {
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
      collector.paths = knownPaths.withLock { $0 }
      let bases = collector.sections.map { UInt(bitPattern: $0.baseAddress) }
      guard bases.contains(where: { collector.paths[$0] == nil }) else { return }
      swk_enumerate_loaded_objects(
        { base, path, context in
          guard let context, let path else { return }
          Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().paths[UInt(base)] =
            String(cString: path)
        }, context)
      knownPaths.withLock { $0.merge(collector.paths) { _, new in new } }
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

  /// The context descriptor kinds of nominal types (`ContextDescriptorKind`).
  private enum Kind: UInt32 {
    case module = 0
    case `class` = 16
    case `struct` = 17
    case `enum` = 18
  }

  /// The metadata of the non-generic class, struct or enum `descriptor` describes, made if
  /// needed (which runs no user code); nil for anything else. With `classesOnly`, nil for
  /// structs and enums too.
  private static func metadata(_ descriptor: UnsafeRawPointer, classesOnly: Bool) -> Any.Type? {
    let flags = descriptor.load(as: UInt32.self)
    guard let kind = Kind(rawValue: flags & 0x1F), kind != .module,
      !classesOnly || kind == .class,
      flags & 0x80 == 0  // not generic: a generic type has no metadata until it is named
    else { return nil }
    // TypeContextDescriptor: flags, parent, name, then the metadata access function.
    guard let accessor = relative(descriptor + 12) else { return nil }
    // The accessor is swiftcc (MetadataRequest) -> MetadataResponse; on x86-64 and arm64 the
    // request travels and the metadata returns in the C registers, so a C call is exact.
    typealias Accessor = @convention(c) (Int) -> UnsafeRawPointer?
    guard let metadata = unsafeBitCast(accessor, to: Accessor.self)(0) else { return nil }
    return unsafeBitCast(metadata, to: Any.Type.self)
  }

  /// The descriptors of the types an image's type records name.
  private static func typeDescriptors(in image: SwiftImage) -> [UnsafeRawPointer] {
    var descriptors: [UnsafeRawPointer] = []
    descriptors.reserveCapacity(image.typeRecords.count)
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
      // Only the nominal types (class, struct, enum), whose descriptors have a name at +8 and a
      // parent: a record can lead elsewhere (a libSwizzleKit.so build showed one whose flags
      // were no type's), and reading it as a type would read a wild name pointer.
      guard let descriptor,
        let kind = Kind(rawValue: descriptor.load(as: UInt32.self) & 0x1F), kind != .module
      else { continue }
      descriptors.append(descriptor)
    }
    return descriptors
  }

  /// The non-generic classes an image defines.
  package static func classes(in image: SwiftImage) -> [AnyClass] {
    typeDescriptors(in: image).compactMap { descriptor in
      metadata(descriptor, classesOnly: true).map { unsafeBitCast($0, to: AnyClass.self) }
    }
  }

  /// The name of the module that holds the type `descriptor` describes (its outermost context).
  private static func moduleName(of descriptor: UnsafeRawPointer) -> String? {
    var context = descriptor
    for _ in 0..<64 {  // contexts nest a few levels; the bound only guards against a bad image
      guard let parent = indirectable(context + 4) else {
        guard context.load(as: UInt32.self) & 0x1F == Kind.module.rawValue,
          let name = relative(context + 8)
        else { return nil }
        return String(cString: name.assumingMemoryBound(to: CChar.self))
      }
      context = parent
    }
    return nil
  }

  /// The host's modules (``hostModules()``) whose types `image` defines: not empty when the
  /// image carries a copy of SwizzleKit (or is the host's own copy).
  package static func swizzleKitModules(in image: SwiftImage) -> [String] {
    let host = hostModules()
    var found: Set<String> = []
    for descriptor in typeDescriptors(in: image) {
      if let module = moduleName(of: descriptor), host.contains(module) {
        found.insert(module)
      }
    }
    return found.sorted()
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
      parent.load(as: UInt32.self) & 0x1F == Kind.module.rawValue,
      let moduleName = relative(parent + 8)
    else { return false }
    return String(cString: moduleName.assumingMemoryBound(to: CChar.self)) == module
  }

  /// A protocol searched for by name, with its descriptor's address once a record named it, so
  /// that later records compare by address.
  package struct ProtocolName {
    /// The protocol's name (`SelfAware`).
    package let name: String
    /// The module that declares it (`ObjCRuntime`).
    package let module: String
    /// Where its descriptor lives in the host's copy of the module; nil until found.
    fileprivate(set) var descriptor: UnsafeRawPointer?

    /// The protocol `name` of `module`.
    package init(_ name: String, in module: String) {
      self.name = name
      self.module = module
    }
  }

  /// The non-generic types of `image` whose own conformance records say they conform to
  /// `protocol` (subclasses that inherit a conformance have no record). With `classesOnly`,
  /// classes only.
  package static func conformingTypes(
    in image: SwiftImage, to protocol: inout ProtocolName, classesOnly: Bool
  ) -> [Any.Type] {
    var types: [Any.Type] = []
    for index in image.conformanceRecords.indices {
      let record = UnsafeRawPointer(image.conformanceRecords.baseAddress.unsafelyUnwrapped + index)
      // ProtocolConformanceDescriptor: protocol (relative indirectable), type reference
      // (relative), witness table pattern (relative), flags.
      guard let conformance = relative(record),
        let protocolDescriptor = indirectable(conformance)
      else { continue }
      if let known = `protocol`.descriptor {
        guard protocolDescriptor == known else { continue }
      } else {
        guard isNamed(protocolDescriptor, `protocol`.name, in: `protocol`.module) else {
          continue
        }
        `protocol`.descriptor = protocolDescriptor
      }
      let flags = conformance.load(fromByteOffset: 12, as: UInt32.self)
      let kind = Int32((flags >> 3) & 0x7)  // ConformanceFlags.TypeReferenceKind
      if let descriptor = typeDescriptor(conformance + 4, kind: kind),
        let type = metadata(descriptor, classesOnly: classesOnly)
      {
        types.append(type)
      }
    }
    return types
  }

  /// Loads the library at `path` with its symbols kept local, so that nothing else binds to it
  /// before it is checked, and returns its base address; ``promote(_:)`` then makes its symbols
  /// global.
  static func loadLocally(_ path: String) throws(DiscoveryError) -> UInt {
    let base = swk_dlopen_local(path)
    guard base != 0 else {
      let reason = swk_dlerror().map { String(cString: $0) } ?? "unknown error"
      throw .loadFailed(path: path, reason: reason)
    }
    return UInt(base)
  }

  /// The base address of the loaded image that holds `type`'s metadata, or nil for a type made
  /// at run time (a generic specialization, for one).
  package static func base(holding type: Any.Type) -> UInt? {
    var base: UInt = 0
    guard swk_image_containing(unsafeBitCast(type, to: UnsafeRawPointer.self), &base) != 0
    else { return nil }
    return base
  }

  /// Makes the symbols of a library loaded with ``loadLocally(_:)`` global.
  static func promote(_ path: String) throws(DiscoveryError) {
    guard swk_dlopen_promote(path) != nil else {
      let reason = swk_dlerror().map { String(cString: $0) } ?? "unknown error"
      throw .loadFailed(path: path, reason: reason)
    }
  }

  /// The directory of the Swift runtime library: images there are the toolchain's own (the
  /// standard library, Foundation, Swift Testing...), which hold no SwizzleKit class, no
  /// SelfAware type and no plugin.
  static let toolchainDirectory: String? = {
    guard let core = (try? all())?.first(where: { $0.path.hasSuffix("/libswiftCore.so") }),
      let slash = core.path.lastIndex(of: "/")
    else { return nil }
    return String(core.path[...slash])
  }()

  /// Whether `image` is one of the toolchain's libraries.
  package static func isToolchain(_ image: SwiftImage) -> Bool {
    guard let directory = toolchainDirectory, !image.path.isEmpty else { return false }
    return image.path.hasPrefix(directory)
  }
}
