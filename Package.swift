// swift-tools-version:6.0
import PackageDescription

// Baton has no package dependencies, by design: only the Swift toolchain (stdlib, Foundation,
// FoundationNetworking, Dispatch, Synchronization, XCTest).
let package = Package(
    name: "Baton",
    // `Synchronization.Mutex` (the lock inside every promise) needs these releases on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Baton", targets: ["Baton"]),
        .executable(name: "playground", targets: ["Playground"]),
        .executable(name: "baton-bench", targets: ["BatonBench"]),
    ],
    targets: [
        .target(name: "Baton"),
        .executableTarget(name: "Playground", dependencies: ["Baton"], path: "Playground"),
        .executableTarget(name: "BatonBench", dependencies: ["Baton"]),
        .testTarget(name: "BatonTests", dependencies: ["Baton"]),
    ],
    swiftLanguageModes: [.v6]
)
