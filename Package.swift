// swift-tools-version: 6.2
import PackageDescription

/// Every target of ours builds in the Swift 6 language mode with warnings as errors, and with
/// the upcoming features the Swift server packages build with: `any` written for every
/// existential, a member usable only where its module is imported, and imports internal unless
/// written `public import` (or `package import`), so a module a public declaration exposes is a
/// visible decision in the file that exposes it.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The DocC plugin only when asked for (`LIVERY_DOCC=1 swift package generate-documentation
/// --target Livery`): ordinary builds then resolve no extra package, so they stay offline and fast.
let documentationPlugin: [Package.Dependency] =
    Context.environment["LIVERY_DOCC"] == "1"
    ? [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")]
    : []

let package = Package(
    name: "Livery",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Livery", targets: ["Livery"]),
        .library(name: "LiveryWatch", targets: ["LiveryWatch"]),
        .library(name: "LiveryRemote", targets: ["LiveryRemote"]),
        .library(name: "LiveryHTTP", targets: ["LiveryHTTP"]),
        .library(name: "LiveryServer", targets: ["LiveryServer"]),
        .library(name: "LiveryTesting", targets: ["LiveryTesting"]),
        .library(name: "LiveryCLI", targets: ["LiveryCLI"]),
        .library(name: "LiveryConfiguration", targets: ["LiveryConfiguration"]),
        .library(name: "LiveryConfigurationFolder", targets: ["LiveryConfigurationFolder"]),
        .executable(name: "livery", targets: ["livery"]),
    ],
    dependencies: [
        // Only figure 5's baseline (Yams.compose) uses Yams; the reader links Debian's libyaml.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-configuration.git", exact: "1.4.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Only the tests and the benchmarks launch processes (Tests/Support/ChildProcess.swift);
        // swift-system's FilePath names the executable and folder on Linux.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // Ed25519 and SHA-256 for signed delivery (LiveryTUF); already in the graph through swift-nio-extras.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ] + documentationPlugin,
    targets: [
        .target(
            name: "Livery",
            dependencies: [
                "CLibYAML",
                "CPrefetch",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // A cache prefetch hint for the provider's load loop (Sources/Livery/Provider/TargetSlot.swift).
        .target(name: "CPrefetch"),
        // libyaml's event parser, read once into SpecNode (Sources/Livery/Spec/YAMLReader.swift).
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: nil,
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(
            name: "LiveryTesting",
            dependencies: ["Livery"],
            swiftSettings: strict
        ),
        .systemLibrary(
            name: "CInotifyTools",
            pkgConfig: nil,
            providers: [.apt(["libinotifytools0-dev"])]
        ),
        .target(
            name: "LiveryWatch",
            dependencies: [
                "Livery",
                "CInotifyTools",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LiveryRemote",
            dependencies: [
                "Livery",
                "LiveryHTTP",
                "LiveryTUF",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // What the daemon reads from raw request strings (paths, ETag lists, `wait=`, bearer
        // tokens), kept free of Hummingbird and NIO so that Fuzz/ can build it with sanitizers
        // in seconds rather than minutes.
        .target(
            name: "LiveryHTTP",
            swiftSettings: strict
        ),
        // The Update Framework's formats (canonical JSON, Ed25519 keys, role metadata, threshold
        // verification), shared by the daemon's repository, `livery push --sign-with` and the clients.
        .target(
            name: "LiveryTUF",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        // The etcd client: only the etcd store imports it.
        .target(
            name: "LiveryEtcd",
            dependencies: [
                "Livery",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LiveryServer",
            dependencies: [
                "Livery",
                "LiveryEtcd",
                "LiveryHTTP",
                "LiveryTUF",
                "LiveryWatch",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // The studio's page, the API document and the browser client are compiled in, so that
            // a `livery` built by any package serves them with no bundle next to the executable
            // (the repository root links to the API document).
            resources: [
                .embedInCode("Studio/Page"),
                .embedInCode("Resources/openapi.yaml"),
                .embedInCode("Resources/livery.js"),
                .embedInCode("Resources/livery-tuf.js"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LiveryCLI",
            dependencies: [
                "Livery",
                "LiveryHTTP",
                "LiveryWatch",
                "LiveryRemote",
                "LiveryServer",
                "LiveryTUF",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LiveryConfiguration",
            dependencies: [
                "Livery",
                "LiveryRemote",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The folder source of SpecConfigProvider, apart so that a program following only a
        // daemon links no inotify (libinotifytools is GPL-2.0).
        .target(
            name: "LiveryConfigurationFolder",
            dependencies: [
                "Livery",
                "LiveryConfiguration",
                "LiveryWatch",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "livery",
            dependencies: ["Livery", "LiveryCLI"],
            swiftSettings: strict
        ),
        // Follows a daemon with a real provider and prints what it applies; the browser tests
        // (Tests/Browser) run it to check that a save in Livery Studio reaches a program, and as
        // the fleet whose count the page shows.
        .executableTarget(
            name: "StudioFollower",
            dependencies: ["Livery", "LiveryRemote", "LiveryTesting"],
            path: "Tests/StudioFollower",
            swiftSettings: strict
        ),
        // Reads a setting from a daemon through LiveryConfiguration alone: the program whose
        // linked libraries LinkedLibrariesTests reads (no libinotifytools).
        .executableTarget(
            name: "ConfigurationFollower",
            dependencies: [
                "LiveryConfiguration",
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            path: "Tests/ConfigurationFollower",
            swiftSettings: strict
        ),
        // Prints what a StyledBox gets from a specs folder under each theme, as JSON: the
        // expected values of the web page tests (Tests/Browser), computed by the Swift side.
        .executableTarget(
            name: "StyleOracle",
            dependencies: ["Livery", "LiveryTesting"],
            path: "Tests/StyleOracle",
            swiftSettings: strict
        ),
        // Helpers shared by the test targets and the benchmarks (not a product: users get LiveryTesting).
        .target(
            name: "LiveryTestSupport",
            dependencies: [
                "Livery",
                "LiveryTesting",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Support",
            swiftSettings: strict),
        // The benchmarks (see Benchmarks/README.md): part of the root package so that
        // the debug build `scripts/test` makes also compiles them (CI runs `scripts/bench --smoke
        // --debug` on it); `scripts/bench` builds them in release mode for the real figures.
        // glibc's mallinfo2 is not in Swift's Glibc module; the memory figure needs it.
        .target(name: "CHeapStats", path: "Benchmarks/Sources/CHeapStats"),
        .executableTarget(
            name: "LiveryBench",
            dependencies: [
                "Livery",
                "LiveryWatch",
                "LiveryRemote",
                "LiveryServer",
                "LiveryTUF",
                "LiveryTestSupport",
                "CHeapStats",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Benchmarks/Sources/LiveryBench",
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveryTests",
            dependencies: [
                "Livery",
                "LiveryTesting",
                "LiveryTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveryWatchTests",
            dependencies: [
                "LiveryWatch",
                "LiveryTesting",
                "LiveryTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveryCLITests",
            dependencies: ["LiveryCLI", "LiveryServer", "LiveryTUF", "LiveryTesting", "LiveryTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveryConfigurationTests",
            dependencies: [
                "LiveryConfiguration",
                "LiveryConfigurationFolder",
                "LiveryRemote",
                "LiveryServer",
                "LiveryTesting",
                "LiveryTestSupport",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ConfigurationTesting", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveryTUFTests",
            dependencies: ["LiveryTUF"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveryHTTPTests",
            dependencies: ["LiveryHTTP", "Livery"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveryServerTests",
            dependencies: [
                "LiveryServer",
                "LiveryEtcd",
                "LiveryHTTP",
                "LiveryTUF",
                "LiveryRemote",
                "LiveryTesting",
                "LiveryTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveryRemoteTests",
            dependencies: [
                "LiveryRemote",
                "LiveryHTTP",
                "LiveryTUF",
                "LiveryServer",
                "LiveryTesting",
                "LiveryTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
