import BatonSupport
@testable import DemoServer
import Foundation

/// A listening socket on 127.0.0.1 and the thread that serves it: each connection accepted, in
/// turn, is handed to `serve` with the stop pipe's read end (which every wait polls), then closed.
/// What the test servers (``ScriptedServer``, ``ConversationServer``) share.
final class LoopbackListener: Sendable {
    let port: UInt16
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let thread: ServerThread

    init(serve: @escaping @Sendable (_ connection: Int32, _ wake: Int32) -> Void) throws {
        let (listener, port) = try Posix.listenOnLoopback(port: 0, backlog: 16)
        let wake = try Posix.makePipe()
        self.listener = listener
        self.port = port
        self.wake = wake
        thread = try ServerThread.start {
            while case .ready = Posix.wait(for: listener, wake: wake.read, until: .now + .seconds(300)) {
                while case .accepted(let connection, _) = Posix.accept(on: listener) {
                    serve(connection, wake.read)
                    Posix.closeDescriptor(connection)
                }
            }
        }
    }

    /// Stops the thread, waiting for it, and closes the socket.
    deinit {
        Posix.poke(wake.write)
        thread.join()
        Posix.closeDescriptor(listener)
        Posix.closeDescriptor(wake.read)
        Posix.closeDescriptor(wake.write)
    }
}
