// SelfAware discovery: conformers across modules, private, nested, by extension and by
// inheritance are awoken once, with no list anywhere; a library loaded later is scanned too.
import Foundation
import Hooks
import HooksTestSupport
import ObjCRuntime
import Synchronization
import Testing

/// How many times each conformer of this module was awoken.
enum AwakeCounts {
  static let privateConformer = Atomic<Int>(0)
  static let nested = Atomic<Int>(0)
  static let byExtension = Atomic<Int>(0)
  static let generic = Atomic<Int>(0)
}

private final class PrivateConformer: SelfAware {
  static func awake() { AwakeCounts.privateConformer.add(1, ordering: .relaxed) }
}

enum Outer {
  final class Nested: SelfAware {
    static func awake() { AwakeCounts.nested.add(1, ordering: .relaxed) }
  }
}

final class ConformsByExtension {}

extension ConformsByExtension: SelfAware {
  static func awake() { AwakeCounts.byExtension.add(1, ordering: .relaxed) }
}

/// Generic classes have no metadata until someone names their arguments: never awoken.
final class GenericConformer<Element>: SelfAware {
  static func awake() { AwakeCounts.generic.add(1, ordering: .relaxed) }
}

@Suite("SelfAware discovery")
struct SelfAwareTests {
  @Test("every kind of conformer is awoken exactly once, however often discovery runs")
  func awakesOnce() throws {
    try SelfAwareDiscovery.awakeAll()
    try SelfAwareDiscovery.awakeAll()
    // Another test's pass may have claimed these classes and still be awaking them on its own
    // thread (passes do not wait for each other, so that an awake() that installs a plugin
    // cannot deadlock against one that loads a library): wait for it, up to five seconds.
    func allAwoken() -> Bool {
      AwakeCounts.privateConformer.load(ordering: .acquiring) > 0
        && AwakeCounts.nested.load(ordering: .acquiring) > 0
        && AwakeCounts.byExtension.load(ordering: .acquiring) > 0
        && SupportAwakeCounts.conformer.load(ordering: .acquiring) > 0
        && SupportAwakeCounts.subclass.load(ordering: .acquiring) > 0
    }
    for _ in 0..<5_000 where !allAwoken() { usleep(1_000) }
    #expect(AwakeCounts.privateConformer.load(ordering: .relaxed) == 1)
    #expect(AwakeCounts.nested.load(ordering: .relaxed) == 1)
    #expect(AwakeCounts.byExtension.load(ordering: .relaxed) == 1)
    #expect(SupportAwakeCounts.conformer.load(ordering: .relaxed) == 1, "across modules")
    #expect(SupportAwakeCounts.subclass.load(ordering: .relaxed) == 1, "inherited conformance")
    #expect(AwakeCounts.generic.load(ordering: .relaxed) == 0)
  }

  @Test("the conformers are listed without being awoken, and nothing else is")
  func lists() throws {
    let names = Set(try SelfAwareDiscovery.selfAwareTypes().map { _typeName($0, qualified: true) })
    #expect(names.contains("HooksTests.Outer.Nested"))
    #expect(names.contains("HooksTests.ConformsByExtension"))
    #expect(names.contains("HooksTestSupport.SupportSubclass"))
    #expect(!names.contains { $0.contains("GenericConformer") })
    #expect(!names.contains { $0.contains("Meter") })
  }

  @Test("a second pass scans only images loaded since, and awakes nothing twice")
  func rescan() throws {
    try SelfAwareDiscovery.awakeAll()
    let again = try SelfAwareDiscovery.awakeAll()
    #expect(again.awoken.isEmpty)
    #expect(again.imagesScanned == 0)
  }

  @Test("a plugin library loaded with dlopen is scanned, and its plugin registers once")
  func loadsLibrary() throws {
    let library = try LatePluginBuilder.build()
    let first = try PluginRegistry.shared.loadLibrary(at: library)
    #expect(first.awake.awoken.contains { $0.hasSuffix("LatePluginStartup") })
    #expect(first.plugins == ["late-plugin"])
    #expect(PluginRegistry.shared.isInstalled("test.late-plugin"))
    #expect(first.alreadyLoaded.isEmpty)
    // Again, under another path to the same file: nothing new, and the report says whose.
    let other =
      (library as NSString).deletingLastPathComponent + "/./"
      + (library as NSString).lastPathComponent
    let second = try PluginRegistry.shared.loadLibrary(at: other)
    #expect(second.awake.awoken.isEmpty)
    #expect(second.plugins.isEmpty)
    #expect(second.alreadyLoaded == ["late-plugin"])
    #expect(PluginRegistry.shared.installationCount(of: "test.late-plugin") == 1)
  }

