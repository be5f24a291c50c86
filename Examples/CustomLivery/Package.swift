// swift-tools-version: 6.2
import PackageDescription

/// A team's own `livery`: the project's command line with one more trait type, `Glow`.
let package = Package(
    name: "CustomLivery",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Livery", path: "../..")
    ],
    targets: [
        .target(
            name: "Lighting",
            dependencies: [.product(name: "Livery", package: "Livery")],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .executableTarget(
            name: "custom-livery",
            dependencies: ["Lighting", .product(name: "LiveryCLI", package: "Livery")],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "CustomLiveryTests",
            dependencies: [
                "Lighting",
                .product(name: "LiveryRemote", package: "Livery"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
