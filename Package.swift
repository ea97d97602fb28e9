// swift-tools-version: 6.0
// SwizzleKit: Objective-C-style runtime swizzling, studied and tested on Linux.
import PackageDescription

let package = Package(
  name: "SwizzleKit",
  products: [
    .library(name: "ObjCRuntime", targets: ["ObjCRuntime"]),
    .library(name: "ObjCRuntimeGeometry", targets: ["ObjCRuntimeGeometry"]),
    .library(name: "Hooks", targets: ["Hooks"]),
    .executable(name: "swizzle-bench", targets: ["swizzle-bench"]),
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
    // Aspects-class hooks on the runtime, plugins that install once, and SelfAware discovery.
    .target(
      name: "Hooks",
      dependencies: ["ObjCRuntime"],
      path: "Sources/Hooks"
    ),
    .executableTarget(
      name: "swizzle-bench",
      dependencies: ["ObjCRuntime", "Hooks"],
      path: "Sources/swizzle-bench"
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
    .testTarget(
      name: "HooksTests",
      dependencies: ["Hooks", "ObjCRuntime", "CABITestSupport"],
      path: "Tests/HooksTests"
    ),
  ],
  swiftLanguageModes: [.v6]
)
