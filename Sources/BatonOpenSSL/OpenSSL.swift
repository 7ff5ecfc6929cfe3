#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's OpenSSL 3, opened at run time: the functions of `libssl.so.3` and
/// `libcrypto.so.3` that Baton's TLS and DemoServer's use.
///
/// The libraries are the ones FoundationNetworking itself loads on Linux, so every machine
/// that runs Swift programs there has them; their headers are not needed, which is why nothing is
/// linked at build time: each function is looked up by name once, on first use, with the C type
/// its manual gives. A machine without them (or with an OpenSSL older than 3.0) gets
/// ``OpenSSLUnavailable`` saying what is missing, and `https` goes elsewhere.
package enum OpenSSL {
    /// The loaded functions, or why they could not be had. Loaded once, on first use.
    package static let loaded: Result<OpenSSLFunctions, OpenSSLUnavailable> = load()

    /// The functions; throws when OpenSSL cannot be had.
    package static func functions() throws(OpenSSLUnavailable) -> OpenSSLFunctions {
        try loaded.get()
    }

    /// The library names tried, in order: the soname of OpenSSL 3, then the development link.
    static let librarySearch = (ssl: ["libssl.so.3", "libssl.3.dylib", "libssl.so"],
                                crypto: ["libcrypto.so.3", "libcrypto.3.dylib", "libcrypto.so"])

    private static func load() -> Result<OpenSSLFunctions, OpenSSLUnavailable> {
        guard let crypto = open(librarySearch.crypto), let ssl = open(librarySearch.ssl) else {
            return .failure(OpenSSLUnavailable(reason: "libssl.so.3 and libcrypto.so.3 (OpenSSL 3) were not found (\(lastLoaderError()))"))
        }
        do {
            let functions = try OpenSSLFunctions(ssl: ssl, crypto: crypto)
            let version = functions.OpenSSL_version_num()
            guard version >= 0x3000_0000 else {
                return .failure(OpenSSLUnavailable(reason: "the OpenSSL found is older than 3.0 (version number 0x\(String(version, radix: 16)))"))
            }
            return .success(functions)
        } catch {
            return .failure(error)
        }
    }

    private static func open(_ names: [String]) -> UnsafeMutableRawPointer? {
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) { return handle }
        }
        return nil
    }

    private static func lastLoaderError() -> String {
        dlerror().map { String(cString: $0) } ?? "no reason given"
    }
}

/// Why OpenSSL cannot be used here, in words.
package struct OpenSSLUnavailable: Error, Sendable, CustomStringConvertible {
    /// As in `libssl.so.3 and libcrypto.so.3 (OpenSSL 3) were not found (...)`.
    package let reason: String

    package init(reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}
