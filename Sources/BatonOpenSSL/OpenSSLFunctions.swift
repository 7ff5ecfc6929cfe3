#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The OpenSSL functions used, each with the C type its manual page gives (`OpaquePointer` for
/// every `SSL`, `SSL_CTX`, `BIO`, `X509`... pointer). Named as in C, so that the manual reads
/// alongside the code.
// Immutable once made (function addresses only), and OpenSSL 3 functions are safe to call from
// any thread on distinct objects.
package struct OpenSSLFunctions: @unchecked Sendable {
    typealias Pointer = OpaquePointer?

    // MARK: libcrypto
    let OpenSSL_version_num: @convention(c) () -> UInt
    let ERR_get_error: @convention(c) () -> UInt
    let ERR_clear_error: @convention(c) () -> Void
    let ERR_error_string_n: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    let ERR_reason_error_string: @convention(c) (UInt) -> UnsafePointer<CChar>?
    let BIO_s_mem: @convention(c) () -> Pointer
    let BIO_new: @convention(c) (Pointer) -> Pointer
    let BIO_new_mem_buf: @convention(c) (UnsafeRawPointer?, Int32) -> Pointer
    let BIO_free: @convention(c) (Pointer) -> Int32
    let BIO_read: @convention(c) (Pointer, UnsafeMutableRawPointer?, Int32) -> Int32
    let BIO_write: @convention(c) (Pointer, UnsafeRawPointer?, Int32) -> Int32
    let BIO_ctrl: @convention(c) (Pointer, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let PEM_read_bio_X509: @convention(c) (Pointer, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Pointer
    let PEM_read_bio_PrivateKey: @convention(c) (Pointer, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Pointer
    let d2i_X509: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> Pointer
    let X509_free: @convention(c) (Pointer) -> Void
    let EVP_PKEY_free: @convention(c) (Pointer) -> Void
    let X509_STORE_add_cert: @convention(c) (Pointer, Pointer) -> Int32
    let X509_get0_notBefore: @convention(c) (Pointer) -> Pointer
    let X509_get0_notAfter: @convention(c) (Pointer) -> Pointer
    let ASN1_TIME_to_tm: @convention(c) (Pointer, UnsafeMutablePointer<tm>?) -> Int32
    let X509_get_X509_PUBKEY: @convention(c) (Pointer) -> Pointer
    let i2d_X509_PUBKEY: @convention(c) (Pointer, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    let X509_get_ext_d2i: @convention(c) (Pointer, Int32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> UnsafeMutableRawPointer?
    let X509_get_subject_name: @convention(c) (Pointer) -> Pointer
    let X509_get_issuer_name: @convention(c) (Pointer) -> Pointer
    let X509_NAME_get_text_by_NID: @convention(c) (Pointer, Int32, UnsafeMutablePointer<CChar>?, Int32) -> Int32
    let X509_verify_cert_error_string: @convention(c) (Int) -> UnsafePointer<CChar>?
    let X509_VERIFY_PARAM_set1_ip_asc: @convention(c) (Pointer, UnsafePointer<CChar>?) -> Int32
    let OPENSSL_sk_num: @convention(c) (UnsafeRawPointer?) -> Int32
    let OPENSSL_sk_value: @convention(c) (UnsafeRawPointer?, Int32) -> UnsafeMutableRawPointer?
    let OPENSSL_sk_pop_free: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    /// Passed to `OPENSSL_sk_pop_free`, never called from Swift.
    let GENERAL_NAME_free: UnsafeMutableRawPointer
    let ASN1_STRING_get0_data: @convention(c) (Pointer) -> UnsafePointer<UInt8>?
    let ASN1_STRING_length: @convention(c) (Pointer) -> Int32
    let SHA256: @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?
    /// Deprecated in OpenSSL 3 and left out of builds without deprecated functions: looked up
    /// optionally, so that TLS does not depend on them (``DigestSHA256`` falls back to Swift).
    let SHA256_Init: (@convention(c) (UnsafeMutableRawPointer) -> Int32)?
    let SHA256_Update: (@convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer?, Int) -> Int32)?
    let SHA256_Final: (@convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutableRawPointer) -> Int32)?

    // MARK: libssl
    let TLS_client_method: @convention(c) () -> Pointer
    let TLS_server_method: @convention(c) () -> Pointer
    let SSL_CTX_new: @convention(c) (Pointer) -> Pointer
    let SSL_CTX_free: @convention(c) (Pointer) -> Void
    let SSL_CTX_ctrl: @convention(c) (Pointer, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_CTX_set_options: @convention(c) (Pointer, UInt64) -> UInt64
    let SSL_CTX_set_default_verify_paths: @convention(c) (Pointer) -> Int32
    let SSL_CTX_set_verify: @convention(c) (Pointer, Int32, UnsafeMutableRawPointer?) -> Void
    let SSL_CTX_get_cert_store: @convention(c) (Pointer) -> Pointer
    let SSL_CTX_set_alpn_protos: @convention(c) (Pointer, UnsafePointer<UInt8>?, UInt32) -> Int32
    let SSL_CTX_set_alpn_select_cb: @convention(c) (Pointer, TLSContext.ALPNSelect?, UnsafeMutableRawPointer?) -> Void
    let SSL_CTX_use_certificate: @convention(c) (Pointer, Pointer) -> Int32
    let SSL_CTX_use_PrivateKey: @convention(c) (Pointer, Pointer) -> Int32
    let SSL_CTX_check_private_key: @convention(c) (Pointer) -> Int32
    let SSL_new: @convention(c) (Pointer) -> Pointer
    let SSL_free: @convention(c) (Pointer) -> Void
    let SSL_set_bio: @convention(c) (Pointer, Pointer, Pointer) -> Void
    let SSL_set_connect_state: @convention(c) (Pointer) -> Void
    let SSL_set_accept_state: @convention(c) (Pointer) -> Void
    let SSL_do_handshake: @convention(c) (Pointer) -> Int32
    let SSL_read: @convention(c) (Pointer, UnsafeMutableRawPointer?, Int32) -> Int32
    let SSL_write: @convention(c) (Pointer, UnsafeRawPointer?, Int32) -> Int32
    let SSL_get_error: @convention(c) (Pointer, Int32) -> Int32
    let SSL_shutdown: @convention(c) (Pointer) -> Int32
    let SSL_pending: @convention(c) (Pointer) -> Int32
    let SSL_ctrl: @convention(c) (Pointer, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_set1_host: @convention(c) (Pointer, UnsafePointer<CChar>?) -> Int32
    let SSL_set_hostflags: @convention(c) (Pointer, UInt32) -> Void
    let SSL_get0_param: @convention(c) (Pointer) -> Pointer
    let SSL_get_verify_result: @convention(c) (Pointer) -> Int
    let SSL_get0_verified_chain: @convention(c) (Pointer) -> UnsafeMutableRawPointer?
    let SSL_get_peer_cert_chain: @convention(c) (Pointer) -> UnsafeMutableRawPointer?
    let SSL_get_version: @convention(c) (Pointer) -> UnsafePointer<CChar>?
    let SSL_get_current_cipher: @convention(c) (Pointer) -> Pointer
    let SSL_CIPHER_get_name: @convention(c) (Pointer) -> UnsafePointer<CChar>?
    let SSL_get_servername: @convention(c) (Pointer, Int32) -> UnsafePointer<CChar>?
    let SSL_get0_alpn_selected: @convention(c) (Pointer, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt32>?) -> Void

    /// Looks every function up in the two opened libraries.
    init(ssl: UnsafeMutableRawPointer, crypto: UnsafeMutableRawPointer) throws(OpenSSLUnavailable) {
        let c = Lookup(handle: crypto, library: "libcrypto")
        let s = Lookup(handle: ssl, library: "libssl")
        OpenSSL_version_num = try c.function("OpenSSL_version_num")
        ERR_get_error = try c.function("ERR_get_error")
        ERR_clear_error = try c.function("ERR_clear_error")
        ERR_error_string_n = try c.function("ERR_error_string_n")
        ERR_reason_error_string = try c.function("ERR_reason_error_string")
        BIO_s_mem = try c.function("BIO_s_mem")
        BIO_new = try c.function("BIO_new")
        BIO_new_mem_buf = try c.function("BIO_new_mem_buf")
        BIO_free = try c.function("BIO_free")
        BIO_read = try c.function("BIO_read")
        BIO_write = try c.function("BIO_write")
        BIO_ctrl = try c.function("BIO_ctrl")
        PEM_read_bio_X509 = try c.function("PEM_read_bio_X509")
        PEM_read_bio_PrivateKey = try c.function("PEM_read_bio_PrivateKey")
        d2i_X509 = try c.function("d2i_X509")
        X509_free = try c.function("X509_free")
        EVP_PKEY_free = try c.function("EVP_PKEY_free")
        X509_STORE_add_cert = try c.function("X509_STORE_add_cert")
        X509_get0_notBefore = try c.function("X509_get0_notBefore")
        X509_get0_notAfter = try c.function("X509_get0_notAfter")
        ASN1_TIME_to_tm = try c.function("ASN1_TIME_to_tm")
        X509_get_X509_PUBKEY = try c.function("X509_get_X509_PUBKEY")
        i2d_X509_PUBKEY = try c.function("i2d_X509_PUBKEY")
        X509_get_ext_d2i = try c.function("X509_get_ext_d2i")
        X509_get_subject_name = try c.function("X509_get_subject_name")
        X509_get_issuer_name = try c.function("X509_get_issuer_name")
        X509_NAME_get_text_by_NID = try c.function("X509_NAME_get_text_by_NID")
        X509_verify_cert_error_string = try c.function("X509_verify_cert_error_string")
        X509_VERIFY_PARAM_set1_ip_asc = try c.function("X509_VERIFY_PARAM_set1_ip_asc")
        OPENSSL_sk_num = try c.function("OPENSSL_sk_num")
        OPENSSL_sk_value = try c.function("OPENSSL_sk_value")
        OPENSSL_sk_pop_free = try c.function("OPENSSL_sk_pop_free")
        GENERAL_NAME_free = try c.address("GENERAL_NAME_free")
        ASN1_STRING_get0_data = try c.function("ASN1_STRING_get0_data")
        ASN1_STRING_length = try c.function("ASN1_STRING_length")
        SHA256 = try c.function("SHA256")
        SHA256_Init = c.optionalFunction("SHA256_Init")
        SHA256_Update = c.optionalFunction("SHA256_Update")
        SHA256_Final = c.optionalFunction("SHA256_Final")
        TLS_client_method = try s.function("TLS_client_method")
        TLS_server_method = try s.function("TLS_server_method")
        SSL_CTX_new = try s.function("SSL_CTX_new")
        SSL_CTX_free = try s.function("SSL_CTX_free")
        SSL_CTX_ctrl = try s.function("SSL_CTX_ctrl")
        SSL_CTX_set_options = try s.function("SSL_CTX_set_options")
        SSL_CTX_set_default_verify_paths = try s.function("SSL_CTX_set_default_verify_paths")
        SSL_CTX_set_verify = try s.function("SSL_CTX_set_verify")
        SSL_CTX_get_cert_store = try s.function("SSL_CTX_get_cert_store")
        SSL_CTX_set_alpn_protos = try s.function("SSL_CTX_set_alpn_protos")
        SSL_CTX_set_alpn_select_cb = try s.function("SSL_CTX_set_alpn_select_cb")
        SSL_CTX_use_certificate = try s.function("SSL_CTX_use_certificate")
        SSL_CTX_use_PrivateKey = try s.function("SSL_CTX_use_PrivateKey")
        SSL_CTX_check_private_key = try s.function("SSL_CTX_check_private_key")
        SSL_new = try s.function("SSL_new")
        SSL_free = try s.function("SSL_free")
        SSL_set_bio = try s.function("SSL_set_bio")
        SSL_set_connect_state = try s.function("SSL_set_connect_state")
        SSL_set_accept_state = try s.function("SSL_set_accept_state")
        SSL_do_handshake = try s.function("SSL_do_handshake")
        SSL_read = try s.function("SSL_read")
        SSL_write = try s.function("SSL_write")
        SSL_get_error = try s.function("SSL_get_error")
        SSL_shutdown = try s.function("SSL_shutdown")
        SSL_pending = try s.function("SSL_pending")
        SSL_ctrl = try s.function("SSL_ctrl")
        SSL_set1_host = try s.function("SSL_set1_host")
        SSL_set_hostflags = try s.function("SSL_set_hostflags")
        SSL_get0_param = try s.function("SSL_get0_param")
        SSL_get_verify_result = try s.function("SSL_get_verify_result")
        SSL_get0_verified_chain = try s.function("SSL_get0_verified_chain")
        SSL_get_peer_cert_chain = try s.function("SSL_get_peer_cert_chain")
        SSL_get_version = try s.function("SSL_get_version")
        SSL_get_current_cipher = try s.function("SSL_get_current_cipher")
        SSL_CIPHER_get_name = try s.function("SSL_CIPHER_get_name")
        SSL_get0_alpn_selected = try s.function("SSL_get0_alpn_selected")
        SSL_get_servername = try s.function("SSL_get_servername")
    }

    /// Finds functions in one opened library.
    private struct Lookup {
        let handle: UnsafeMutableRawPointer
        let library: String

        func address(_ name: String) throws(OpenSSLUnavailable) -> UnsafeMutableRawPointer {
            guard let address = dlsym(handle, name) else {
                throw OpenSSLUnavailable(reason: "\(library) has no function \(name)")
            }
            return address
        }

        /// The function `name`, as the C type `T`.
        func function<T>(_ name: String) throws(OpenSSLUnavailable) -> T {
            unsafeBitCast(try address(name), to: T.self)
        }

        /// The function `name`, as the C type `T`, if the library has it.
        func optionalFunction<T>(_ name: String) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
        }
    }
}
