import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields and files, in order, sent with
/// ``RequestBody/multipart(_:)``.
///
/// ```swift
/// var form = MultipartForm()
/// form.append("A fine day", name: "caption")
/// form.append(fileAt: photoURL, name: "photo", contentType: "image/jpeg")
/// client.send(Request<Photo>(.post, "reviews/\(id)/photos", body: .multipart(form)))
/// ```
///
/// - Names and file names are quoted, with `"`, CR and LF escaped as `%22`, `%0D` and `%0A` (as
///   browsers do, following the WHATWG form encoding), so no name can break out of its header or
///   forge another part. Other characters, Japanese file names included, are sent as UTF-8.
///   A `%` is sent as it is, so a name that itself holds `%22` reads as a quote to a server that
///   undoes these escapes, as a browser's would.
/// - The boundary is random (128 bits), and checked not to occur in any part held in memory;
///   parts read from files are far too unlikely to contain it by chance.
/// - A file part is read when the request is sent, not when it is appended. A file that is
///   missing or unreadable then fails the call with an ``APIError`` of kind
///   ``APIError/Kind/invalidRequest`` before any byte is sent.
/// - A body larger than ``Client/Configuration/multipartMemoryThreshold`` is written to a
///   temporary file, off the caller's thread, and uploaded from it, never held whole in memory;
///   the file is removed once the call ends, however it ends.
public struct MultipartForm: Sendable {
    /// One part of the form.
    package struct Part: Sendable {
        package enum Content: Sendable {
            case data(Data)
            case file(URL)
        }

        package var name: String
        package var filename: String?
        package var contentType: String?
        package var content: Content

        package init(name: String, filename: String?, contentType: String?, content: Content) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.content = content
        }
    }

    /// The parts, in the order they were appended.
    package private(set) var parts: [Part] = []
    /// The file names of the parts that have one, in order.
    package var fileNames: [String] { parts.compactMap(\.filename) }
    /// The boundary between parts, without the leading `--`.
    package private(set) var boundary: String

    /// An empty form with a random boundary.
    public init() {
        boundary = Self.randomBoundary()
    }

    /// An empty form with `boundary`: a form rebuilt from a record keeps the one it was checked against.
    package init(boundary: String) {
        self.boundary = boundary
    }

    /// Appends a text field.
    public mutating func append(_ value: String, name: String) {
        add(Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8))))
    }

    /// Appends a file part from bytes in memory, named `filename` (if any) with `contentType`.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, contentType: String = "application/octet-stream") {
        add(Part(name: name, filename: filename, contentType: contentType, content: .data(data)))
    }

    /// Appends the file at `url`, read when the request is sent. `filename` defaults to the file's
    /// name, `contentType` to one guessed from its extension (`image/jpeg` for `.jpg`, and so on;
    /// `application/octet-stream` when unknown).
    public mutating func append(fileAt url: URL, name: String, filename: String? = nil, contentType: String? = nil) {
        let type = contentType ?? MediaTypes.guess(forExtension: url.pathExtension)
        add(Part(name: name, filename: filename ?? url.lastPathComponent, contentType: type, content: .file(url)))
    }

    /// `multipart/form-data; boundary=...`: the body's `Content-Type`.
    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Appends a part as it is (an `UploadQueue` rebuilding a form it recorded).
    package mutating func add(_ part: Part) {
        parts.append(part)
        // A part in memory that happens to contain the boundary would end the body early: pick
        // another boundary, checked against every part (with 128 random bits, this never runs
        // in practice, and the earlier parts are not scanned again on each append).
        guard part.contains(boundary: boundary) else { return }
        repeat {
            boundary = Self.randomBoundary()
        } while parts.contains(where: { $0.contains(boundary: boundary) })
    }

    private static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return "Baton-" + String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }
}

extension MultipartForm: CustomStringConvertible {
    /// The parts' names, file names and sizes, never their contents (a form may carry a
    /// password): `MultipartForm(caption: 12 bytes; photo: "a.jpg", image/jpeg, file)`.
    public var description: String {
        let parts = parts.map { part in
            var details = [part.filename.map { "\"\($0)\"" }, part.contentType].compactMap { $0 }
            switch part.content {
            case .data(let data): details.append("\(data.count) bytes")
            case .file: details.append("file")
            }
            return "\(part.name): \(details.joined(separator: ", "))"
        }
        return "MultipartForm(\(parts.joined(separator: "; ")))"
    }
}

extension MultipartForm.Part {
    /// Whether the part's bytes in memory contain `--boundary`.
    package func contains(boundary: String) -> Bool {
        guard case .data(let data) = content else { return false }
        return data.contains(boundary: boundary)
    }

    /// The part's delimiter and header lines, up to and including the blank line before its content.
    package func head(boundary: String) -> Data {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(name))\""
        if let filename { head += "; filename=\"\(Self.escaped(filename))\"" }
        head += "\r\n"
        if let contentType { head += "Content-Type: \(Self.headerSafe(contentType))\r\n" }
        head += "\r\n"
        return Data(head.utf8)
    }

    /// A name or file name as it goes between quotes: `"`, CR and LF percent-escaped.
    package static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A content type with any control character dropped, so that it cannot start a header line.
    package static func headerSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }
}

extension Data {
    /// Whether these bytes contain `--boundary`.
    package func contains(boundary: String) -> Bool {
        range(of: Data("--\(boundary)".utf8)) != nil
    }
}
