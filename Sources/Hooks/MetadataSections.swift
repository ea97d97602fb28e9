// The one place that reads the Swift runtime's unstable metadata layout: the images the runtime
// registered, and the classes their type-metadata sections describe.
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
  /// Its path, or `?`.
  let path: String
  /// The `swift5_type_metadata` records: relative references to type context descriptors.
  let typeRecords: UnsafeBufferPointer<Int32>
}

/// Reads the images of the process and the classes they define.
///
/// This relies on two things that are not Swift API: `swift_enumerateAllMetadataSections` (the
/// route Swift Testing uses on ELF platforms) and the layout of type context descriptors
/// (`docs/ABI/TypeMetadata.rst`, `include/swift/ABI/Metadata.h`). Both are checked: a version
/// this file does not know is a ``DiscoveryError``, never a guess.
internal enum SwiftImages {
  /// The versions of `swift::MetadataSections` whose prefix is known here (fields are only
  /// appended, so later versions keep it, but we do not assume so).
  static let knownVersions: ClosedRange<UInt> = 1...10

  /// Every image registered with the Swift runtime, in load order.
  static func all() throws(DiscoveryError) -> [SwiftImage] {
    final class Collector {
      var images: [SwiftImage] = []
      var problem: DiscoveryError?
    }
    let collector = Collector()
    withExtendedLifetime(collector) {
      swift_enumerateAllMetadataSections(
        { sections, context in
          guard let sections, let context else { return true }
          let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
          let prefix = sections.load(as: swk_metadata_sections_prefix.self)
          let base = UInt(bitPattern: prefix.baseAddress)
          guard SwiftImages.knownVersions.contains(UInt(prefix.version)) else {
            collector.problem = .unexpectedLayout(
              version: UInt(prefix.version), image: SwiftImages.path(of: prefix.baseAddress))
            return false
          }
          let range = prefix.swift5_type_metadata
          let records = UnsafeBufferPointer(
            start: UnsafePointer<Int32>(bitPattern: range.start),
            count: range.start == 0 ? 0 : range.length / MemoryLayout<Int32>.size)
          collector.images.append(
            SwiftImage(
              base: base, path: SwiftImages.path(of: prefix.baseAddress), typeRecords: records))
          return true
        }, Unmanaged.passUnretained(collector).toOpaque())
    }
    if let problem = collector.problem { throw problem }
    return collector.images
  }

  private static func path(of address: UnsafeRawPointer?) -> String {
    guard let address, let path = swk_image_path(address) else { return "?" }
    return String(cString: path)
  }

  /// The non-generic classes an image defines, their metadata made (which runs no user code).
  /// Generic classes have no metadata until someone names their arguments, so they are skipped.
  static func classes(in image: SwiftImage) -> [AnyClass] {
    var classes: [AnyClass] = []
    for index in image.typeRecords.indices {
      let record = UnsafeRawPointer(image.typeRecords.baseAddress.unsafelyUnwrapped + index)
      let raw = record.load(as: Int32.self)
      let target = record + Int(raw & ~3)
      let descriptor: UnsafeRawPointer
      switch raw & 3 {  // TypeReferenceKind
      case 0: descriptor = target  // a direct reference to the descriptor
      case 1:  // an indirect one, through a pointer
        guard let indirect = target.load(as: UnsafeRawPointer?.self) else { continue }
        descriptor = indirect
      default: continue  // Objective-C class references: none on Linux
      }
      let flags = descriptor.load(as: UInt32.self)
      guard flags & 0x1F == 16,  // ContextDescriptorKind.Class
        flags & 0x80 == 0  // not generic
      else { continue }
      // TypeContextDescriptor: flags, parent, name, then the metadata access function.
      let accessorOffset = descriptor.load(fromByteOffset: 12, as: Int32.self)
      guard accessorOffset != 0 else { continue }
      // The accessor is swiftcc (MetadataRequest) -> MetadataResponse; on x86-64 and arm64 the
      // request travels and the metadata returns in the C registers, so a C call is exact.
      typealias Accessor = @convention(c) (Int) -> UnsafeRawPointer?
      let accessor = unsafeBitCast(descriptor + 12 + Int(accessorOffset), to: Accessor.self)
      guard let metadata = accessor(0) else { continue }  // 0: complete metadata, blocking
      classes.append(unsafeBitCast(metadata, to: AnyClass.self))
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

  /// The directory the Swift runtime library was loaded from: images there are the toolchain's
  /// own (the standard library, Foundation...), which cannot hold a SelfAware type.
  static let toolchainDirectory: String? = {
    // Int's metadata lives in the standard library's image.
    let marker = unsafeBitCast(Int.self as Any.Type, to: UnsafeRawPointer.self)
    guard let path = swk_image_path(marker) else { return nil }
    let library = String(cString: path)
    guard let slash = library.lastIndex(of: "/") else { return nil }
    return String(library[...slash])
  }()
}