  @Test("a library that does not exist is a typed error naming it")
  func missingLibrary() {
    #expect(throws: DiscoveryError.self) {
      try SelfAwareDiscovery.loadLibrary(at: "/nonexistent/libNothing.so")
    }
  }

  @Test("a library that carries its own copy of SwizzleKit is refused, naming what to change")
  func secondCopy() throws {
    let library = try LatePluginBuilder.buildSecondCopy()
    do {
      try SelfAwareDiscovery.loadLibrary(at: library)
      Issue.record("the copy was loaded")
    } catch {
      guard case .secondCopy(let path, let modules) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(path.hasSuffix(".so") && modules == ["ObjCRuntime"])
      #expect(error.description.contains("SwizzleKit library product"))
    }
    #expect(objc_getClass("Impostor") == nil, "its classes stay out of the class list")
    // Asked again, the same answer: the copy stays loaded but ignored.
    #expect(throws: DiscoveryError.self) { try SelfAwareDiscovery.loadLibrary(at: library) }
  }

  @Test(
    "a copy is a library defining types of SwizzleKit's modules, not of the host's other modules"
  )
  func onlySwizzleKitModulesMakeACopy() throws {
    // The test binary links HooksTestSupport, which is not SwizzleKit's: a library of that name
    // (a package the host and a plugin both link, say) is not a copy.
    let neighbour = try LatePluginBuilder.buildLibrary(
      module: "HooksTestSupport", source: "public final class Neighbour {}\n")
    #expect(throws: Never.self) { try SelfAwareDiscovery.loadLibrary(at: neighbour) }
    // A library that defines types in Hooks, which declares the marker, is one.
    let hooks = try LatePluginBuilder.buildLibrary(
      module: "Hooks", source: "public enum SwizzleKitModule {}\npublic final class Rival {}\n")
    do {
      try SelfAwareDiscovery.loadLibrary(at: hooks)
      Issue.record("the copy of Hooks was loaded")
    } catch {
      guard case .secondCopy(_, let modules) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(modules == ["Hooks"])
    }
  }

  @Test("an empty path is refused, not taken as the main program (which would awake it again)")
  func emptyPath() throws {
    try SelfAwareDiscovery.awakeAll()
    let before = AwakeCounts.nested.load(ordering: .relaxed)
    do {
      try SelfAwareDiscovery.loadLibrary(at: "")
      Issue.record("an empty path was accepted")
    } catch {
      #expect(error.description.contains("empty path"))
    }
    #expect(AwakeCounts.nested.load(ordering: .relaxed) == before)
  }
}

/// Compiles `Tests/LatePluginSource/LatePlugin.swift` into a shared library against the modules
/// of this build, once per test run; and a library that defines a module named `ObjCRuntime`
/// of its own, which is what a second copy of SwizzleKit looks like.
enum LatePluginBuilder {
  private static let built = RuntimeLock<String?>(nil)
  private static let copy = RuntimeLock<String?>(nil)

  /// A library of module `module` made of `source`, under a name of its own.
  static func buildLibrary(module: String, source text: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory
    let stem = "swizzlekit-\(module.lowercased())-\(getpid())-\(UUID().uuidString.prefix(8))"
    let source = directory.appendingPathComponent("\(stem).swift")
    try text.write(to: source, atomically: true, encoding: .utf8)
    let output = directory.appendingPathComponent("lib\(stem).so").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swiftc", "-emit-library", "-parse-as-library", "-module-name", module, source.path,
      "-o", output,
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw DiscoveryError.loadFailed(path: output, reason: "swiftc failed")
    }
    return output
  }

  /// A library whose module is named ObjCRuntime and defines an `ObjCObject` that is not ours.
  static func buildSecondCopy() throws -> String {
    try copy.withLock { copy in
      if let copy { return copy }
      let directory = FileManager.default.temporaryDirectory
      let source = directory.appendingPathComponent("swizzlekit-copy-\(getpid()).swift")
      try "open class ObjCObject {}\npublic final class Impostor: ObjCObject {}\n".write(
        to: source, atomically: true, encoding: .utf8)
      let output = directory.appendingPathComponent("libswizzlekit-copy-\(getpid()).so").path
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "swiftc", "-emit-library", "-parse-as-library", "-module-name", "ObjCRuntime",
        source.path, "-o", output,
      ]
      try process.run()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        throw DiscoveryError.loadFailed(path: output, reason: "swiftc failed")
      }
      copy = output
      return output
    }
  }

  static func build() throws -> String {
    try built.withLock { built in
      if let built { return built }
      let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
      let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
      let buildDirectory = URL(fileURLWithPath: executable).deletingLastPathComponent()
      let output = FileManager.default.temporaryDirectory
        .appendingPathComponent("swizzlekit-late-plugin-\(getpid()).so").path
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "swiftc", "-emit-library", "-parse-as-library", "-module-name", "LatePlugin",
        "-I", buildDirectory.appendingPathComponent("Modules").path,
        "-Xcc",
        "-fmodule-map-file="
          + buildDirectory.appendingPathComponent("CObjCRuntime.build/module.modulemap").path,
        "-Xcc", "-I" + packageRoot.appendingPathComponent("Sources/CObjCRuntime/include").path,
        "-Xcc",
        "-fmodule-map-file="
          + buildDirectory.appendingPathComponent("CObjCTypes.build/module.modulemap").path,
        "-Xcc", "-I" + packageRoot.appendingPathComponent("Sources/CObjCTypes/include").path,
        "-Xcc",
        "-fmodule-map-file="
          + packageRoot.appendingPathComponent("Sources/CFFI/module.modulemap").path,
        "-Xcc",
        "-fmodule-map-file="
          + buildDirectory.appendingPathComponent("CSwiftMetadata.build/module.modulemap").path,
        "-Xcc", "-I" + packageRoot.appendingPathComponent("Sources/CSwiftMetadata/include").path,
        packageRoot.appendingPathComponent("Tests/LatePluginSource/LatePlugin.swift").path,
        "-o", output,
      ]
      try process.run()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        throw DiscoveryError.loadFailed(path: output, reason: "swiftc failed")
      }
      built = output
      return output
    }
  }
}
