// swift-tools-version: 6.0
// SwizzleKit: Objective-C-style runtime swizzling, studied and tested on Linux.
import PackageDescription

let package = Package(
  name: "SwizzleKit",
  products: [
    .library(name: "ObjCRuntime", targets: ["ObjCRuntime"]),
    .library(name: "ObjCRuntimeGeometry", targets: ["ObjCRuntimeGeometry"]),
    .library(name: "Hooks", targets: ["Hooks"]),
    .library(name: "UIKitModel", targets: ["UIKitModel"]),
    .library(name: "BarLayerPlugin", targets: ["BarLayerPlugin"]),
    // The plugin as a library a host loads at run time: its SelfAware startup installs it.
    .library(
      name: "BarLayerPluginDynamic", type: .dynamic,
      targets: ["BarLayerPlugin", "BarLayerPluginLoader"]),
    .executable(name: "swizzle-bench", targets: ["swizzle-bench"]),
    .executable(name: "swizzle-lab", targets: ["swizzle-lab"]),
  ],
  targets: [
    // The C half of the runtime: the `id` and `SEL` types IMPs are written with, and the
    // lock-free method cache that `objc_msgSend` probes. Only `ObjCRuntime` imports it.
    .target(
      name: "CObjCRuntime",
      path: "Sources/CObjCRuntime"
    ),
    // libffi, from Debian's libffi-dev: real closures as IMPs, and calls of any signature.
    // Only ObjCRuntime imports it, with an internal import, so no libffi type is public.
    .systemLibrary(
      name: "CFFI",
      path: "Sources/CFFI",
      pkgConfig: "libffi",
      providers: [.apt(["libffi-dev"])]
    ),
    .target(
      name: "ObjCRuntime",
      dependencies: ["CObjCRuntime", "CFFI"],
      path: "Sources/ObjCRuntime"
    ),
    // The encodings of Foundation's CGFloat, CGPoint, CGSize and CGRect: a module of its own so
    // that ObjCRuntime never loads Foundation.
    .target(
      name: "ObjCRuntimeGeometry",
      dependencies: ["ObjCRuntime"],
      path: "Sources/ObjCRuntimeGeometry"
    ),
    // The Swift runtime's image enumeration, for SelfAware discovery. Only Hooks imports it.
    .target(
      name: "CSwiftMetadata",
      path: "Sources/CSwiftMetadata"
    ),
    // Aspects-class hooks on the runtime, plugins that install once, and SelfAware discovery.
    .target(
      name: "Hooks",
      dependencies: ["ObjCRuntime", "CSwiftMetadata"],
      path: "Sources/Hooks"
    ),
    // A headless, deterministic model of UIKit's navigation stack, on the runtime's tables.
    .target(
      name: "UIKitModel",
      dependencies: ["ObjCRuntime", "ObjCRuntimeGeometry", "Hooks"],
      path: "Sources/UIKitModel"
    ),
    // The WRNavigationBar technique as a plugin, on the public API of the layers below.
    .target(
      name: "BarLayerPlugin",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel"],
      path: "Plugins/BarLayerPlugin",
      exclude: ["README.md"]
    ),
    .target(
      name: "BarLayerPluginLoader",
      dependencies: ["BarLayerPlugin", "Hooks"],
      path: "Plugins/BarLayerPluginLoader"
    ),
    // The lab: commands as a library, so that tests run them and compare their output.
    .target(
      name: "SwizzleLab",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel", "BarLayerPlugin"],
      path: "Sources/SwizzleLab"
    ),
    .executableTarget(
      name: "swizzle-lab",
      dependencies: ["SwizzleLab"],
      path: "Sources/swizzle-lab",
      // `load` opens plugin libraries that link against the lab's own copy of SwizzleKit.
      linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]
    ),
    .executableTarget(
      name: "swizzle-bench",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel", "BarLayerPlugin"],
      path: "Sources/swizzle-bench",
      // The GNU libobjc peer (Objective-C, built by its script with gcc) and the callgrind
      // script live beside the benchmark but are not part of the Swift build.
      exclude: ["Peer", "callgrind.sh"]
    ),
    // C functions of many signatures, for the libffi ABI coverage tests.
    .target(
      name: "CABITestSupport",
      path: "Tests/CABITestSupport"
    ),
    .testTarget(
      name: "ObjCRuntimeTests",
      dependencies: ["ObjCRuntime", "ObjCRuntimeGeometry", "CABITestSupport"],
      path: "Tests/ObjCRuntimeTests"
    ),
    // SelfAware conformers in a module of their own, for the discovery tests.
    .target(
      name: "HooksTestSupport",
      dependencies: ["Hooks"],
      path: "Tests/HooksTestSupport"
    ),
    .testTarget(
      name: "HooksTests",
      dependencies: ["Hooks", "ObjCRuntime", "CABITestSupport", "HooksTestSupport"],
      path: "Tests/HooksTests",
      // The dlopen test loads a plugin library that links against the test binary's copy of
      // Hooks, so the binary exports its symbols.
      linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]
    ),
    .testTarget(
      name: "UIKitModelTests",
      // The plugin's tests live here: the model is single-threaded, and one serialized suite
      // must hold every test that drives it.
      dependencies: ["UIKitModel", "ObjCRuntime", "Hooks", "BarLayerPlugin", "SwizzleLab"],
      path: "Tests/UIKitModelTests",
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
