import BatonOpenSSL
import Foundation

/// What the demo's authorization server remembers between the steps of a grant: the authorization
/// codes it issued (RFC 6749 §4.1, with their PKCE challenges) and the device codes (RFC 8628).
///
/// Bounded whatever clients send: at most ``capacity`` of each kind are held; when full, the
/// expired ones are forgotten, and if none has expired, issuing is refused.
struct GrantStore: Sendable {
    /// How many codes of each kind may be outstanding at once.
    static let capacity = 10_000
    /// How long an authorization code may wait to be exchanged (RFC 6749 §4.1.2 advises 10 minutes at most).
    static let codeLifetime: Duration = .seconds(60)
    /// How long a device code may wait for the user (RFC 8628 §3.2's example says 30 minutes).
    static let deviceCodeLifetime: Duration = .seconds(600)

    struct AuthorizationCode: Sendable {
        var clientID: String
        var redirectURI: String
        var challenge: String
        var expiresAt: ContinuousClock.Instant
    }

    struct DeviceCode: Sendable {
        enum Decision: Sendable { case pending, approved, denied }

        var userCode: String
        var expiresAt: ContinuousClock.Instant
        var interval: Duration
        var lastPoll: ContinuousClock.Instant?
        var decision: Decision = .pending
    }

    /// What a device's poll is answered (RFC 8628 §3.5).
    enum Poll: Equatable {
        case pending, slowDown, approved, denied, expired, unknown
    }

    private var codes: [String: AuthorizationCode] = [:]
    private var devices: [String: DeviceCode] = [:]

    /// A new code for the consent of `clientID`, to be sent back to `redirectURI`; `nil` when full.
    mutating func issueCode(clientID: String, redirectURI: String, challenge: String, now: ContinuousClock.Instant) -> String? {
        // Expired codes are swept only when the store is full, so that issuing stays cheap.
        if codes.count >= Self.capacity { codes = codes.filter { $0.value.expiresAt > now } }
        guard codes.count < Self.capacity else { return nil }
        let code = TokenStore.randomToken(prefix: "ac_")
        codes[code] = AuthorizationCode(clientID: clientID, redirectURI: redirectURI, challenge: challenge, expiresAt: now + Self.codeLifetime)
        return code
    }

    /// Uses `code` up (a code works once, whatever happens) and says whether it was issued to
    /// `clientID` for `redirectURI`, is unexpired, and `verifier` matches its challenge (S256).
    mutating func redeem(code: String, clientID: String?, redirectURI: String?, verifier: String?, now: ContinuousClock.Instant) -> Bool {
        guard let issued = codes.removeValue(forKey: code), issued.expiresAt > now,
              clientID == nil || clientID == issued.clientID, redirectURI == issued.redirectURI,
              let verifier, Self.isVerifier(verifier) else { return false }
        var hasher = SHA256()
        hasher.update(Array(verifier.utf8))
        let challenge = Data(hasher.finalize()).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return challenge == issued.challenge
    }

    /// RFC 7636 §4.1: 43 to 128 characters of `[A-Za-z0-9-._~]`.
    private static func isVerifier(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            byte.isASCIILetterOrDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
        }
    }

    /// A new device code and its user code; `nil` when full.
    mutating func issueDeviceCode(interval: Duration, now: ContinuousClock.Instant) -> (deviceCode: String, userCode: String)? {
        if devices.count >= Self.capacity { devices = devices.filter { $0.value.expiresAt > now } }
        guard devices.count < Self.capacity else { return nil }
        let deviceCode = TokenStore.randomToken(prefix: "dc_")
        var userCode: String
        repeat { userCode = Self.userCode() } while devices.values.contains { $0.userCode == userCode }
        devices[deviceCode] = DeviceCode(userCode: userCode, expiresAt: now + Self.deviceCodeLifetime, interval: interval)
        return (deviceCode, userCode)
    }

    /// The user's decision on the verification page for `userCode`; `false` when no pending,
    /// unexpired device code has it.
    mutating func decide(userCode: String, approve: Bool, now: ContinuousClock.Instant) -> Bool {
        let wanted = userCode.uppercased().filter { $0 != "-" && $0 != " " }
        guard let entry = devices.first(where: { $0.value.userCode.filter { $0 != "-" } == wanted }),
              entry.value.expiresAt > now, entry.value.decision == .pending else { return false }
        devices[entry.key]?.decision = approve ? .approved : .denied
        return true
    }

    /// A device's poll with `deviceCode` at `now`: polled sooner than its interval after the last
    /// poll, it is told to slow down, and its interval grows by 5 seconds. An approved or denied
    /// code is answered once, then forgotten.
    mutating func poll(deviceCode: String, now: ContinuousClock.Instant) -> Poll {
        guard var device = devices[deviceCode] else { return .unknown }
        guard device.expiresAt > now else {
            devices[deviceCode] = nil
            return .expired
        }
        defer { if devices[deviceCode] != nil { devices[deviceCode]?.lastPoll = now } }
        if let last = device.lastPoll, now - last < device.interval {
            device.interval += .seconds(5)
            devices[deviceCode] = device
            return .slowDown
        }
        switch device.decision {
        case .pending: return .pending
        case .approved: devices[deviceCode] = nil; return .approved
        case .denied: devices[deviceCode] = nil; return .denied
        }
    }

    /// Eight letters from an alphabet without vowels or look-alikes, as `BCDF-GHJK` (RFC 8628 §6.1).
    private static func userCode() -> String {
        let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
        var generator = SystemRandomNumberGenerator()
        let picked = (0..<8).map { _ in letters[Int(generator.next() % UInt64(letters.count))] }
        return String(picked[0..<4]) + "-" + String(picked[4...])
    }
}

private extension UInt8 {
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
