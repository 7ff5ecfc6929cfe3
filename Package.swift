// swift-tools-version:6.0
import PackageDescription

// Baton has no package dependencies, by design: only the Swift toolchain (stdlib, Foundation,
// FoundationNetworking, Dispatch, Synchronization, os, XCTest), and at run time the OpenSSL 3
// that FoundationNetworking itself loads on Linux.
let package = Package(
    name: "Baton",
    // The first releases with `Duration` and `ContinuousClock` (in Baton's API) and with
    // `OSAllocatedUnfairLock` (the lock on Apple platforms). This project's CI builds on Linux only.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Baton", targets: ["Baton"]),
        .library(name: "DemoServer", targets: ["DemoServer"]),
        .executable(name: "demo-server", targets: ["DemoServerTool"]),
        .executable(name: "playground", targets: ["Playground"]),
        .executable(name: "baton-bench", targets: ["BatonBench"]),
    ],
    targets: [
        // The package's one lock, shared by Baton, DemoServer, the tests and the benchmark; its
        // API is `package`-level, so no user of Baton sees it.
        .target(name: "BatonLocking"),
        // The system's OpenSSL 3 (libssl.so.3, which FoundationNetworking loads on Linux), opened at
        // run time so that no header or link flag is needed: TLS for Baton's transport and for
        // DemoServer. `package`-level too.
        .target(name: "BatonOpenSSL"),
        .target(name: "Baton", dependencies: ["BatonLocking", "BatonOpenSSL"]),
        // The demo API on loopback sockets: a fixture for the playground, tests and benchmarks,
        // never a dependency of Baton itself.
        .target(name: "DemoServer", dependencies: ["BatonLocking", "BatonOpenSSL"]),
        .executableTarget(name: "DemoServerTool", dependencies: ["DemoServer"], path: "Sources/DemoServerTool"),
        .executableTarget(name: "Playground", dependencies: ["Baton", "BatonLocking", "DemoServer"], path: "Playground"),
        .executableTarget(name: "BatonBench", dependencies: ["Baton", "BatonLocking", "DemoServer"]),
        // Tests by layer, with what they share in TestSupport.
        .target(name: "TestSupport", dependencies: ["Baton", "BatonLocking"], path: "Tests/TestSupport"),
        .testTarget(name: "PromiseTests", dependencies: ["Baton", "BatonLocking", "TestSupport"]),
        .testTarget(name: "ClientTests", dependencies: ["Baton", "BatonLocking", "TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["Baton", "BatonLocking", "BatonOpenSSL", "DemoServer", "TestSupport"]),
        .testTarget(name: "DemoServerTests", dependencies: ["BatonLocking", "BatonOpenSSL", "DemoServer"]),
        .testTarget(name: "PlaygroundTests", dependencies: ["Playground"]),
        // Baton against servers no one here wrote (nginx, and h11 in Python), which `.ci/interop`
        // installs, starts and names in BATON_INTEROP_* variables; without them every test skips.
        .testTarget(name: "InteropTests", dependencies: ["Baton", "BatonLocking", "BatonOpenSSL", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
