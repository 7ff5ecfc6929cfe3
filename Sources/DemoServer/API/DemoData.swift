import BatonOpenSSL
import Foundation

/// The fixed resources the server starts with (and returns to on `/_demo/reset`), and the
/// resources clients create.
///
/// Ids and names never change, so tests can name them ("order 1 is 山田太郎"); the amounts and notes
/// of orders come from the seed, identical for the same seed on every run and platform.
struct DemoData: Sendable {
    struct Order: Sendable, Equatable {
        var id: Int
        var name: String
        var ordersum: Int
        var subtotal: Int
        var bikou: String

        var json: JSONValue {
            .object([("id", .integer(id)), ("name", .string(name)), ("ordersum", .integer(ordersum)),
                     ("subtotal", .integer(subtotal)), ("bikou", .string(bikou))])
        }
    }

    struct Review: Sendable {
        var id: Int
        var facilityID: Int
        var content: String
        var rating: Int
        var photoURLs: [String] = []

        var json: JSONValue {
            .object([("id", .integer(id)), ("facility_id", .integer(facilityID)), ("content", .string(content)),
                     ("rating", .integer(rating)), ("photos", .array(photoURLs.map(JSONValue.string)))])
        }
    }

    struct Photo: Sendable {
        var id: Int
        var reviewID: Int
        var contentType: String
        /// The file name the client gave the part, as sent back in `filename`.
        var filename: String
        var bytes: [UInt8]
        /// The SHA-256 of `bytes`.
        var digest: [UInt8]
        /// When the photo was stored or its bytes last replaced, in whole seconds since 1970: its
        /// `Last-Modified`.
        var lastModified: Int64

        var url: String { "/photos/\(id)" }

        /// The SHA-256 of the bytes in hex, as the API reports it.
        var sha256: String { SHA256.hex(digest) }

        /// The strong entity tag of the bytes: the first 32 hex digits of their SHA-256, as
        /// unique as a tag needs to be and short enough to read in a log.
        var etag: EntityTag { EntityTag(opaque: String(sha256.prefix(32))) }

        /// `Repr-Digest` (RFC 9530), sent when asked: the SHA-256 of the whole photo, which a
        /// client that fetched it in ranges checks once it has put them together.
        var reprDigest: String { "sha-256=:\(Data(digest).base64EncodedString()):" }

        /// New bytes for the photo. `Last-Modified` becomes `now`, and always moves forward by at
        /// least a second, so that a date names one version of the bytes: a client resuming with
        /// `If-Range: <date>` after a replacement in the same second gets the new photo whole,
        /// never a splice of two.
        mutating func replace(bytes: [UInt8], digest: [UInt8], contentType: String, now: Int64) {
            self.bytes = bytes
            self.digest = digest
            self.contentType = contentType
            lastModified = max(now, lastModified + 1)
        }

        /// The fields of a photo's response that describe its bytes.
        var representationHeaders: [(name: String, value: String)] {
            [("Content-Type", contentType), ("ETag", etag.description), ("Last-Modified", HTTPDate.format(lastModified))]
        }

        var json: JSONValue {
            .object([("id", .integer(id)), ("review_id", .integer(reviewID)), ("url", .string(url)),
                     ("filename", .string(filename)), ("bytes", .integer(bytes.count)), ("sha256", .string(sha256))])
        }
    }

    static let orderNames = ["山田太郎", "John Smith", "佐藤花子", "María García", "鈴木一郎", "Emily Johnson",
                             "山田花子", "François Dupont"]
    static let notes = ["", "置き配希望", "Gift wrap, please", "午前中配達", "Leave at the front desk", "領収書希望"]
    static let facilities = [1: "東京タワー", 2: "Central Library", 3: "京都水族館", 4: "Riverside Pool"]
    static let books = [1: (title: "吾輩は猫である", author: "夏目漱石"), 2: (title: "Pride and Prejudice", author: "Jane Austen"),
                        3: (title: "ノルウェイの森", author: "村上春樹")]
    static let users = [1: "demo", 2: "山田太郎", 3: "Jane Smith"]

    var orders: [Order]
    var reviews: [Int: Review] = [:]
    var photos: [Int: Photo] = [:]
    var nextReviewID = 1
    var nextPhotoID = 1

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        orders = Self.orderNames.enumerated().map { index, name in
            let subtotal = Int(random.next() % 50 + 1) * 100
            let note = Self.notes[Int(random.next() % UInt64(Self.notes.count))]
            // `ordersum` is the subtotal with 10% consumption tax, as on a Japanese receipt.
            return Order(id: index + 1, name: name, ordersum: subtotal + subtotal / 10, subtotal: subtotal, bikou: note)
        }
    }

    static func facilityJSON(_ id: Int) -> JSONValue? {
        facilities[id].map { .object([("id", .integer(id)), ("name", .string($0))]) }
    }

    static func bookJSON(_ id: Int) -> JSONValue? {
        books[id].map { .object([("id", .integer(id)), ("title", .string($0.title)), ("author", .string($0.author))]) }
    }

    static func userJSON(_ id: Int) -> JSONValue? {
        users[id].map { .object([("id", .integer(id)), ("name", .string($0))]) }
    }
}
