// SelfAware: types that wake up at start-up without being listed anywhere.

/// A class whose ``awake()`` runs once when the application starts (or when the library that
/// holds it is loaded), without being registered anywhere: the Swift answer to `+load`.
///
/// On Apple platforms the pattern walks `objc_getClassList` and asks each class
/// `as? SelfAware.Type`. Here ``SelfAwareDiscovery`` walks the Swift metadata sections of every
/// loaded image instead, so that conformers need not be runtime classes: every non-generic class
/// is found, private and nested ones, conformances added in extensions, and subclasses that
/// inherit the conformance (each gets its own `awake()`, as with `+load`). The seeds' own way,
/// a walk of `objc_getClassList` into an `AutoreleasingUnsafeMutablePointer<AnyClass>` casting
/// each class to the protocol, works too for ``ObjCObject`` subclasses, because the class list
/// holds every loaded class.
///
/// ```swift
/// final class Startup: SelfAware {
///   static func awake() { print("awake before the application delegate runs") }
/// }
/// ```
public protocol SelfAware: AnyObject {
  /// Called once per conforming class, on the thread that runs discovery.
  static func awake()
}

/// What one discovery pass did.
public struct AwakeReport: Sendable, CustomStringConvertible {
  /// The classes awoken by this pass, in the order their `awake()` ran.
  public let awoken: [String]
  /// Images whose metadata was read in this pass.
  public let imagesScanned: Int
  /// Images left out: already scanned, the toolchain's own libraries, or second copies of
  /// SwizzleKit.
  public let imagesSkipped: Int
  /// Classes whose metadata was examined.
  public let classesExamined: Int

  /// `awoke 3 classes (2 images scanned, 5 skipped, 120 classes examined)`.
  public var description: String {
    "awoke \(awoken.count) class\(awoken.count == 1 ? "" : "es") (\(imagesScanned) images"
      + " scanned, \(imagesSkipped) skipped, \(classesExamined) classes examined)"
  }
}

/// Finds the ``SelfAware`` classes of the process and awakes each exactly once.
///
/// The first ``awakeAll()`` reads every image; later calls read only images loaded since (such as
/// a plugin library opened with ``loadLibrary(at:)``). Racing calls awake each class once.
public enum SelfAwareDiscovery {
  private struct State {
    var scannedImages: Set<UInt> = []
    var awoken: Set<ObjectIdentifier> = []
    /// Classes whose own conformance records say they are SelfAware, in every image scanned.
    var conformers: Set<ObjectIdentifier> = []
    var selfAware = SwiftImages.ProtocolName("SelfAware", in: "ObjCRuntime")
  }

  private static let state = RuntimeLock(State())

  /// Awakes every ``SelfAware`` class not awoken yet, in the order of the images and of the
  /// classes in them.
  ///
  /// Discovery reads two sections of each image loaded since the last pass (the toolchain's own
  /// libraries and second copies of SwizzleKit aside): the conformance records, for the classes
  /// that declare the conformance, and the type records, for every class, whose superclass
  /// chain says whether it inherits one. No dynamic cast runs on a class that is not SelfAware.
  ///
  /// - Throws: ``DiscoveryError/unexpectedLayout(version:image:)`` when the Swift runtime's
  ///   metadata is not laid out as this build expects; nothing is awoken then.
  @discardableResult
  public static func awakeAll() throws(DiscoveryError) -> AwakeReport {
    let all = try SwiftImages.all()
    let images = all.filter(ApplicationImages.isApplication)
    // Claim the new images and their conformers under the lock.
    let (fresh, conformers) = state.withLock { state in
      let fresh = images.filter { state.scannedImages.insert($0.base).inserted }
      for image in fresh {
        for type in SwiftImages.conformingTypes(
          in: image, to: &state.selfAware, classesOnly: true)
        {
          state.conformers.insert(ObjectIdentifier(type))
        }
      }
      return (fresh, state.conformers)
    }
    var examined = 0
    var candidates: [any SelfAware.Type] = []
    for image in fresh {
      let classes = SwiftImages.classes(in: image)
      examined += classes.count
      for cls in classes where inherits(cls, from: conformers) {
        if let type = cls as? any SelfAware.Type { candidates.append(type) }
      }
    }
    // Claim the classes under the lock, awake them outside it: awake() may install plugins or
    // load libraries, which may run discovery again.
    let toAwake = state.withLock { state in
      candidates.filter { state.awoken.insert(ObjectIdentifier($0)).inserted }
    }
    for type in toAwake { type.awake() }
    return AwakeReport(
      awoken: toAwake.map { _typeName($0, qualified: true) }, imagesScanned: fresh.count,
      imagesSkipped: all.count - fresh.count, classesExamined: examined)
  }

  /// Whether `cls` or one of its superclasses is among `conformers`.
  private static func inherits(_ cls: AnyClass, from conformers: Set<ObjectIdentifier>) -> Bool {
    var current: AnyClass? = cls
    while let type = current {
      if conformers.contains(ObjectIdentifier(type)) { return true }
      current = _getSuperclass(type)
    }
    return false
  }

