// Which loaded images discovery looks at: the program's own, not the toolchain's, and never a
// library that carries a second copy of SwizzleKit.

/// Sorts the images the Swift runtime registered into the application's (the executable and the
/// libraries it loaded), the toolchain's (the standard library, Foundation, Swift Testing...),
/// and libraries that carry their own copy of SwizzleKit's modules, which discovery ignores.
///
/// The host's copy of SwizzleKit is the image that defines this module's `ObjCObject`: the
/// executable when SwizzleKit is linked statically, `libSwizzleKit.so` when it is linked as the
/// dynamic library product. Any other image that defines types of SwizzleKit's modules is a
/// second copy.
package enum ApplicationImages {
  private enum Verdict {
    case application
    case toolchain
    case copy(modules: [String])
  }

  private static let verdicts = RuntimeLock<[UInt: Verdict]>([:])

  /// The application's images, in load order; the toolchain's and second copies left out.
  package static func current() throws(DiscoveryError) -> [SwiftImage] {
    try SwiftImages.all().filter(isApplication)
  }

  /// Whether `image` is one of the application's (not the toolchain's, not a second copy).
  package static func isApplication(_ image: SwiftImage) -> Bool {
    if case .application = verdict(for: image) { return true }
    return false
  }

  /// The modules of SwizzleKit that `image` carries a second copy of; empty when it carries
  /// none (or is the host's own copy).
  package static func copiedModules(in image: SwiftImage) -> [String] {
    if case .copy(let modules) = verdict(for: image) { return modules }
    return []
  }

  private static func verdict(for image: SwiftImage) -> Verdict {
    if let known = verdicts.withLock({ $0[image.base] }) { return known }
    let verdict: Verdict
    if SwiftImages.isToolchain(image) {
      verdict = .toolchain
    } else {
      let modules = SwiftImages.swizzleKitModules(in: image)
      verdict =
        modules.isEmpty
          || SwiftImages.classes(in: image).contains {
            ObjectIdentifier($0) == ObjectIdentifier(ObjCObject.self)
          }
        ? .application : .copy(modules: modules)
    }
    verdicts.withLock { $0[image.base] = verdict }
    return verdict
  }
}

/// Finds the types that conform to one protocol, by name, in the application's images, reading
/// each image once: later calls read only images loaded since.
///
/// The layers above the runtime use it to find what nobody lists: plugins, scenarios. A
/// conformance is found from the type's own conformance record, so a subclass that inherits a
/// conformance is not listed (``SelfAwareDiscovery`` walks superclasses for that).
package final class ConformanceScanner: Sendable {
  private struct State {
    var scanned: Set<UInt> = []
    var found: [Any.Type] = []
    var name: SwiftImages.ProtocolName
  }

  private let state: RuntimeLock<State>

  /// A scanner for the protocol `name` declared in `module`.
  package init(_ name: String, in module: String) {
    state = RuntimeLock(State(name: SwiftImages.ProtocolName(name, in: module)))
  }

  /// Every conforming non-generic class, struct or enum found so far, in the order of the
  /// images and of the records in them, after reading the images loaded since the last call.
  package func types() throws(DiscoveryError) -> [Any.Type] {
    let images = try ApplicationImages.current()
    return state.withLock { state in
      for image in images where state.scanned.insert(image.base).inserted {
        state.found += SwiftImages.conformingTypes(in: image, to: &state.name, classesOnly: false)
      }
      return state.found
    }
  }
}
