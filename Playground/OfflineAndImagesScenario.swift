import Baton
import DemoServer
import Foundation

/// 6. Entities saved as they arrive, answered from the store once the server is gone; and an
/// image loaded through its placeholder states.
let offlineAndImagesScenario = Scenario(
    name: "offline",
    title: "Stored entities with the server stopped, and an image with its placeholders",
    explanation: "Books are saved to a file store as they decode; with their server stopped, the same call answers from the store. An image goes no image → loading → loaded."
) { session in
    // A server of its own, to stop.
    let server = try session.startServer()
    let store = FileEntityStore(folder: session.folder.appending(path: "entities"))
    let token = try await Client(baseURL: server.baseURL, transport: session.transport).send(
        Request<Token>(.post, "tokens", body: .form([("grant_type", "password"), ("username", "demo"), ("password", "demo")]))
    ).value.token
    let client = try Client(baseURL: server.baseURL, transport: session.transport) { configuration in
        configuration.headers["Authorization"] = "Bearer \(token)"
        configuration.store = store
        configuration.retryPolicy = RetryPolicy(retryLimit: 1, baseDelay: .milliseconds(50))
    }
    let fresh = try await client.fetch(Books.get(1), offline: .stored(id: 1)).value
    session.say("fetched \"\(fresh.value.title)\" (status \(fresh.response?.statusCode ?? 0)); in the store: \(try store.readAll(Book.self).map(\.title))")
    server.stop()
    let stored = try await client.fetch(Books.get(1), offline: .stored(id: 1)).value
    session.say("server stopped: \"\(stored.value.title)\" answered from the store: \(stored.isFromStore)")
    try session.expect(stored.isFromStore && stored.value.title == fresh.value.title, "the stored book when the server is gone")

    // Images, through the API's client (and its authenticator).
    let images = ImageLoader(client: session.client)
    let photoURL: String
    if let known = session.photoURL {
        photoURL = known
    } else {
        let review = try await session.review()
        photoURL = try await session.client.send(Photos.upload(session.photoFile("shown.jpg", size: 50_000), to: review.id)).value.url
    }
    let states = Tally()
    for url in ["", photoURL] {
        _ = try? await images.load(url) { state in
            states.add(1)
            switch state {
            case .noImage: session.say("\"\(url)\": no image")
            case .loading: session.say("\(url): loading")
            case .loaded(let image): session.say("\(url): loaded, \(Console.size(Int64(image.data.count))) of \(image.contentType ?? "?")")
            case .failed(let error): session.say("\(url): failed: \(error)")
            }
        }.value
    }
    try session.expect(images.cachedImage(for: photoURL) != nil, "the image to be loaded and cached")
    try session.expect(states.value == 3, "no image, then loading and loaded")
}

private struct Token: Decodable, Sendable { var token: String }
