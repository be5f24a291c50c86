// swift-tools-version: 6.2
import PackageDescription

/// A team's own `livery`: the project's command line with one more trait type, `Glow`.
let package = Package(
    name: "CustomLivery",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Livery", path: "../.."),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
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
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
