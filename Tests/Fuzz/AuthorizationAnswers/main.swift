// A libFuzzer target for what an authorization server sends back outside the token response
// (Sources/BatonAuth): the query of the redirect that ends an authorization (RedirectParameters),
// its metadata (AuthorizationServerMetadata) and a device authorization (DeviceAuthorization). The
// first byte picks the reader; the rest is the input. Reading must never trap, and what is read
// must keep the readers' promises: no parameter read twice, metadata trusted only for the issuer
// asked for and only with https endpoints, a device's interval and lifetime within bounds.
import Foundation

private let issuer = URL(string: "https://auth.example.com")!
private let now = Date(timeIntervalSince1970: 1_800_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let body = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0:
        let query = String(decoding: body, as: UTF8.self)
        if let read = try? RedirectParameters(query: query) {
            let names = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0] }
            check(read.values.count == names.count, "\(names.count) names read as \(read.values.count) parameters")
        }
    case 1:
        if let metadata = try? AuthorizationServerMetadata(json: body, issuer: issuer) {
            let endpoints = [metadata.tokenEndpoint, metadata.authorizationEndpoint, metadata.deviceAuthorizationEndpoint, metadata.revocationEndpoint]
            for endpoint in endpoints.compactMap({ $0 }) {
                check(endpoint.scheme?.lowercased() == "https", "\(endpoint) trusted for an https issuer")
            }
            let named = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["issuer"] as? String
            check(named == "https://auth.example.com" || named == "https://auth.example.com/", "issuer \(String(describing: named)) trusted")
        }
    default:
        if let device = try? DeviceAuthorization(json: body, now: now) {
            check(device.interval >= .seconds(1) && device.interval <= .seconds(600), "interval \(device.interval)")
            check(device.expiresAt > now && device.expiresAt <= now + 86_400, "expires \(device.expiresAt)")
            check(["http", "https"].contains(device.verificationURI.scheme?.lowercased() ?? ""), "page \(device.verificationURI)")
            check(!device.deviceCode.isEmpty && !device.userCode.isEmpty, "empty codes")
        }
    }
    return 0
}
