import Baton
import TestSupport
import XCTest

/// The chaining forms the README and the articles show, compiled as written: a step that returns
/// `Promise.all`, `sendEach`, `sendAll` or another call, in one-line and multi-statement closures.
/// If a change to the overloads breaks inference, this file stops compiling; each form also runs,
/// so a form that compiles into the wrong overload (a promise of a promise) fails its assertion.
final class ChainingFormsTests: XCTestCase {
    private struct Review: Decodable, Sendable { var id: Int }
    private struct Photo: Decodable, Sendable { var id: Int }

    private let files = ["a.jpg", "b.jpg", "c.jpg"]

    /// A review is 7; each photo's id is its position in the upload path's name, plus 100.
    private func client() throws -> Client {
        try makeClient(transport: StubTransport { request, _ in
            let path = request.url?.path ?? ""
            if path.hasSuffix("reviews") { return .json(#"{"id":7}"#) }
            let name = path.split(separator: "/").last.map(String.init) ?? ""
            let index = ["a.jpg", "b.jpg", "c.jpg"].firstIndex(of: name) ?? 9
            return .json(#"{"id":\#(100 + index)}"#)
        })
    }

    private static func upload(_ file: String, to review: Int) -> Request<Photo> {
        Request(.post, "reviews/\(review)/photos/\(file)", body: .data(Data(repeating: 1, count: 10), contentType: "image/jpeg"))
    }

    private static let post = Request<Review>(.post, "reviews", body: .data(Data("{}".utf8), contentType: "application/json"))

    func test_oneLineSteps_returningAllSendEachSendAllOrACall_infer() async throws {
        let client = try client()
        let files = self.files
        let all = try await client.send(Self.post)
            .success { review in Promise.all(files.map { client.send(Self.upload($0, to: review.id)) }) }
            .success { photos in photos.map(\.id) }
            .value
        XCTAssertEqual(all, [100, 101, 102])
        let each = try await client.send(Self.post)
            .success { review in client.sendEach(files.map { Self.upload($0, to: review.id) }) }
            .success { outcomes in outcomes.compactMap(\.value?.id) }
            .value
        XCTAssertEqual(each, [100, 101, 102])
        let batch = try await client.send(Self.post)
            .success { review in client.sendAll(files.map { Self.upload($0, to: review.id) }) }
            .success { photos in photos.map(\.id) }
            .value
        XCTAssertEqual(batch, [100, 101, 102])
        let one = try await client.send(Self.post)
            .success { review in client.send(Self.upload("b.jpg", to: review.id)) }
            .success { photo in photo.id }
            .value
        XCTAssertEqual(one, 101)
    }

    /// A multi-statement step infers when what follows is a handler (`failure`, `progress`,
    /// `always`), a multi-statement step, or `.value`.
    func test_multiStatementSteps_inferBeforeHandlersAndValue() async throws {
        let client = try client()
        let files = self.files
        let seen = Recorder<String>()
        let photos = try await client.send(Self.post)
            .success { review in
                seen.append("review \(review.id)")
                return client.sendAll(files.map { Self.upload($0, to: review.id) })
            }
            .progress(everyFraction: 0.5) { _ in }
            .failure { error, _ in seen.append("\(error)") }
            .value
        XCTAssertEqual(photos.map(\.id), [100, 101, 102])
        let counted = try await client.send(Self.post)
            .success { review in
                seen.append("review \(review.id)")
                return Promise.all(files.map { client.send(Self.upload($0, to: review.id)) })
            }
            .success { photos in
                seen.append("\(photos.count) photos")
                return photos.count
            }
            .value
        XCTAssertEqual(counted, 3)
        XCTAssertEqual(seen.events, ["review 7", "review 7", "3 photos"])
    }

    /// Before a one-line step that uses the value, Swift 6 infers a multi-statement step's result
    /// only when it is written: the docs show this form next to the example.
    func test_multiStatementStep_beforeAOneLineStep_inferWithItsTypeWritten() async throws {
        let client = try client()
        let files = self.files
        let ids = try await client.send(Self.post)
            .success { review -> Promise<[Photo]> in
                print("review \(review.id)")
                return Promise.all(files.map { client.send(Self.upload($0, to: review.id)) })
            }
            .success { photos in photos.map(\.id) }
            .value
        XCTAssertEqual(ids, [100, 101, 102])
    }
}
