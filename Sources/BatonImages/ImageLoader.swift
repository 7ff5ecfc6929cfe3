import BatonSupport
import Dispatch
import Foundation
import BatonPromise
import BatonWire
import BatonClient

/// Loads images by URL string, with the states a view needs for its placeholders, a memory
/// cache, an optional disk cache, and one request however many views ask for the same image.
///
/// ```swift
/// let images = ImageLoader(client: client, diskCache: caches.appending(path: "images"))
/// images.load(review.photos.first ?? "") { state in
///     switch state {
///     case .noImage: show("no image")
///     case .loading: show("a spinner")
///     case .loaded(let image): show(image.data)          // UIImage(data:) on iOS
///     case .failed: show("an error picture")
///     }
/// }
/// ```
///
/// - A URL string may be absolute (`https://cdn.example.com/a.jpg`) or a path on the client's
///   server (`/photos/1`, or `photos/1` relative to its base URL). Images under the client's base
///   URL, or on its origin, go through the client, with its adapters and authentication; images on
///   other origins go through a plain client that sends none of the app's headers or tokens.
/// - An empty string is ``ImageState/noImage`` at once, with no request. An image in memory is
///   ``ImageState/loaded(_:)`` at once. Otherwise the state is ``ImageState/loading`` at once,
///   then ``ImageState/loaded(_:)`` or ``ImageState/failed(_:)``. A cancelled load reports no
///   further state.
/// - Concurrent loads of one URL share one request (a shared promise): cancelling one load
///   leaves the request running for the others, and cancelling all of them cancels it.
/// - The memory cache holds up to `memoryLimit` bytes (least recently used dropped first); the
///   disk cache, if any, up to `diskLimit` bytes (files saved longest ago removed first). Only
///   successful responses are cached.
/// - An image on disk is revalidated before it is used when it came with a validator (`ETag`,
///   `Last-Modified`) and no `Cache-Control: max-age` that still holds: the request carries
///   `If-None-Match` / `If-Modified-Since`, a `304 Not Modified` answers with the file on disk (no
///   image crosses the wire), a `200` replaces it. When the server cannot be reached, the image
///   on disk is used all the same. A response marked `no-store` is never written to disk.
/// - Bytes are not decoded into a platform image: that is the app's part.
public final class ImageLoader: Sendable {
    /// The client that fetches images on its own server.
    package let client: Client
    private let memory: MemoryImageCache
    private let disk: DiskImageCache?
    private let loads = Locked<[String: SharedPromise<LoadedImage>]>([:])
    /// Clients for other origins (or the client's origin outside its base URL), by origin: at
    /// most ``maximumOriginClients``, so that pages naming ever new hosts cannot grow it without end.
    private let originClients = Locked(RecentlyUsed<Client?>(capacity: ImageLoader.maximumOriginClients))
    /// How many origins' clients are kept; one more forgets the one used least recently (its
    /// connections stay with the shared transport, which bounds its own pools).
    static let maximumOriginClients = 32

    /// How many origins' clients are kept now.
    var keptOriginClients: Int { originClients.withLock { $0.values.count } }

    /// A loader fetching through `client`, caching up to `memoryLimit` bytes in memory (default
    /// 32 MiB) and, when `diskCache` names a folder, up to `diskLimit` bytes there (default
    /// 256 MiB).
    public init(client: Client, memoryLimit: Int = 32 << 20, diskCache: URL? = nil, diskLimit: Int = 256 << 20) {
        self.client = client
        memory = MemoryImageCache(limit: memoryLimit)
        disk = diskCache.map { DiskImageCache(folder: $0, limit: diskLimit) }
    }

