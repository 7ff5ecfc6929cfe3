import Foundation

/// A device authorization (RFC 8628 §3.2): the code the user enters on another device, and where.
///
/// Made by ``Authenticator/beginDeviceAuthorization(scope:)``. Show the user ``userCode`` and
/// ``verificationURI`` (or a QR code of ``verificationURIComplete``), then wait with
/// ``Authenticator/logIn(completing:)`` while they approve.
///
/// Printing one shows the user code and the page, never the device code, which is the secret the
/// app polls with.
public struct DeviceAuthorization: Sendable, CustomStringConvertible, CustomReflectable {
    /// The code the user types on the verification page, such as `WDJB-MJHT`.
    public let userCode: String
    /// The page where the user enters ``userCode``, such as `https://example.com/device`.
    public let verificationURI: URL
    /// The page with the user code already filled in, when the server offers one: for a QR code
    /// or a link, with ``userCode`` still shown beside it so the user can check it.
    public let verificationURIComplete: URL?
    /// When the codes stop working; polling ends then with
    /// ``AuthenticationError/Kind/authorizationExpired``.
    public let expiresAt: Date
    /// How long to wait between polls, as the server asked (5 seconds when it did not say).
    public let interval: Duration
    /// The secret the app polls the token endpoint with.
    let deviceCode: String

    /// The user code and page, as in `DeviceAuthorization(WDJB-MJHT at https://example.com/device)`.
    public var description: String {
        "DeviceAuthorization(\(userCode) at \(verificationURI.absoluteString))"
    }

    /// What `dump` and debuggers show: the same as ``description``.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description])
    }
}

extension DeviceAuthorization {
    /// Why a device authorization response is not usable.
    struct Unusable: Error {
        var reason: String
    }

    /// Reads the device authorization endpoint's JSON answer (RFC 8628 §3.2), received at `now`.
    ///
    /// `verification_url`, the name some servers used before the RFC, is read too. The interval is
    /// kept within 1 second to 10 minutes, so that no answer can make the app poll in a busy loop,
    /// and the lifetime within 1 day.
    init(json body: Data, now: Date) throws(Unusable) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw Unusable(reason: "its answer is not a JSON object")
        }
        func text(_ name: String) -> String? {
            (object[name] as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let deviceCode = text("device_code"), let userCode = text("user_code") else {
            throw Unusable(reason: "its answer has no device_code or user_code")
        }
        guard let page = text("verification_uri") ?? text("verification_url"), let verificationURI = Self.webPage(page) else {
            throw Unusable(reason: "its answer has no verification_uri that is an http or https URL")
        }
        guard let lifetime = JSONSeconds.read(object["expires_in"]), lifetime > 0 else {
            throw Unusable(reason: "its answer has no positive expires_in")
        }
        self.deviceCode = deviceCode
        self.userCode = String(userCode.prefix(100))
        self.verificationURI = verificationURI
        verificationURIComplete = text("verification_uri_complete").flatMap(Self.webPage)
        expiresAt = now + min(lifetime, 86_400)
        interval = .seconds(min(max(JSONSeconds.read(object["interval"]) ?? 5, 1), 600))
    }

    /// `text` as an http or https URL with a host, `nil` otherwise: a page to send the user to.
    private static func webPage(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              url.host?.isEmpty == false else { return nil }
        return url
    }
}
