/// libFuzzer entry for what Baton reads out of a server's certificate to say why it was refused
/// (``PeerCertificate``: validity dates, the subjectAltName's names and addresses walked through
/// OpenSSL's structures, common names) and for the public key digest a pin is compared with.
/// Each input is parsed as a DER certificate by the system's OpenSSL; whatever certificate it
/// makes, reading it must not crash, and give at most 20 names. Built and run by `.ci/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let functions = try? OpenSSL.functions() else { fatalError("OpenSSL 3 cannot be loaded here") }
    var cursor: UnsafePointer<UInt8>? = data
    guard let certificate = functions.d2i_X509(nil, &cursor, size) else {
        functions.ERR_clear_error()
        return 0
    }
    defer { functions.X509_free(certificate) }
    let read = PeerCertificate(certificate, functions: functions)
    precondition(read.names.count <= 20, "\(read.names.count) names read")
    if let digest = PeerCertificate.publicKeyDigest(certificate, functions: functions) {
        precondition(digest.count == 32, "a digest of \(digest.count) bytes")
    }
    functions.ERR_clear_error()
    return 0
}
