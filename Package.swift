// swift-tools-version: 6.0
// SwizzleKit: Objective-C-style runtime swizzling, studied and tested on Linux.
import PackageDescription

let package = Package(
  name: "SwizzleKit",
  products: [
    .library(name: "ObjCRuntime", targets: ["ObjCRuntime"]),
    .executable(name: "swizzle-bench", targets: ["swizzle-bench"]),
  ],
  targets: [
    // The C half of the runtime: the `id` and `SEL` types IMPs are written with, and the
    // lock-free method cache that `objc_msgSend` probes. Only `ObjCRuntime` imports it.
    .target(
      name: "CObjCRuntime",
      path: "Sources/CObjCRuntime"
    ),
    .target(
      name: "ObjCRuntime",
      dependencies: ["CObjCRuntime"],
      path: "Sources/ObjCRuntime"
    ),
    .executableTarget(
      name: "swizzle-bench",
      dependencies: ["ObjCRuntime"],
      path: "Sources/swizzle-bench"
    ),
    .testTarget(
      name: "ObjCRuntimeTests",
      dependencies: ["ObjCRuntime"],
      path: "Tests/ObjCRuntimeTests"
    ),
  ],
  swiftLanguageModes: [.v6]
)