    /// Loads the image at `urlString`, telling `onChange` each state, and returns a promise of its
    /// bytes. For an empty string the promise rejects with ``ImageLoaderError`` of kind
    /// ``ImageLoaderError/Kind/noImage`` (the state being ``ImageState/noImage``, not a failure).
    /// Cancelling the promise cancels this load alone.
    @discardableResult
    public func load(_ urlString: String, onChange: (@Sendable (ImageState) -> Void)? = nil) -> Promise<LoadedImage> {
        let text = urlString.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            onChange?(.noImage)
            return Promise(error: ImageLoaderError(kind: .noImage, urlString: urlString))
        }
        guard let target = resolve(text) else {
            let error = ImageLoaderError(kind: .invalidURL, urlString: urlString)
            onChange?(.failed(error))
            return Promise(error: error)
        }
        if let image = memory.image(for: target.key) {
            onChange?(.loaded(image))
            return Promise(value: image)
        }
        onChange?(.loading)
        let load = shared(target).share()
        if let onChange {
            load.subscribe { event in
                guard case .settled(let outcome) = event else { return }
                switch Promise<LoadedImage>.result(of: outcome) {
                case .success(let image): onChange(.loaded(image))
                case .failure(let error) where !error.isCancellation: onChange(.failed(error))
                case .failure: break
                }
            }
        }
        return load
    }

    /// The image for `urlString` if it is in memory, without loading anything.
    public func cachedImage(for urlString: String) -> LoadedImage? {
        resolve(urlString.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { memory.image(for: $0.key) }
    }

    /// Empties the memory cache and the disk cache.
    public func removeAll() {
        memory.removeAll()
        disk?.removeAll()
    }

    // MARK: Loading

    /// What to fetch for a URL string: the cache key (the absolute URL), the client, the request.
    private struct Target: Sendable {
        var key: String
        var client: Client
        var request: Request<Data>
    }

    /// The running load of `target`, or a new one, forgotten once it settles.
    private func shared(_ target: Target) -> SharedPromise<LoadedImage> {
        let (shared, started): (SharedPromise<LoadedImage>, Promise<LoadedImage>?) = loads.withLock { loads in
            if let running = loads[target.key], !running.isCancelled { return (running, nil) }
            let work = fetch(target)
            let shared = SharedPromise(work)
            loads[target.key] = shared
            return (shared, work)
        }
        // Outside the lock: a load that already settled runs this handler at once.
        started?.subscribe { [weak self] event in
            guard case .settled = event else { return }
            self?.loads.withLock { loads in
                if loads[target.key] === shared { loads[target.key] = nil }
            }
        }
        return shared
    }

    /// The image from the disk cache, or else from the network; in both caches by the time it
    /// fulfils. An image on disk with a validator and no `max-age` that holds is revalidated
    /// first (see ``ImageLoader``). Cancelling it before the disk has answered means no request is
    /// ever started.
    private func fetch(_ target: Target) -> Promise<LoadedImage> {
        let disk = self.disk
        let memory = self.memory
        return Promise { _, fulfill, reject, configure in
            // The request, once made; `cancelled` once the load was cancelled before it was.
            let request = Locked<(call: Promise<Fetched<Data>>?, cancelled: Bool)>((nil, false))
            configure.cancel = {
                request.withLock { $0.cancelled = true; return $0.call }?.cancel()
            }
            DispatchQueue.global().async {
                let cached = disk?.entry(for: target.key)
                if let cached, !cached.needsRevalidation {
                    memory.insert(cached.image, for: target.key)
                    return fulfill(cached.image)
                }
                let call: Promise<Fetched<Data>>? = request.withLock { request in
                    guard !request.cancelled else { return nil }
                    request.call = target.client.fetch(cached.map { Self.conditional(target.request, for: $0) } ?? target.request)
                    return request.call
                }
                guard let call else { return reject(CancellationError()) }
                call.then { result in
                    switch result {
                    case .success(let answer):
                        // A redirect left unfollowed (the client's policy) is not an image.
                        if let response = answer.response, (300..<400).contains(response.statusCode), response.statusCode != 304 {
                            let summary = RequestSummary(method: .get, url: response.url, path: target.request.path.encoded, redaction: target.client.context.redaction)
                            return reject(APIError.unacceptableStatus(summary, response, message: nil))
                        }
                        // Not modified: the image on disk is current.
                        let fresh = answer.response?.statusCode == 304 ? cached?.image : nil
                        let image = fresh ?? LoadedImage(data: answer.value, contentType: answer.response?.value(forHeader: "Content-Type"))
                        // Saved before the load fulfils, off the thread that delivered the response.
                        DispatchQueue.global().async {
                            if fresh == nil { disk?.insert(image, for: target.key, from: answer.response) }
                            memory.insert(image, for: target.key)
                            fulfill(image)
                        }
                    case .failure(let error):
                        // Offline: the image on disk, though it could not be revalidated.
                        if let cached, let failure = error as? APIError, failure.kind == .transport {
                            memory.insert(cached.image, for: target.key)
                            return fulfill(cached.image)
                        }
                        reject(error)
                    }
                }
            }
        }
    }

    /// `request` asking whether `cached` changed: with its validators, taking a `304` for a response.
    private static func conditional(_ request: Request<Data>, for cached: DiskImageCache.Entry) -> Request<Data> {
        var conditional = request
        for field in ConditionalRequest.fields(etag: cached.etag, lastModified: cached.lastModified) {
            conditional.headers[field.name] = field.value
        }
        conditional.acceptableStatusCodes = 200..<305
        return conditional
    }

    /// Where `text` points: under the client's base URL, elsewhere on its origin, or on another
    /// origin; `nil` when it is not an http or https URL or path.
    private func resolve(_ text: String) -> Target? {
        let base = client.configuration.baseURL
        guard let url = URL(string: text, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty,
              let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        let key = url.absoluteString
        let baseText = base.absoluteString.hasSuffix("/") ? base.absoluteString : base.absoluteString + "/"
        let query = components.queryItems ?? []
        if key.hasPrefix(baseText) {
            let relative = String(key.dropFirst(baseText.count)).split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
            return Target(key: key, client: client, request: Request(.get, EndpointPath(stringLiteral: relative), query: query))
        }
        guard let origin = Origin(url), let client = originClient(origin, sameOrigin: origin == Origin(base)) else { return nil }
        return Target(key: key, client: client, request: Request(.get, EndpointPath(stringLiteral: components.percentEncodedPath), query: query))
    }

    /// A client rooted at `origin`: the app's client's settings on its own origin; a plain client,
    /// sending none of the app's headers or credentials, on any other.
    private func originClient(_ origin: Origin, sameOrigin: Bool) -> Client? {
        guard let root = origin.root else { return nil }
        // What is forgotten is released after the lock, where its deinit runs no code under it.
        let (made, forgotten) = originClients.withLock { clients in
            clients.use(origin.description, orMake: {
                if sameOrigin {
                    var configuration = client.configuration
                    configuration.baseURL = root
                    return try? Client(configuration: configuration, transport: client.transport)
                }
                return try? Client(baseURL: root, transport: client.transport) { $0.maximumResponseSize = self.client.configuration.maximumResponseSize }
            })
        }
        withExtendedLifetime(forgotten) {}
        return made
    }
}
