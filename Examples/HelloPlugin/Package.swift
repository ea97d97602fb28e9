// swift-tools-version: 6.2
// A plugin written the way an outside author writes one: a package that depends on SwizzleKit,
// a plugin target, its tests, and a dynamic library that swizzle-lab loads.
import PackageDescription

let package = Package(
  name: "HelloPlugin",
  products: [
    // What `swizzle-lab load` opens: the plugin's code only; SwizzleKit comes from the host.
    .library(name: "HelloPlugin", type: .dynamic, targets: ["HelloPlugin"])
  ],
  dependencies: [
    .package(name: "SwizzleKit", path: "../..")
  ],
  targets: [
    .target(
      name: "HelloPlugin",
      dependencies: [.product(name: "SwizzleKit", package: "SwizzleKit")]
    ),
    .testTarget(
      name: "HelloPluginTests",
      dependencies: ["HelloPlugin", .product(name: "SwizzleKit", package: "SwizzleKit")],
      // The golden timelines and image snapshots the tests compare with: reference files, not
      // resources.
      exclude: ["Golden", "__Snapshots__"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
