// swift-tools-version: 6.2
import PackageDescription

/// libFuzzer targets over spec parsing, design tokens and resolver documents, Tokens Studio
/// pushes, the CSS writer, resolution, the provider and the daemon's request
/// interpreters (OpenFeature evaluations, environment paths and promotions among them) (LiveryHTTP, free of Hummingbird, so nothing of NIO is built here). Kept out of
/// the root package so that its build and tests never see sanitizer flags: `scripts/fuzz` builds
/// this one with `--sanitize=fuzzer --sanitize=address`. Every fuzz target is an executable whose only entry
/// point is `LLVMFuzzerTestOneInput`; libFuzzer supplies `main`, so a plain `swift build` of
/// this package cannot link the executables (build `FuzzSupport` alone to type-check).
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error)
]

let package = Package(
    name: "LiveryFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Livery", path: "..")
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "Livery", package: "Livery")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzSpec",
            dependencies: ["FuzzSupport", .product(name: "Livery", package: "Livery")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzSpecFolder",
            dependencies: ["FuzzSupport", .product(name: "Livery", package: "Livery")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzProvider",
            dependencies: [
                "FuzzSupport",
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryTesting", package: "Livery"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzRequest",
            dependencies: [
                "FuzzSupport",
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryHTTP", package: "Livery"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzBundleScan",
            dependencies: [
                "FuzzSupport",
                .product(name: "LiveryHTTP", package: "Livery"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzOFREP",
            dependencies: [
                "FuzzSupport",
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryHTTP", package: "Livery"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzPromotion",
            dependencies: [
                "FuzzSupport",
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryHTTP", package: "Livery"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzTokens",
            dependencies: ["FuzzSupport", .product(name: "Livery", package: "Livery")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzResolver",
            dependencies: ["FuzzSupport", .product(name: "Livery", package: "Livery")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzTokensStudio",
            dependencies: ["FuzzSupport", .product(name: "Livery", package: "Livery")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FuzzStyleSheet",
            dependencies: ["FuzzSupport", .product(name: "Livery", package: "Livery")],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
