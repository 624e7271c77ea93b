// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "limited-login",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LimitedLoginJOSE", targets: ["LimitedLoginJOSE"]),
        .library(name: "LimitedLoginCore", targets: ["LimitedLoginCore"]),
        .library(name: "LimitedLoginVerifier", targets: ["LimitedLoginVerifier"]),
        .library(name: "LimitedLogin", targets: ["LimitedLogin"]),
        .library(name: "LimitedLoginNative", type: .dynamic, targets: ["LimitedLoginNative"]),
        .library(name: "LimitedLoginProvider", targets: ["LimitedLoginProvider"]),
        .library(name: "LimitedLoginHummingbird", targets: ["LimitedLoginHummingbird"]),
        .executable(name: "limited-login", targets: ["limited-login"]),
        .executable(name: "limited-login-bench", targets: ["limited-login-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Vector instructions (SSSE3/AVX2, chosen at run time) for the JOSE layer's hot loops, which Swift's
        // portable SIMD cannot express (it has no byte shuffle); every result is checked against the Swift
        // scalar code, which stays the reference and the path on other CPUs.
        .target(name: "CLimitedLoginVector"),
        .target(
            name: "LimitedLoginJOSE",
            dependencies: [
                "CLimitedLoginVector",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "LimitedLoginCore",
            dependencies: [
                "LimitedLoginJOSE",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "LimitedLoginVerifier",
            dependencies: [
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "LimitedLogin",
            dependencies: [
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginVerifier",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The SDK as a C library for Unity and other languages with a C FFI (include/limited_login_native.h,
        // read by C callers, not by Swift).
        .target(
            name: "LimitedLoginNative",
            dependencies: ["LimitedLogin", "LimitedLoginCore", "LimitedLoginJOSE"],
            exclude: ["include"]
        ),
        .target(
            name: "LimitedLoginHummingbird",
            dependencies: [
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginVerifier",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .target(
            name: "LimitedLoginProvider",
            dependencies: [
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginVerifier",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The audit of an app's backend (`limited-login audit`): its cases, the advice per library, the runner
        // and the report; the CLI only reads the options.
        .target(
            name: "LimitedLoginAudit",
            dependencies: [
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginVerifier",
                "LimitedLoginProvider",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "limited-login",
            dependencies: [
                "LimitedLogin",
                "LimitedLoginAudit",
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginVerifier",
                "LimitedLoginProvider",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "limited-login-bench",
            dependencies: [
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginVerifier",
                "LimitedLoginProvider",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "limited-login-example-server",
            dependencies: [
                "LimitedLoginCore",
                "LimitedLoginVerifier",
                "LimitedLoginHummingbird",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/ProfileServer"
        ),
        .target(
            name: "LimitedLoginTestSupport",
            dependencies: [
                "LimitedLoginJOSE",
                "LimitedLoginCore",
                "LimitedLoginProvider",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/LimitedLoginTestSupport"
        ),
        .testTarget(
            name: "LimitedLoginJOSETests",
            dependencies: ["LimitedLoginJOSE", "CLimitedLoginVector", "LimitedLoginTestSupport"],
            // Wycheproof's vectors, read by the tests through #filePath.
            exclude: ["Wycheproof"]
        ),
        .testTarget(
            name: "LimitedLoginCoreTests",
            dependencies: ["LimitedLoginCore", "LimitedLoginJOSE", "LimitedLoginTestSupport"]
        ),
        .testTarget(
            name: "LimitedLoginVerifierTests",
            dependencies: [
                "LimitedLoginVerifier",
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginTestSupport",
            ]
        ),
        .testTarget(
            name: "LimitedLoginProviderTests",
            dependencies: [
                "LimitedLogin",
                "LimitedLoginProvider",
                "LimitedLoginVerifier",
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            // Stores and exports made by earlier releases, opened by UpgradeTests through #filePath.
            exclude: ["UpgradeFixtures"]
        ),
        .testTarget(
            name: "LimitedLoginTests",
            dependencies: [
                "LimitedLogin",
                "LimitedLoginProvider",
                "LimitedLoginVerifier",
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // The Hummingbird middleware for an app's own server, driven through real routers.
        .testTarget(
            name: "LimitedLoginHummingbirdTests",
            dependencies: [
                "LimitedLoginHummingbird",
                "LimitedLoginVerifier",
                "LimitedLoginJOSE",
                "LimitedLoginTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "LimitedLoginNativeTests",
            dependencies: [
                "LimitedLoginNative",
                "LimitedLogin",
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginProvider",
                "LimitedLoginTestSupport",
            ]
        ),
        // The seeds' Swift samples as written, compiled against the SDK and run against a provider on loopback.
        .testTarget(
            name: "SeedSamplesTests",
            dependencies: ["LimitedLogin", "LimitedLoginProvider", "LimitedLoginTestSupport"]
        ),
        .testTarget(
            name: "LimitedLoginAuditTests",
            dependencies: ["LimitedLoginAudit", "LimitedLoginJOSE"]
        ),
        .testTarget(
            name: "LimitedLoginCLITests",
            dependencies: [
                "LimitedLogin",
                "LimitedLoginCore",
                "LimitedLoginJOSE",
                "LimitedLoginTestSupport",
                "LimitedLoginAudit",
                "limited-login",
                "limited-login-example-server",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
    ]
)
