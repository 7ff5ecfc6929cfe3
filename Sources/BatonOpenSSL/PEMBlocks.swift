/// PEM text read through OpenSSL, for a server's certificate chain and key.
enum PEMBlocks {
    /// Every certificate in `pem`, in order (owned: the caller frees them).
    static func certificates(in pem: String, functions: OpenSSLFunctions) -> [OpaquePointer] {
        withBIO(pem, functions) { bio in
            var certificates: [OpaquePointer] = []
            while let certificate = functions.PEM_read_bio_X509(bio, nil, nil, nil) {
                certificates.append(certificate)
            }
            // Reading past the last block leaves an error on the queue: not a failure.
            functions.ERR_clear_error()
            return certificates
        }
    }

    /// The private key in `pem` (owned), or `nil`.
    static func privateKey(in pem: String, functions: OpenSSLFunctions) -> OpaquePointer? {
        withBIO(pem, functions) { bio in functions.PEM_read_bio_PrivateKey(bio, nil, nil, nil) }
    }

    private static func withBIO<T>(_ text: String, _ functions: OpenSSLFunctions, _ body: (OpaquePointer?) -> T) -> T {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            let bio = functions.BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
            defer { _ = functions.BIO_free(bio) }
            return body(bio)
        }
    }
}
