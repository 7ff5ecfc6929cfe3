import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Happy Eyeballs (RFC 8305): connects to the first of a host's addresses that answers, without
/// waiting for one that never does.
///
/// The addresses are taken IPv6 first, then alternating families (so that one broken family
/// costs at most one attempt's delay). The first attempt starts at once; each next one starts
/// ``attemptDelay`` after the one before, or at once when every attempt under way has failed,
/// while the earlier attempts go on. The first socket to connect wins and the others are closed.
/// One deadline bounds the whole race, not each address. All of it runs on the calling thread,
/// its sockets waited on together with one `poll`.
package struct ConnectionRace {
    /// How long an attempt has before the next starts beside it: RFC 8305 §5's recommended 250 ms.
    package static let attemptDelay: Duration = .milliseconds(250)

    /// The addresses in the order they are tried.
    package let order: [ResolvedAddress]
    /// `host:port`, for the failures' sentences.
    let server: String

    package init(addresses: [ResolvedAddress], server: String) {
        order = Self.interleaved(addresses)
        self.server = server
    }

    /// `addresses` with IPv6 first, then alternating families, each family keeping the order
    /// the resolver gave it (RFC 8305 §4).
    package static func interleaved(_ addresses: [ResolvedAddress]) -> [ResolvedAddress] {
        let six = addresses.filter(\.isIPv6)
        let four = addresses.filter { !$0.isIPv6 }
        var order: [ResolvedAddress] = []
        order.reserveCapacity(addresses.count)
        for index in 0..<max(six.count, four.count) {
            if index < six.count { order.append(six[index]) }
            if index < four.count { order.append(four[index]) }
        }
        return order
    }

    /// How often a race waiting on silent addresses asks whether its request was cancelled: a
    /// connect has no socket a cancel could shut down yet, so the race looks instead.
    static let cancelCheckInterval: Duration = .milliseconds(50)

    /// Runs the race until `deadline` (`timeout`, for the sentence): the socket that connected
    /// first and its address. `isCancelled` is asked between waits, every
    /// ``cancelCheckInterval`` at most.
    ///
    /// - Throws: `URLError(.timedOut)` when none connected by the deadline, `.cancelled` once
    ///   `isCancelled` says so, else `.cannotConnectToHost` with the last address's failure.
    package func run(until deadline: ContinuousClock.Instant, timeout: Duration,
                     isCancelled: () -> Bool = { false }) throws(URLError) -> (socket: Socket, address: ResolvedAddress) {
        var attempts: [(socket: Socket, address: ResolvedAddress)] = []
        var next = 0
        var nextStart = ContinuousClock.now
        var lastFailure = URLError(.cannotConnectToHost, detail: "\(server) has no address to connect to")
        defer { for attempt in attempts { attempt.socket.close() } }
        while true {
            if isCancelled() { throw URLError(.cancelled) }
            let now = ContinuousClock.now
            // With no attempt under way (every one failed), the next need not wait out its delay.
            if next < order.count, now >= nextStart || attempts.isEmpty {
                let address = order[next]
                next += 1
                nextStart = now + Self.attemptDelay
                do {
                    let (socket, connected) = try Socket.startConnecting(to: address)
                    if connected { return (socket, address) }
                    attempts.append((socket, address))
                } catch {
                    lastFailure = error
                }
                continue
            }
            if attempts.isEmpty { throw lastFailure }
            let remaining = deadline - now
            guard remaining > .zero else {
                throw URLError(.timedOut, detail: "connecting to \(server) took longer than \(timeout)"
                    + " (tried \(order.prefix(next).map(\.description).joined(separator: ", ")))")
            }
            let wait = min(next < order.count ? min(nextStart - now, remaining) : remaining, Self.cancelCheckInterval)
            var entries = attempts.map { pollfd(fd: $0.socket.descriptor, events: Int16(POLLOUT), revents: 0) }
            let ready = poll(&entries, nfds_t(entries.count), Int32(clamping: max(wait.clampedMilliseconds, 1)))
            guard ready > 0 else {
                if ready < 0, errno != EINTR {
                    throw URLError(.cannotConnectToHost, detail: "waiting to connect to \(server) failed (\(Socket.errorText()))")
                }
                continue
            }
            var failed: [Int] = []
            for (index, entry) in entries.enumerated() where entry.revents != 0 {
                let attempt = attempts[index]
                guard let failure = attempt.socket.connectFailure else {
                    attempts.remove(at: index)
                    return attempt
                }
                lastFailure = URLError(.cannotConnectToHost, detail: "connecting to \(attempt.address) failed (\(failure))")
                failed.append(index)
            }
            for index in failed.reversed() { attempts.remove(at: index).socket.close() }
        }
    }
}
