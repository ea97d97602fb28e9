// swift-tools-version: 6.2
// SwizzleKit: Objective-C-style runtime swizzling, studied and tested on Linux.
import PackageDescription

/// The linker flags of a host of loadable plugins: it exports its symbols and answers to the
/// name `libSwizzleKit.so` (DT_SONAME, which glibc matches a library's DT_NEEDED against), so
/// that a plugin library built against the `SwizzleKit` product binds to the host's copy
/// instead of loading a second one. GNU ld (`bfd`) writes a SONAME into an executable; lld and
/// gold drop it.
let hostLinkerFlags = [
  "-use-ld=bfd", "-Xlinker", "--export-dynamic", "-Xlinker", "-soname", "-Xlinker",
  "libSwizzleKit.so",
]

let package = Package(
  name: "SwizzleKit",
  products: [
    .library(name: "ObjCRuntime", targets: ["ObjCRuntime"]),
    .library(name: "ObjCRuntimeGeometry", targets: ["ObjCRuntimeGeometry"]),
    .library(name: "Hooks", targets: ["Hooks"]),
    .library(name: "UIKitModel", targets: ["UIKitModel"]),
    .library(name: "Scenarios", targets: ["Scenarios"]),
    .library(name: "ScreenRendering", targets: ["ScreenRendering"]),
    .library(name: "SwizzleKitTesting", targets: ["SwizzleKitTesting"]),
    // `import UIKit` and `import ObjectiveC` on Linux: the model and the runtime under the names
    // iOS code imports them by (Docs/Porting.md).
    .library(name: "UIKit", targets: ["UIKit"]),
    .library(name: "ObjectiveC", targets: ["ObjectiveC"]),
    // Objective-C compiled by gcc for the GNU runtime, running on SwizzleKit's runtime.
    .library(name: "GNUObjC", targets: ["GNUObjC"]),
    // The whole platform as one shared library, libSwizzleKit.so: what a loadable plugin links
    // against, so that it uses its host's one copy of SwizzleKit (the lab and the test binary
    // answer to that name; see Docs/Plugins.md). Use it or the separate products, not both.
    .library(
      name: "SwizzleKit", type: .dynamic,
      targets: [
        "ObjCRuntime", "ObjCRuntimeGeometry", "Hooks", "UIKitModel", "Scenarios",
        "ScreenRendering", "SwizzleKitTesting", "UIKit", "ObjectiveC", "_Testing_UIKit", "GNUObjC",
      ]),
    .library(name: "BarLayerPlugin", targets: ["BarLayerPlugin"]),
    .library(name: "TransparentBarPlugin", targets: ["TransparentBarPlugin"]),
    .library(name: "OverlayBarPlugin", targets: ["OverlayBarPlugin"]),
    .library(name: "AnimatorTransitionPlugin", targets: ["AnimatorTransitionPlugin"]),
    .library(name: "FullscreenPopPlugin", targets: ["FullscreenPopPlugin"]),
    .executable(name: "swizzle-bench", targets: ["swizzle-bench"]),
    .executable(name: "swizzle-lab", targets: ["swizzle-lab"]),
  ],
  targets: [
    // The `id` and `SEL` types IMPs are written with: the one C module ObjCRuntime re-exports.
    .target(
      name: "CObjCTypes",
      path: "Sources/CObjCTypes"
    ),
    // The C half of the runtime: the lock-free method cache that `objc_msgSend` probes, the
    // locks and the closure trampolines. Only `ObjCRuntime` imports it, without re-exporting it.
    .target(
      name: "CObjCRuntime",
      dependencies: ["CObjCTypes"],
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
    // libpng, from Debian's libpng-dev: frames of the screen as PNG files. Only ScreenRendering
    // imports it, with an internal import.
    .systemLibrary(
      name: "CPNG",
      path: "Sources/CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    // The Swift runtime's image enumeration and dlopen, for discovery (C). Only ObjCRuntime
    // imports it, with an internal import.
    .target(
      name: "CSwiftMetadata",
      path: "Sources/CSwiftMetadata"
    ),
    .target(
      name: "ObjCRuntime",
      dependencies: ["CObjCTypes", "CObjCRuntime", "CFFI", "CSwiftMetadata"],
      path: "Sources/ObjCRuntime"
    ),
    // The encodings of Foundation's CGFloat, CGPoint, CGSize and CGRect: a module of its own so
    // that ObjCRuntime never loads Foundation.
    .target(
      name: "ObjCRuntimeGeometry",
      dependencies: ["ObjCRuntime"],
      path: "Sources/ObjCRuntimeGeometry"
    ),
    // Aspects-class hooks on the runtime, plugins that describe themselves and install once.
    .target(
      name: "Hooks",
      dependencies: ["ObjCRuntime"],
      path: "Sources/Hooks"
    ),
    // The process's main thread for the model (C): its identity, Dispatch's main queue drained
    // on it, and, in a process whose `main` is async (`swift test`), the loop the main thread
    // runs in place of `dispatch_main()`. Only UIKitModel imports it, with an internal import.
    .target(
      name: "CMainThread",
      path: "Sources/CMainThread"
    ),
    // A headless, deterministic model of UIKit's navigation stack, on the runtime's tables.
    .target(
      name: "UIKitModel",
      dependencies: ["ObjCRuntime", "ObjCRuntimeGeometry", "CMainThread"],
      path: "Sources/UIKitModel"
    ),
    // `import UIKit` on Linux: re-exports the model (which re-exports Foundation, the runtime
    // and the geometry), so that a file written for iOS imports what it imports there.
    .target(
      name: "UIKit",
      dependencies: ["UIKitModel", "_Testing_UIKit"],
      path: "Sources/UIKit"
    ),
    // The cross-import overlay Swift Testing declares for UIKit: a file importing both makes the
    // compiler import it. Empty here (Docs/Porting.md).
    .target(
      name: "_Testing_UIKit",
      path: "Sources/_Testing_UIKit"
    ),
    // `import ObjectiveC` on Linux: re-exports the runtime, whose C-level API has the
    // signatures of Apple's Swift overlay.
    .target(
      name: "ObjectiveC",
      dependencies: ["ObjCRuntime"],
      path: "Sources/ObjectiveC"
    ),
    // The GNU Objective-C runtime's ABI (module version 8) in C: gcc's records, the entry points
    // its code calls, and the `_cmd` stubs. Only GNUObjC imports it.
    .target(
      name: "CObjCGNU",
      path: "Sources/CObjCGNU"
    ),
    // Objective-C compiled by gcc running on the runtime: the loader, sends, the runtime's C
    // functions under their C names, and NSObject's manual reference counting (Docs/ObjectiveC.md).
    .target(
      name: "GNUObjC",
      dependencies: ["ObjCRuntime", "ObjCRuntimeGeometry", "CObjCGNU"],
      path: "Sources/GNUObjC"
    ),
    // Scripted sessions on the model with the bar at named moments, whatever the plugin.
    .target(
      name: "Scenarios",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel"],
      path: "Sources/Scenarios"
    ),
    // The screen as the user sees it, drawn from the model: shapes, SVG, and RGBA images read
    // and written as PNG and compared (the lab's reports, the testing library's snapshots).
    .target(
      name: "ScreenRendering",
      dependencies: ["UIKitModel", "Scenarios", "CPNG"],
      path: "Sources/ScreenRendering"
    ),
    // Swift Testing traits for tests that drive the model or install plugins, in any target.
    .target(
      name: "SwizzleKitTesting",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel", "Scenarios", "ScreenRendering"],
      path: "Sources/SwizzleKitTesting"
    ),
    // The WRNavigationBar technique as a plugin, on the public API of the layers below.
    .target(
      name: "BarLayerPlugin",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel", "Scenarios"],
      path: "Plugins/BarLayerPlugin",
      exclude: ["README.md"],
      swiftSettings: [
        .enableUpcomingFeature("MemberImportVisibility"), .defaultIsolation(MainActor.self),
      ]
    ),
    // The ETNavBarTransparent / EMNavigationBarTransition technique: methods exchanged at run
    // time, installed once in a static let, woken by SelfAware.
    .target(
      name: "TransparentBarPlugin",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel", "Scenarios"],
      path: "Plugins/TransparentBarPlugin",
      exclude: ["README.md"],
      swiftSettings: [
        .enableUpcomingFeature("MemberImportVisibility"), .defaultIsolation(MainActor.self),
      ]
    ),
    // LTNavigationBar's technique: a category (a Swift extension) with no swizzling, in the
    // seed's mode and a fixed one.
    .target(
      name: "OverlayBarPlugin",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel", "Scenarios"],
      path: "Plugins/OverlayBarPlugin",
      exclude: ["README.md"],
      swiftSettings: [
        .enableUpcomingFeature("MemberImportVisibility"), .defaultIsolation(MainActor.self),
      ]
    ),
    // KJNavigationController's technique: custom animators and an edge pan, as the seed's
    // subclass (made at run time) and as a plugin that wraps every controller's delegate.
    .target(
      name: "AnimatorTransitionPlugin",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel", "Scenarios"],
      path: "Plugins/AnimatorTransitionPlugin",
      exclude: ["README.md"],
      swiftSettings: [
        .enableUpcomingFeature("MemberImportVisibility"), .defaultIsolation(MainActor.self),
      ]
    ),
    // The custom pop gesture: the NavigationInteractiveTransition article's, and
    // FDFullscreenPopGesture's hijack of the system gesture's private target.
    .target(
      name: "FullscreenPopPlugin",
      dependencies: ["ObjCRuntime", "Hooks", "UIKitModel", "Scenarios"],
      path: "Plugins/FullscreenPopPlugin",
      exclude: ["README.md"],
      swiftSettings: [
        .enableUpcomingFeature("MemberImportVisibility"), .defaultIsolation(MainActor.self),
      ]
    ),
    // An application that links the transparent-bar plugin: the plugin installs itself at its
    // launch, which only a process of its own may show (CI runs it).
    .executableTarget(
      name: "transparent-launch",
      dependencies: ["TransparentBarPlugin", "UIKitModel", "ObjCRuntime", "Hooks"],
      path: "Sources/transparent-launch"
    ),
    // The lab: commands as a library, so that tests run them and compare their output. It
    // names no plugin: it finds them through discovery.
    .target(
      name: "SwizzleLab",
      dependencies: [
        "ObjCRuntime", "Hooks", "UIKitModel", "Scenarios", "ScreenRendering", "GNUObjC",
      ],
      path: "Sources/SwizzleLab",
      // The Objective-C lessons' files: compiled by gcc when a lesson runs, from their text in
      // LessonSources.generated.swift.
      exclude: ["Lessons/ObjectiveC"]
    ),
    .executableTarget(
      name: "swizzle-lab",
      // The plugins built into the lab; discovery finds them, the lab's source never names
      // them.
      dependencies: [
        "SwizzleLab", "BarLayerPlugin", "TransparentBarPlugin", "OverlayBarPlugin",
        "AnimatorTransitionPlugin", "FullscreenPopPlugin",
      ],
      path: "Sources/swizzle-lab",
      linkerSettings: [.unsafeFlags(hostLinkerFlags)]
    ),
    // The lab's command line under random input (issue #30): CI runs 10,000 invocations.
    .executableTarget(
      name: "lab-fuzz",
      dependencies: [
        "SwizzleLab", "Scenarios", "Hooks", "BarLayerPlugin", "TransparentBarPlugin",
        "OverlayBarPlugin",
        "AnimatorTransitionPlugin", "FullscreenPopPlugin",
      ],
      path: "Sources/lab-fuzz",
      linkerSettings: [.unsafeFlags(hostLinkerFlags)]
    ),
    .executableTarget(
      name: "swizzle-bench",
      dependencies: [
        "ObjCRuntime", "Hooks", "UIKitModel", "Scenarios", "BarLayerPlugin", "TransparentBarPlugin",
        "AnimatorTransitionPlugin", "OverlayBarPlugin", "FullscreenPopPlugin",
        // The lessons' run time, through the lab's `learn` command.
        "SwizzleLab",
        // Image snapshots' cost: screens drawn, PNG references read and compared.
        "ScreenRendering",
        // A send from Objective-C compiled by gcc, and the lab's compile and load.
        "GNUObjC",
      ],
      path: "Sources/swizzle-bench",
      // The GNU libobjc peer (Objective-C, built by its script with gcc) and the callgrind
      // script live beside the benchmark but are not part of the Swift build.
      exclude: ["Peer", "callgrind.sh"],
      // The libraries gcc builds for the Objective-C cases bind to the benchmark's GNU entry
      // points (objc_msg_lookup...): it exports them.
      linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]
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
      // The dlopen tests load plugin libraries that link against the test binary's copy of
      // SwizzleKit, so the binary is a host: it exports its symbols and answers to the name
      // libSwizzleKit.so. (Linker settings of a test target apply to the one test binary.)
      linkerSettings: [.unsafeFlags(hostLinkerFlags)]
    ),
    .testTarget(
      name: "UIKitModelTests",
      dependencies: [
        "UIKitModel", "ObjCRuntime", "Hooks", "SwizzleKitTesting", "Scenarios", "UIKit",
        "ScreenRendering",
      ],
      path: "Tests/UIKitModelTests",
      exclude: ["Golden", "__Snapshots__"]
    ),
    .testTarget(
      name: "BarLayerPluginTests",
      dependencies: [
        "BarLayerPlugin", "UIKitModel", "ObjCRuntime", "Hooks", "Scenarios", "SwizzleKitTesting",
      ],
      path: "Tests/BarLayerPluginTests",
      exclude: ["Golden"]
    ),
    .testTarget(
      name: "OverlayBarPluginTests",
      dependencies: [
        "OverlayBarPlugin", "UIKitModel", "ObjCRuntime", "Hooks", "Scenarios", "SwizzleKitTesting",
      ],
      path: "Tests/OverlayBarPluginTests",
      exclude: ["Golden"],
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
    ),
    .testTarget(
      name: "AnimatorTransitionPluginTests",
      dependencies: [
        "AnimatorTransitionPlugin", "UIKitModel", "ObjCRuntime", "Hooks", "Scenarios",
        "SwizzleKitTesting",
      ],
      path: "Tests/AnimatorTransitionPluginTests",
      exclude: ["Golden"],
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
    ),
    .testTarget(
      name: "FullscreenPopPluginTests",
      dependencies: [
        "FullscreenPopPlugin", "UIKitModel", "ObjCRuntime", "Hooks", "Scenarios",
        "SwizzleKitTesting",
        // The hijack beside the bar-layer plugin: a test sets its pages' colours.
        "BarLayerPlugin",
      ],
      path: "Tests/FullscreenPopPluginTests",
      exclude: ["Golden"],
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
    ),
    .testTarget(
      name: "TransparentBarPluginTests",
      dependencies: [
        "TransparentBarPlugin", "UIKitModel", "ObjCRuntime", "Hooks", "Scenarios",
        "SwizzleKitTesting",
        // Linked, never imported: the two-plugin scenario installs it by name.
        "BarLayerPlugin",
      ],
      path: "Tests/TransparentBarPluginTests",
      exclude: ["Golden"],
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
    ),
    // Objective-C compiled by gcc at test time and loaded into the test binary, whose symbols
    // (the GNU entry points) it binds to.
    .testTarget(
      name: "GNUObjCTests",
      dependencies: ["GNUObjC", "ObjCRuntime", "SwizzleKitTesting"],
      path: "Tests/GNUObjCTests"
    ),
    // The docs tell the truth: code blocks compiled, generated sections checked.
    .testTarget(
      name: "DocsTests",
      dependencies: [
        "SwizzleLab", "UIKitModel", "Hooks", "Scenarios", "SwizzleKitTesting", "GNUObjC",
      ],
      path: "Tests/DocsTests"
    ),
    .testTarget(
      name: "SwizzleLabTests",
      dependencies: [
        "SwizzleLab", "BarLayerPlugin", "UIKitModel", "Hooks", "Scenarios", "SwizzleKitTesting",
        "ScreenRendering",
      ],
      path: "Tests/SwizzleLabTests",
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
