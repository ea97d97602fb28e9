// swift-tools-version: 6.2
// A file written for iOS, ported to Linux with only the changes the language forces: the iOS
// text (iOS/, not built), its port (Sources/), and tests that run the port on the UIKit model
// and hold the count of changed lines (Docs/Porting.md). A package of its own so that the
// port's exchanges, which last for the process as they would in an app, touch no other tests.
import PackageDescription

let package = Package(
  name: "PortedFromiOS",
  dependencies: [
    .package(name: "SwizzleKit", path: "../..")
  ],
  targets: [
    .target(
      name: "PageBarColors",
      dependencies: [
        .product(name: "UIKit", package: "SwizzleKit"),
        .product(name: "Hooks", package: "SwizzleKit"),
      ],
      // The iOS text was written in the Swift 5 language mode, as most shipped UIKit code is.
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    .testTarget(
      name: "PageBarColorsTests",
      dependencies: [
        "PageBarColors",
        .product(name: "UIKit", package: "SwizzleKit"),
        .product(name: "Hooks", package: "SwizzleKit"),
        .product(name: "Scenarios", package: "SwizzleKit"),
        .product(name: "SwizzleKitTesting", package: "SwizzleKit"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
