// demo-server: the demo API on 127.0.0.1, for the Playground, curl and manual testing.
//
//     swift run demo-server --port 8080 [--token-lifetime 60] [--seed 0] [--max-body-bytes N]
//                           [--idle-timeout 10] [--tls]
//
// Logs one line per request to standard output and runs until SIGINT or SIGTERM.
import DemoServer
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
    usage: demo-server [--port N] [--token-lifetime SECONDS] [--seed N] [--max-body-bytes N] [--idle-timeout SECONDS] [--tls]
      --port N                   TCP port on 127.0.0.1 (default 8080; 0 picks a free one)
      --token-lifetime SECONDS   access token lifetime (default 60)
      --seed N                   seed of the demo data (default 0)
      --max-body-bytes N         largest request body accepted (default 67108864)
      --idle-timeout SECONDS     close silent or incomplete connections after this (default 10)
      --tls                      serve https with the loopback test certificate; its root is printed

    """

func writeLine(_ text: String, to handle: FileHandle = .standardOutput) {
    handle.write(Data((text + "\n").utf8))
}

func fail(_ message: String) -> Never {
    writeLine("demo-server: \(message)", to: .standardError)
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}

var configuration = DemoServer.Configuration()
configuration.port = 8080
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    if option == "--help" || option == "-h" {
        FileHandle.standardOutput.write(Data(usage.utf8))
        exit(0)
    }
    if option == "--tls" {
        configuration.tls = .loopback
        continue
    }
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    switch option {
    case "--port":
        guard let port = UInt16(value) else { fail("--port must be 0...65535, not \(value)") }
        configuration.port = port
    case "--token-lifetime":
        guard let seconds = Double(value), seconds > 0, seconds.isFinite else { fail("--token-lifetime must be positive seconds") }
        configuration.tokenLifetime = seconds
    case "--seed":
        guard let seed = UInt64(value) else { fail("--seed must be a non-negative integer") }
        configuration.seed = seed
    case "--max-body-bytes":
        guard let bytes = Int(value), bytes >= 0 else { fail("--max-body-bytes must be a non-negative integer") }
        configuration.maxBodyBytes = bytes
    case "--idle-timeout":
        guard let seconds = Double(value), seconds > 0, seconds.isFinite else { fail("--idle-timeout must be positive seconds") }
        configuration.idleTimeout = seconds
    default:
        fail("unknown option \(option)")
    }
}
configuration.log = { line in writeLine(line) }

let server: DemoServer
do {
    server = try DemoServer(configuration: configuration)
} catch {
    writeLine("demo-server: \(error)", to: .standardError)
    exit(1)
}
writeLine("demo-server listening on \(server.baseURL.absoluteString) (token lifetime \(configuration.tokenLifetime)s, "
    + "seed \(configuration.seed)); log in with grant_type=password&username=demo&password=demo; Ctrl-C stops")
if configuration.tls != nil {
    writeLine("its certificate is issued by this test root (Tests/Certificates/root-ca.pem in Baton's repository); "
        + "save the lines below as root.pem to trust it, as in curl --cacert root.pem \(server.baseURL.absoluteString)/health, "
        + "or run swift run playground --tls --base-url \(server.baseURL.absoluteString):\n"
        + DemoServer.TLS.loopbackRootCertificatePEM)
}

// Signals are turned into an orderly stop, so every connection is closed before the process exits.
var signalSources: [DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
    source.setEventHandler {
        writeLine("demo-server stopping")
        server.stop()
        exit(0)
    }
    source.resume()
    signalSources.append(source)
}
dispatchMain()