  /// The ``SelfAware`` classes of the process, without awaking them.
  ///
  /// - Throws: ``DiscoveryError/unexpectedLayout(version:image:)``.
  public static func selfAwareTypes() throws(DiscoveryError) -> [any SelfAware.Type] {
    let images = try ApplicationImages.current()
    var selfAware = SwiftImages.ProtocolName("SelfAware", in: "ObjCRuntime")
    var conformers: Set<ObjectIdentifier> = []
    for image in images {
      for type in SwiftImages.conformingTypes(in: image, to: &selfAware, classesOnly: true) {
        conformers.insert(ObjectIdentifier(type))
      }
    }
    return images.flatMap(SwiftImages.classes(in:))
      .filter { inherits($0, from: conformers) }
      .compactMap { $0 as? any SelfAware.Type }
  }

  /// Loads the shared library at `path` (`dlopen`) and awakes the ``SelfAware`` classes it
  /// brings. Loading a library twice awakes nothing new.
  ///
  /// The report's ``AwakeReport/awoken`` names the classes the library brought, even when a
  /// discovery pass on another thread claimed them first (it awakes them then, once).
  ///
  /// The library must use this process's copy of SwizzleKit: built against the `SwizzleKit`
  /// library product (`type: .dynamic`), it names `libSwizzleKit.so` as a dependency, which a
  /// host provides (see `Docs/Plugins.md`). A library that carries its own copy of SwizzleKit's
  /// modules is refused before any of its classes wakes, since its classes would subclass, hook
  /// and register into that copy.
  ///
  /// - Throws: ``DiscoveryError/loadFailed(path:reason:)`` (for an empty path too, which
  ///   `dlopen` would take as the main program), ``DiscoveryError/secondCopy(path:modules:)`` and
  ///   ``DiscoveryError/unexpectedLayout(version:image:)``.
  @discardableResult
  public static func loadLibrary(at path: String) throws(DiscoveryError) -> AwakeReport {
    try load(path).report
  }

  /// ``loadLibrary(at:)``, returning also the base addresses of the images the library brought
  /// (none when it was loaded before) and of the library's own image (new or not), by which the
  /// plugin registry tells its plugins.
  package static func load(
    _ path: String
  ) throws(DiscoveryError) -> (report: AwakeReport, images: Set<UInt>, library: UInt) {
    let (brought, library) = try LibraryLoader.load(path)
    let pass = try awakeAll()
    // Between the dlopen and this pass, a pass on another thread may have claimed the library's
    // images: name the classes the library brought, whichever pass awoke them.
    let (conformers, awoken) = state.withLock { ($0.conformers, $0.awoken) }
    var names: [String] = []
    for image in try ApplicationImages.current() where brought.contains(image.base) {
      for cls in SwiftImages.classes(in: image)
      where awoken.contains(ObjectIdentifier(cls)) && inherits(cls, from: conformers) {
        names.append(_typeName(cls, qualified: true))
      }
    }
    let report = AwakeReport(
      awoken: names, imagesScanned: pass.imagesScanned, imagesSkipped: pass.imagesSkipped,
      classesExamined: pass.classesExamined)
    return (report, brought, library)
  }
}

/// Opens plugin libraries: locally first, so that nothing binds to a library that turns out to
/// carry a second copy of SwizzleKit, then globally.
package enum LibraryLoader {
  /// Loads the library at `path` and returns the base addresses of the images it brought (none
  /// when it was loaded before) and of its own image; throws if it cannot be opened or carries
  /// a second copy of SwizzleKit (which then stays loaded, its symbols local, and ignored by
  /// discovery: a Swift image cannot be unloaded once its metadata is registered).
  @discardableResult
  package static func load(_ path: String) throws(DiscoveryError) -> (
    images: Set<UInt>, library: UInt
  ) {
    guard !path.isEmpty else {
      throw .loadFailed(
        path: path, reason: "an empty path names no library (dlopen would return the program)")
    }
    // One load at a time, so that the images new since `before` are this library's. Nothing
    // under the lock can ask for another load: a Swift library has no static initializers, and
    // its image's constructors only register its metadata with the Swift runtime.
    return try loading.withLock { loads throws(DiscoveryError) -> (Set<UInt>, UInt) in
      loads += 1
      return try loadAlone(path)
    }
  }

  /// Serializes the loads made through SwizzleKit, and counts them. The lock guards a value of
  /// its own (an `Int`, not `Void`): ThreadSanitizer checks a guarded value at its address, and a
  /// zero-size value has the lock object's, which other threads read unlocked, so a `Void` lock
  /// drew a false race report (whose symbolization, during a `dlopen`, could hang TSan).
  private static let loading = RuntimeLock(0)

  private static func loadAlone(_ path: String) throws(DiscoveryError) -> (Set<UInt>, UInt) {
    let before = Set(try SwiftImages.all().map(\.base))
    let base = try SwiftImages.loadLocally(path)
    // The library itself (new, or loaded before under this or another path) and whatever it
    // brought with it.
    for image in try SwiftImages.all() where image.base == base || !before.contains(image.base) {
      let copied = ApplicationImages.copiedModules(in: image)
      if !copied.isEmpty {
        throw .secondCopy(path: image.path.isEmpty ? path : image.path, modules: copied)
      }
    }
    try SwiftImages.promote(path)
    return (Set(try SwiftImages.all().map(\.base)).subtracting(before), base)
  }
}
