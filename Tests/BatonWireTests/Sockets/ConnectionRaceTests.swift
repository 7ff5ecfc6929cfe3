@testable import BatonWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Happy Eyeballs (RFC 8305) over real loopback sockets: the order of attempts, the winner, the
/// losers closed, and one deadline for the whole race.
final class ConnectionRaceTests: XCTestCase {
    private func address(_ text: String, _ port: UInt16 = 1) throws -> ResolvedAddress {
        try XCTUnwrap(ResolvedAddress(numeric: text, port: Int(port)))
    }

    func test_addresses_areTriedIPv6First_alternatingFamilies() throws {
        let given = try [address("10.0.0.1"), address("10.0.0.2"), address("10.0.0.3"), address("2001:db8::1"), address("2001:db8::2")]
        XCTAssertEqual(ConnectionRace.interleaved(given).map(\.description),
                       ["[2001:db8::1]:1", "10.0.0.1:1", "[2001:db8::2]:1", "10.0.0.2:1", "10.0.0.3:1"])
        XCTAssertEqual(ConnectionRace.attemptDelay, .milliseconds(250), "RFC 8305's recommended delay")
    }

    /// The first address drops SYNs; the second, tried after one attempt delay, wins, and the
    /// attempt still pending on the first is closed.
    func test_anAddressThatNeverAnswers_costsOneAttemptDelay_andIsClosedWhenAnotherWins() throws {
        let silent = try UnansweringListener()
        let answering = try UnansweringListenerPair()
        let before = openDescriptorCount()
        let started = ContinuousClock.now
        let race = ConnectionRace(addresses: [try address("127.0.0.1", silent.port), try address("127.0.0.1", answering.port)], server: "test:1")
        let (socket, winner) = try race.run(until: .now + .seconds(30), timeout: .seconds(30))
        let elapsed = ContinuousClock.now - started
        socket.close()
        XCTAssertEqual(winner.description, "127.0.0.1:\(answering.port)")
        XCTAssertGreaterThanOrEqual(elapsed, ConnectionRace.attemptDelay, "the first attempt had its delay")
        // Far below the 30 s deadline: the race did not wait for the first address to give up.
        XCTAssertLessThan(elapsed, .seconds(5), "took \(elapsed)")
        XCTAssertEqual(openDescriptorCount(), before, "the losing attempt was closed")
    }

    /// An address that refuses lets the next start at once, without its delay.
    func test_aRefusingAddress_startsTheNextAtOnce() throws {
        let answering = try UnansweringListenerPair()
        let refused = try address("127.0.0.1", answering.closedPort)
        let race = ConnectionRace(addresses: [refused, refused, refused, try address("127.0.0.1", answering.port)], server: "test:1")
        let started = ContinuousClock.now
        let (socket, _) = try race.run(until: .now + .seconds(30), timeout: .seconds(30))
        socket.close()
        XCTAssertLessThan(ContinuousClock.now - started, ConnectionRace.attemptDelay * 3, "three refusals did not cost three delays")
    }

    func test_everyAddressRefusing_failsWithTheLastReason() throws {
        let answering = try UnansweringListenerPair()
        let refused = try address("127.0.0.1", answering.closedPort)
        XCTAssertThrowsError(try ConnectionRace(addresses: [refused, refused], server: "test:1").run(until: .now + .seconds(30), timeout: .seconds(30))) { error in
            XCTAssertEqual((error as? URLError)?.code, .cannotConnectToHost)
            XCTAssertTrue("\(error)".contains("connection refused") || "\(error)".contains("Connection refused"), "\(error)")
        }
    }

    /// One deadline for the whole race: two silent addresses fail when it passes, not one
    /// timeout each.
    func test_theDeadline_boundsTheWholeRace() throws {
        let first = try UnansweringListener()
        let second = try UnansweringListener()
        let before = openDescriptorCount()
        let race = ConnectionRace(addresses: [try address("127.0.0.1", first.port), try address("127.0.0.1", second.port)], server: "test:1")
        XCTAssertThrowsError(try race.run(until: .now + .milliseconds(400), timeout: .milliseconds(400))) { error in
            XCTAssertEqual((error as? URLError)?.code, .timedOut)
            XCTAssertTrue("\(error)".contains("connecting to test:1 took longer than 0.4 seconds (tried 127.0.0.1:\(first.port), 127.0.0.1:\(second.port))"), "\(error)")
        }
        XCTAssertEqual(openDescriptorCount(), before, "every attempt was closed")
    }
}

/// A listener that accepts (the kernel completes the handshake into its backlog), and a port on
/// which nothing listens.
private final class UnansweringListenerPair {
    let port: UInt16
    let closedPort: UInt16
    private let fd: Int32

    init() throws {
        (fd, port) = try Self.openListener()
        let (other, otherPort) = try Self.openListener()
        close(other)
        closedPort = otherPort
    }

    deinit { close(fd) }

    private static func openListener() throws -> (Int32, UInt16) {
        #if canImport(Glibc)
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
