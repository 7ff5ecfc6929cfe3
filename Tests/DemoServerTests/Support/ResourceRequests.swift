import BatonOpenSSL
import Foundation
@testable import DemoServer

extension ServerTestCase {
    /// Uploads `image` as the `photo` part of a multipart body to review `reviewID`, with extra
    /// request `headers`.
    func uploadPhoto(
        _ image: [UInt8], to reviewID: Int = 1, filename: String = "photo.jpg", caption: String? = nil,
        boundary: String? = nil, headers: [String: String] = [:], token: String
    ) async throws -> Reply {
        var body = MultipartBody()
        if let boundary { body.boundary = boundary }
        if let caption { body.addText(name: "caption", caption) }
        body.addFile(filename: filename, data: image)
        var headers = headers
        headers["Content-Type"] = body.contentType
        return try await send("POST", "/reviews/\(reviewID)/photos", headers: headers, body: body.closed, token: token)
    }

    /// The multipart body `uploadPhoto` sends, for a test that sends it raw.
    func photoUploadBody(_ image: [UInt8], filename: String = "photo.jpg") -> MultipartBody {
        var body = MultipartBody()
        body.addFile(filename: filename, data: image)
        return body
    }
}

/// The strong entity tag the server gives a JSON body: its 64-bit FNV-1a hash, 16 hex digits, in
/// quotes; written out here from the definition, not taken from the server.
func expectedJSONETag(_ body: Data) -> String {
    var hash: UInt64 = 14_695_981_039_346_656_037
    for byte in body { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
    let hex = String(hash, radix: 16)
    return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
}

/// The strong entity tag the server gives a photo: the first 32 hex digits of its SHA-256.
func expectedPhotoETag(_ bytes: [UInt8]) -> String {
    "\"" + String(SHA256.hexDigest(of: bytes).prefix(32)) + "\""
}

/// `Repr-Digest` for `bytes` as RFC 9530 writes it: `sha-256=:<base64 of the digest>:`.
func expectedReprDigest(_ bytes: [UInt8]) -> String {
    var hasher = SHA256()
    hasher.update(bytes)
    return "sha-256=:" + Data(hasher.finalize()).base64EncodedString() + ":"
}
