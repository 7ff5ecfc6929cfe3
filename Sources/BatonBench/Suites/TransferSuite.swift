import Baton
import BatonSupport
import DemoServer
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `baton-bench upload`: a large photo uploaded as one multipart part streamed from its file, and
/// downloaded back to a file, through Baton and through URLSession by hand, against one
/// DemoServer over loopback, in a child process so that its memory and CPU are not the client's.
/// Every side runs in interleaved rounds (see ``TransferRounds``); for each: the throughput ratio
/// (Baton / URLSession, so above 1 is faster), the client's CPU time per MiB beside it, and how
/// far the process's peak resident memory rose above where it stood before (Linux's `VmHWM`,
/// reset before each transfer through `/proc/self/clear_refs`), the highest of the rounds.
///
/// Baton's rows run over `URLSessionTransport` (its own cost over the same stack) and, in the
/// `.http1` rows, over `HTTP1Transport`. With `https`, the `upload.tls` rows upload the same
/// photo to a second child serving TLS, Baton over `HTTP1Transport` against URLSession, both
/// verifying the certificate (see ``TestRootTrust``).
///
/// The `download.resumed` rows download the same photo cut at half and resumed, against the same
/// download uninterrupted (see `resumedDownload`).
///
/// The raw upload sends a body file of the same multipart layout, built beforehand, with
/// `uploadTask(with:fromFile:)`; Baton builds its body file as part of the call, as a user's call
/// would. The raw download is a `downloadTask`, which writes to a file too.
enum TransferSuite {
    struct Photo: Decodable, Sendable { var id: Int; var bytes: Int }

