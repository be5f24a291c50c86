// swift-tools-version: 6.2
import PackageDescription

// The benchmarks are a package of their own so that `swift build` and `swift test` of the root
// never build them; `scripts/bench` builds this package in release mode. See README.md.
let package = Package(
    name: "LiveryBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Livery", path: ".."),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // glibc's mallinfo2 is not in Swift's Glibc module; the memory figure needs it.
        .target(name: "CHeapStats"),
        .executableTarget(
            name: "LiveryBench",
            dependencies: [
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryWatch", package: "Livery"),
                .product(name: "LiveryServer", package: "Livery"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                "CHeapStats",
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        )
    ],
    swiftLanguageModes: [.v6]
)
