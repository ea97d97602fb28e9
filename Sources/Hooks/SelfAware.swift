// SelfAware: types that wake up at start-up without being listed anywhere.
import ObjCRuntime

/// A class whose ``awake()`` runs once when the application starts (or when the library that
/// holds it is loaded), without being registered anywhere: the Swift answer to `+load`.
///
/// On Apple platforms the pattern walks `objc_getClassList` and asks each class
/// `as? SelfAware.Type`. On Linux there is no Objective-C class list, so discovery walks the Swift
/// metadata sections of every loaded image instead (see ``SelfAwareDiscovery``). Every
/// non-generic class is found: private and nested ones, conformances added in extensions, and
/// subclasses that inherit the conformance (each gets its own `awake()`, as with `+load`).
///
/// ```swift
/// final class BarLayerStartup: SelfAware {
///   static func awake() { try? PluginRegistry.shared.install(BarLayerPlugin()) }
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
  /// Images left out: already scanned, or the toolchain's own libraries.
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
    /// The address of SelfAware's protocol descriptor, once a record named it.
    var descriptor: UnsafeRawPointer?
  }

  private static let state = RuntimeLock(State())

  /// Awakes every ``SelfAware`` class not awoken yet, in the order of the images and of the
  /// classes in them.
  ///
  /// Discovery reads two sections of each image loaded since the last pass (the toolchain's own
  /// libraries aside): the conformance records, for the classes that declare the conformance,
  /// and the type records, for every class, whose superclass chain says whether it inherits
  /// one. No dynamic cast runs on a class that is not SelfAware.
  ///
  /// - Throws: ``DiscoveryError/unexpectedLayout(version:image:)`` when the Swift runtime's
  ///   metadata is not laid out as this build expects; nothing is awoken then.
  @discardableResult
  public static func awakeAll() throws(DiscoveryError) -> AwakeReport {
    ChangeLog.start()
    let images = try SwiftImages.all()
    // Claim the new images and their conformers under the lock.
    let (fresh, conformers) = state.withLock { state in
      let fresh = images.filter { image in
        state.scannedImages.insert(image.base).inserted && !SwiftImages.isToolchain(image)
      }
      for image in fresh {
        for cls in SwiftImages.conformingClasses(
          in: image, to: "SelfAware", in: "Hooks", protocol: &state.descriptor)
        {
          state.conformers.insert(ObjectIdentifier(cls))
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
      imagesSkipped: images.count - fresh.count, classesExamined: examined)
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
    let images = try SwiftImages.all().filter { !SwiftImages.isToolchain($0) }
    var descriptor: UnsafeRawPointer?
    var conformers: Set<ObjectIdentifier> = []
    for image in images {
      for cls in SwiftImages.conformingClasses(
        in: image, to: "SelfAware", in: "Hooks", protocol: &descriptor)
      {
        conformers.insert(ObjectIdentifier(cls))
      }
    }
    return images.flatMap(SwiftImages.classes(in:))
      .filter { inherits($0, from: conformers) }
      .compactMap { $0 as? any SelfAware.Type }
  }

  /// What loading a library brought.
  public struct LoadReport: Sendable {
    /// The discovery pass that followed the load.
    public let awake: AwakeReport
    /// The plugins that were registered while the library's classes woke up.
    public let plugins: [String]
  }

  /// Loads the shared library at `path` (`dlopen`), awakes the ``SelfAware`` classes it
  /// brings, and lists the plugins they registered. Loading a library twice awakes nothing new.
  ///
  /// The library must use this process's copy of SwizzleKit (link it against the host's symbols,
  /// as `swizzle-lab load` documents), or its classes conform to another copy of ``SelfAware``.
  ///
  /// - Throws: ``DiscoveryError/loadFailed(path:reason:)`` and
  ///   ``DiscoveryError/unexpectedLayout(version:image:)``.
  public static func loadLibrary(at path: String) throws(DiscoveryError) -> LoadReport {
    let before = Set(PluginRegistry.shared.plugins.map(\.identifier))
    try SwiftImages.load(path)
    let report = try awakeAll()
    let plugins = PluginRegistry.shared.plugins.map(\.identifier).filter { !before.contains($0) }
    return LoadReport(awake: report, plugins: plugins)
  }
}