    static func run(quick: Bool, https: Bool) throws -> [BenchResult] {
        let size = quick ? 32 << 20 : 256 << 20
        let server = try ChildServer(maxBodyBytes: size + (1 << 20))
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appending(path: "baton-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appending(path: "photo.jpg")
        try writePattern(size: size, to: photo)

        let token = try value(of: try Client(baseURL: server.baseURL).send(
            Request<Token>(.post, "tokens", body: .form([("grant_type", "password"), ("username", "demo"), ("password", "demo")]))
        )).token
        let client = try Client(baseURL: server.baseURL, transport: URLSessionTransport()) { $0.headers["Authorization"] = "Bearer \(token)" }
        let overHTTP1 = try Client(baseURL: server.baseURL, transport: HTTP1Transport()) { $0.headers["Authorization"] = "Bearer \(token)" }
        _ = try value(of: client.send(Request<Review>(.post, "facilities/1/reviews", body: .json(NewReview(content: "bench", rating: 5)))))

        // Upload: the raw side's body file is built first, outside the timing.
        var form = MultipartForm()
        form.append(fileAt: photo, name: "photo", contentType: "image/jpeg")
        let rawBody = folder.appending(path: "body.multipart")
        try buildBody(of: photo, boundary: "BenchBoundary7MA4YWxkTrZu0gW", to: rawBody)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let photosURL = server.baseURL.appending(path: "reviews/1/photos")

        func rawUpload() throws {
            var request = URLRequest(url: photosURL)
            request.httpMethod = "POST"
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.setValue("multipart/form-data; boundary=BenchBoundary7MA4YWxkTrZu0gW", forHTTPHeaderField: "Content-Type")
            try waitForTask { done in session.uploadTask(with: request, fromFile: rawBody) { _, response, error in done(response, error) } }
        }
        func store(through client: Client) throws {
            let stored = try value(of: client.send(Request<Photo>(.post, "reviews/1/photos", body: .multipart(form))))
            guard stored.bytes == size else { throw BenchFailure("the server stored \(stored.bytes) bytes of \(size)") }
        }
        // Download: the photo stored by the uploads, to a file.
        let photoURL = server.baseURL.appending(path: "photos/1")
        func rawDownload() throws {
            var request = URLRequest(url: photoURL)
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            try waitForTask { done in session.downloadTask(with: request) { _, response, error in done(response, error) } }
        }
        // URLSession checks no digest: Baton's side does not ask for one either, the same work.
        var sameWork = DownloadOptions()
        sameWork.asksForDigest = false
        func fetch(through client: Client, to name: String) throws {
            _ = try value(of: client.download(Request<Data>(.get, "photos/1"), to: folder.appending(path: name), options: sameWork))
        }
        let rounds = quick ? 2 : 5
        // Uploads first: the downloads fetch what they stored.
        let uploads = try TransferRounds.run([
            ("raw", rawUpload), ("baton", { try store(through: client) }), ("http1", { try store(through: overHTTP1) }),
        ], rounds: rounds)
        let downloads = try TransferRounds.run([
            ("raw", rawDownload), ("baton", { try fetch(through: client, to: "downloaded.jpg") }),
            ("http1", { try fetch(through: overHTTP1, to: "downloaded-http1.jpg") }),
        ], rounds: rounds)
        let resumed = try resumedDownload(from: server, token: token, size: size, rounds: 5, folder: folder)
        let kept = try memoryKept(afterDownloadingFrom: server.baseURL, size: size, token: token, session: session)

        let mib = Double(size) / Double(1 << 20)
        var secure: [BenchResult] = []
        if https {
            let measured = try secureUpload(of: photo, size: size, form: form, rawBody: rawBody, session: session, rounds: rounds)
            secure = measured.rows("upload.tls", mib: mib, "uploaded over https, HTTP1Transport", side: "http1", target: 1)
        }
        return uploads.rows("upload.multipart", mib: mib, "uploaded, multipart", side: "baton", target: 0.9, memoryName: "upload.rss_growth_mib")
            + downloads.rows("download.file", mib: mib, "downloaded to a file", side: "baton", target: 0.9, memoryName: "download.rss_growth_mib")
            + uploads.rows("upload.http1", mib: mib, "uploaded over HTTP1Transport", side: "http1", target: 1)
            + downloads.rows("download.http1", mib: mib, "downloaded to a file over HTTP1Transport", side: "http1", target: 1)
            + resumed + secure
            + [BenchResult(name: "download.memory.http1.kept_mib", label: "\(Int(mib)) MiB photo downloaded into memory: memory kept once let go",
                           value: kept.baton, unit: "MiB", baseline: kept.raw, baselineLabel: "URLSession", target: .valueAtMost(8, unit: "MiB"))]
    }

    /// How many MiB of resident memory a download of photo 1 from `server` into memory leaves in
    /// use once its caller has let the body go: through Baton over `HTTP1Transport` (its
    /// connection idling in the pool meanwhile), and through URLSession's `dataTask`. Each side
    /// sends a small request first, so that what a first use sets up for good is not counted.
    private static func memoryKept(afterDownloadingFrom server: URL, size: Int, token: String, session: URLSession) throws -> (baton: Double, raw: Double) {
        let url = server.appending(path: "photos/1")
        let client = try Client(baseURL: server, transport: HTTP1Transport()) {
            $0.headers["Authorization"] = "Bearer \(token)"
            $0.maximumResponseSize = size + (1 << 20)
        }
        func viaBaton() throws {
            let body = try value(of: client.send(Request<Data>(.get, "photos/1")))
            guard body.count == size else { throw BenchFailure("Baton downloaded \(body.count) bytes of \(size)") }
        }
        func viaURLSession() throws {
            var request = URLRequest(url: url)
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let received = Locked(0)
            try waitForTask { done in
                session.dataTask(with: request) { data, response, error in
                    received.withLock { $0 = data?.count ?? 0 }
                    done(response, error)
                }
            }
            guard received.value == size else { throw BenchFailure("URLSession downloaded \(received.value) bytes of \(size)") }
        }
        func kept(by download: () throws -> Void) throws -> Double {
            let before = Measure.residentBytesInUse() ?? 0
            try download()
            // The caller hears of the body on the thread that delivers it, which lets go of its
            // own reference a moment later: the lowest level within a second is what stays.
            var after = Int.max
            let deadline = ContinuousClock.now + .seconds(1)
            while ContinuousClock.now < deadline, after - before > 1 << 20 {
                after = min(after, Measure.residentBytesInUse() ?? 0)
                Thread.sleep(forTimeInterval: 0.01)
            }
            return Double(max(0, after - before)) / Double(1 << 20)
        }
        _ = try value(of: client.send(Request<Data>(.get, "health")))
        try waitForTask { done in session.dataTask(with: server.appending(path: "health")) { _, response, error in done(response, error) } }
        return (try kept(by: viaBaton), try kept(by: viaURLSession))
    }

    /// The photo uploaded to a child DemoServer serving `https`, in `rounds` rounds: through
    /// Baton over `HTTP1Transport` (`http1`), and through URLSession's `uploadTask` from the
    /// prebuilt body file (`raw`).
    private static func secureUpload(
        of photo: URL, size: Int, form: MultipartForm, rawBody: URL, session: URLSession, rounds: Int
    ) throws -> TransferRounds {
        let server = try ChildServer(maxBodyBytes: size + (1 << 20), tls: true)
        defer { server.stop() }
        let token = try value(of: try Client(baseURL: server.baseURL).send(
            Request<Token>(.post, "tokens", body: .form([("grant_type", "password"), ("username", "demo"), ("password", "demo")]))
        )).token
        let client = try Client(baseURL: server.baseURL, transport: HTTP1Transport()) { $0.headers["Authorization"] = "Bearer \(token)" }
        _ = try value(of: client.send(Request<Review>(.post, "facilities/1/reviews", body: .json(NewReview(content: "bench", rating: 5)))))
        func raw() throws {
            var request = URLRequest(url: server.baseURL.appending(path: "reviews/1/photos"))
            request.httpMethod = "POST"
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.setValue("multipart/form-data; boundary=BenchBoundary7MA4YWxkTrZu0gW", forHTTPHeaderField: "Content-Type")
            try waitForTask { done in session.uploadTask(with: request, fromFile: rawBody) { _, response, error in done(response, error) } }
        }
        func baton() throws {
            let stored = try value(of: client.send(Request<Photo>(.post, "reviews/1/photos", body: .multipart(form))))
            guard stored.bytes == size else { throw BenchFailure("the server stored \(stored.bytes) bytes of \(size)") }
        }
        return try TransferRounds.run([("raw", raw), ("http1", baton)], rounds: rounds)
    }

    private struct Token: Decodable, Sendable { var token: String }
    private struct Review: Decodable, Sendable { var id: Int }
    private struct NewReview: Encodable, Sendable { var content: String; var rating: Int }
    struct BenchFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A file of `size` bytes of a fixed pattern, written a MiB at a time.
    private static func writePattern(size: Int, to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
        for _ in 0..<(size >> 20) { try handle.write(contentsOf: chunk) }
    }

    /// The multipart body of one `photo` part holding `file`, written to `destination`.
    private static func buildBody(of file: URL, boundary: String, to destination: URL) throws {
        _ = FileManager.default.createFile(atPath: destination.path, contents: nil)
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        try output.write(contentsOf: Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8))
        let input = try FileHandle(forReadingFrom: file)
        defer { try? input.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try output.write(contentsOf: chunk) }
        try output.write(contentsOf: Data("\r\n--\(boundary)--\r\n".utf8))
    }

    /// Starts the task `make` returns and waits for its completion handler; fails unless it answered 2xx.
    private static func waitForTask(_ make: (@escaping @Sendable (URLResponse?, (any Error)?) -> Void) -> URLSessionTask) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<String?>(nil)
        make { response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if let error { outcome.withLock { $0 = "\(error)" } } else if !(200..<300).contains(status) { outcome.withLock { $0 = "status \(status)" } }
            done.signal()
        }.resume()
        done.wait()
        if let failure = outcome.value { throw BenchFailure("URLSession: \(failure)") }
    }
}
