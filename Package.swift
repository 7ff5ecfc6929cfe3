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
        // Everything: `import Baton` brings the client, its features and the promise.
        .library(name: "Baton", targets: ["Baton"]),
        // The promise alone, for chaining work that is not HTTP (no networking import).
        .library(name: "BatonPromise", targets: ["BatonPromise"]),
        // Tools for trying and measuring Baton, not parts of it: the demo API (a library, for
        // tests of one's own, and a command), the playground and the benchmark. DemoServer's TLS
        // identity is a test key, published in its source: never for a real server.
        .library(name: "DemoServer", targets: ["DemoServer"]),
        .executable(name: "demo-server", targets: ["DemoServerTool"]),
        .executable(name: "playground", targets: ["Playground"]),
        .executable(name: "baton-bench", targets: ["BatonBench"]),
    ],
    targets: [
        // The package's one lock and its saturating Duration conversions, shared by Baton, DemoServer, the tests and the benchmark; its
        // API is `package`-level, so no user of Baton sees it.
        .target(name: "BatonSupport"),
        // The system's OpenSSL 3 (libssl.so.3, which FoundationNetworking loads on Linux), opened at
        // run time so that no header or link flag is needed: TLS for Baton's transport and for
        // DemoServer. `package`-level too.
        .target(name: "BatonOpenSSL"),
        // The layers, lowest first; the compiler keeps each from naming one above it. What a layer
        // shares with the ones above it and no user needs is `package`.
        // The promise, its chaining, combinators, progress and async bridges: no networking.
        .target(name: "BatonPromise", dependencies: ["BatonSupport"]),
        // The wire, package-level but for TLS settings: the HTTP/1.1 parser, sockets and TLS, the
        // inflater, cookies, and the syntax of hosts, fields and dates. It knows no promise and no
        // client.
        .target(name: "BatonWire", dependencies: ["BatonSupport", "BatonOpenSSL"]),
        // The client: endpoints, bodies, the stages of a call, transports (URLSession and HTTP/1.1
        // over the wire), interceptors, responses, events, the entity store, downloads, streams.
        .target(name: "BatonClient", dependencies: ["BatonPromise", "BatonWire", "BatonSupport", "BatonOpenSSL"]),
        // Features that stand on the client through its public and `package` API, nothing deeper.
        .target(name: "BatonAuth", dependencies: ["BatonClient", "BatonPromise", "BatonWire", "BatonSupport", "BatonOpenSSL"]),
        .target(name: "BatonImages", dependencies: ["BatonClient", "BatonPromise", "BatonWire", "BatonSupport"]),
        .target(name: "BatonUploads", dependencies: ["BatonClient", "BatonPromise", "BatonWire", "BatonSupport"]),
        // `import Baton`: one file re-exporting the layers and features above.
        .target(name: "Baton", dependencies: ["BatonPromise", "BatonWire", "BatonClient", "BatonAuth", "BatonImages", "BatonUploads"]),
        // The demo API on loopback sockets: a fixture for the playground, tests and benchmarks,
        // never a dependency of Baton itself.
        .target(name: "DemoServer", dependencies: ["BatonSupport", "BatonOpenSSL"]),
        .executableTarget(name: "DemoServerTool", dependencies: ["DemoServer"], path: "Sources/DemoServerTool"),
        .executableTarget(name: "Playground", dependencies: ["Baton", "BatonSupport", "DemoServer"], path: "Playground"),
        .executableTarget(name: "BatonBench", dependencies: ["Baton", "BatonSupport", "DemoServer"]),
        // Tests: a unit-test target per library target, integration tests over loopback sockets
        // by feature, and what they share in TestSupport.
        .target(name: "TestSupport", dependencies: ["Baton", "BatonSupport", "BatonClient", "BatonPromise"], path: "Tests/TestSupport"),
        .testTarget(name: "BatonSupportTests", dependencies: ["BatonSupport"]),
        .testTarget(name: "BatonPromiseTests", dependencies: ["BatonPromise", "BatonSupport", "TestSupport"]),
        .testTarget(name: "BatonWireTests", dependencies: ["BatonWire", "BatonSupport", "TestSupport"]),
        .testTarget(name: "BatonClientTests", dependencies: ["Baton", "BatonClient", "BatonPromise", "BatonWire", "BatonSupport", "TestSupport"]),
        .testTarget(name: "BatonAuthTests", dependencies: ["BatonAuth", "BatonClient", "BatonPromise", "BatonWire", "BatonSupport", "TestSupport"]),
        .testTarget(name: "BatonImagesTests", dependencies: ["BatonImages", "BatonClient", "BatonPromise", "BatonWire", "TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["Baton", "BatonClient", "BatonPromise", "BatonWire", "BatonAuth", "BatonImages", "BatonUploads", "BatonSupport", "BatonOpenSSL", "DemoServer", "TestSupport"]),
        .testTarget(name: "DemoServerTests", dependencies: ["BatonSupport", "BatonOpenSSL", "DemoServer"]),
        .testTarget(name: "PlaygroundTests", dependencies: ["Playground"]),
        // Baton against servers no one here wrote (nginx, and h11 in Python), which `.ci/interop`
        // installs, starts and names in BATON_INTEROP_* variables; without them every test skips.
        .testTarget(name: "InteropTests", dependencies: ["Baton", "BatonClient", "BatonPromise", "BatonWire", "BatonSupport", "BatonOpenSSL", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
