import Foundation
import BatonPromise
import BatonClient

/// The device authorization grant (RFC 8628): signing in on a TV or in a command-line tool, with the
/// user approving on their phone or computer.
extension Authenticator {
    /// The `grant_type` of a device code (RFC 8628 §3.4).
    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"
    /// How many polls in a row may fail to reach the token endpoint before signing in fails.
    static let pollFailuresAllowed = 3

    /// Asks the ``Configuration/deviceAuthorizationURL`` for a device code, and returns the user
    /// code and page to show the user.
    ///
    /// ```swift
    /// auth.beginDeviceAuthorization()
    ///     .success { device -> Promise<Credentials> in
    ///         print("Open \(device.verificationURI) and enter \(device.userCode)")
    ///         return auth.logIn(completing: device)
    ///     }
    ///     .success { _ in print("Signed in") }
    ///     .failure { error, _ in print(error) }
    /// ```
    ///
    /// Needs ``Configuration/deviceAuthorizationURL`` and a client id
    /// (``ClientAuthentication/formBody(clientID:secret:)``): otherwise fails with an
    /// ``AuthenticationError`` of kind ``AuthenticationError/Kind/notConfigured`` and sends nothing.
    ///
    /// - Parameter scope: the scope to ask for; `nil` asks for ``Configuration/scope``.
    public func beginDeviceAuthorization(scope: String? = nil) -> Promise<DeviceAuthorization> {
        guard let deviceEndpoint else {
            return Promise(error: AuthenticationError(
                .notConfigured, detail: "the configuration has no deviceAuthorizationURL (set it, or create the authenticator with Authenticator.discover(issuer:))"
            ))
        }
        do throws(AuthenticationError) {
            _ = try requireClientID(for: "the device authorization grant")
        } catch {
            return Promise(error: error)
        }
        var fields: [FormEndpoint.Field] = []
        if let scope = scope ?? configuration.scope { fields.append(("scope", scope)) }
        return deviceEndpoint.post(fields).then { [self] result in
            let endpoint = "the device authorization endpoint"
            let response = try AuthenticationError.successfulResponse(of: result, orFail: .loginFailed, endpoint: endpoint)
            do throws(DeviceAuthorization.Unusable) {
                return try DeviceAuthorization(json: response.body, now: now())
            } catch {
                throw AuthenticationError(.loginFailed, detail: "\(endpoint) cannot be used: \(error.reason)")
            }
        }
    }

    /// Waits while the user approves `device` on another device, polling the token endpoint at the
    /// interval the server asked for, and returns the credentials, which every request then uses;
    /// they are saved in the store.
    ///
    /// Polling follows RFC 8628 §3.5: `authorization_pending` waits the interval again, and
    /// `slow_down` waits 5 seconds longer from then on; a poll that does not reach the server is
    /// tried again after twice the interval, up to 3 in a row. Cancel the returned promise to stop:
    /// the poll in flight is cancelled and no other is sent.
    ///
    /// Fails with an ``AuthenticationError``: ``AuthenticationError/Kind/authorizationDenied``
    /// when the user refused; ``AuthenticationError/Kind/authorizationExpired`` when the codes
    /// expired first (the server said `expired_token`, or ``DeviceAuthorization/expiresAt``
    /// passed); ``AuthenticationError/Kind/loginFailed`` for any other refusal, or when the
    /// server could not be reached.
    public func logIn(completing device: DeviceAuthorization) -> Promise<Credentials> {
        let outcome = Promise<Credentials>(upstream: nil)
        poll(device, after: device.interval, failuresInARow: 0, settling: outcome)
        return outcome
    }

    /// Polls for `device` after waiting `interval`, unless `outcome` is settled (cancelled) or the
    /// codes will have expired by then.
    private func poll(_ device: DeviceAuthorization, after interval: Duration, failuresInARow: Int, settling outcome: Promise<Credentials>) {
        guard outcome.isPending else { return }
        guard now() + interval.timeInterval < device.expiresAt else {
            _ = outcome.settle(.failure(AuthenticationError(
                .authorizationExpired, detail: "the user did not approve the code \(device.userCode) before it expired"
            )))
            return
        }
        outcome.wait(for: DelayedStep(after: pollPause(interval)) { [self] in
            guard outcome.isPending else { return }
            let exchange = tokenEndpoint.post([("grant_type", Self.deviceCodeGrant), ("device_code", device.deviceCode)])
            outcome.wait(for: exchange)
            exchange.subscribe { [self] event in
                guard case .settled(let settled) = event, outcome.isPending else { return }
                let result = Promise<HTTPResponse>.result(of: settled)
                switch Self.pollAnswer(result) {
                case .wait(let longer):
                    poll(device, after: interval + longer, failuresInARow: 0, settling: outcome)
                case .unreachable where failuresInARow + 1 < Self.pollFailuresAllowed:
                    poll(device, after: interval * 2, failuresInARow: failuresInARow + 1, settling: outcome)
                case .denied(let kind, let response):
                    _ = outcome.settle(.failure(AuthenticationError(kind, response: response)))
                case .unreachable, .answered:
                    do {
                        let credentials = try loginCredentials(from: result, refusedGrant: "the device code was refused; start signing in again")
                        begin(credentials)
                        _ = outcome.settle(.success(credentials))
                    } catch {
                        _ = outcome.settle(.failure(error))
                    }
                }
            }
        })
    }

    /// What a poll's answer means for the polling.
    private enum PollAnswer {
        /// The user has not decided yet: poll again, waiting this much longer than before.
        case wait(longer: Duration)
        /// The user refused, or the codes expired.
        case denied(AuthenticationError.Kind, HTTPResponse)
        /// The token endpoint could not be reached.
        case unreachable
        /// Tokens, or a refusal that ends the login.
        case answered
    }

    private static func pollAnswer(_ result: Result<HTTPResponse, any Error>) -> PollAnswer {
        switch result {
        case .failure(let error) where error.isCancellation: return .answered
        case .failure: return .unreachable
        case .success(let response) where (200..<300).contains(response.statusCode): return .answered
        case .success(let response):
            switch TokenResponseReading.errorCode(in: response) {
            case "authorization_pending": return .wait(longer: .zero)
            case "slow_down": return .wait(longer: .seconds(5))
            case "access_denied": return .denied(.authorizationDenied, response)
            case "expired_token": return .denied(.authorizationExpired, response)
            default: return .answered
            }
        }
    }
}
