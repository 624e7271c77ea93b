// swift-tools-version:6.1
import PackageDescription

// LimitedLoginVapor: the verifier for Vapor 4 servers. A package of its own, so that users of the core
// libraries (the root package) never resolve or build Vapor; it takes the verifier from the root by path.
let package = Package(
    name: "limited-login-vapor",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LimitedLoginVapor", targets: ["LimitedLoginVapor"])
    ],
    dependencies: [
        // Named, so that the products below resolve whatever the clone's directory is called.
        .package(name: "limited-login", path: "../.."),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.0"),
    ],
    targets: [
        .target(
            name: "LimitedLoginVapor",
            dependencies: [
                .product(name: "LimitedLoginVerifier", package: "limited-login"),
                .product(name: "LimitedLoginCore", package: "limited-login"),
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
        .executableTarget(
            name: "limited-login-vapor-example",
            dependencies: [
                "LimitedLoginVapor",
                .product(name: "LimitedLoginVerifier", package: "limited-login"),
                .product(name: "Vapor", package: "vapor"),
            ],
            path: "Examples/ProfileServer"
        ),
        .testTarget(
            name: "LimitedLoginVaporTests",
            dependencies: [
                "LimitedLoginVapor",
                .product(name: "LimitedLoginVerifier", package: "limited-login"),
                .product(name: "LimitedLoginJOSE", package: "limited-login"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "XCTVapor", package: "vapor"),
            ]
        ),
    ]
)
