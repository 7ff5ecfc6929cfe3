import BatonOpenSSL
/// Collects the parts of a photo upload from `MultipartParser` events: exactly one `photo` file part
/// (JPEG or PNG, with a filename), hashed as it streams by, and an optional `caption` text part.
/// Other parts are read past and ignored.
struct PhotoUpload {
    typealias Failure = MultipartParser.Failure

    static let photoTypes: Set<String> = ["image/jpeg", "image/png"]
    static let maxCaptionBytes = 64 * 1024

    private enum Current {
        case none, photo, caption, ignored
    }

    private(set) var photoBytes: [UInt8] = []
    private(set) var photoType: String?
    private(set) var photoFilename: String?
    private(set) var caption: [UInt8] = []
    private var hasher = SHA256()
    private var current = Current.none
    private var digest: [UInt8]?

    /// The finished photo: type, file name, bytes and SHA-256; nil when no photo part came.
    mutating func finishedPhoto() -> (type: String, filename: String, bytes: [UInt8], digest: [UInt8])? {
        guard let photoType, let photoFilename, let digest else { return nil }
        return (photoType, photoFilename, photoBytes, digest)
    }

    /// A quoted file name with the escapes browsers and RFC 7578 §2 clients use for the three
    /// characters a quoted string cannot carry raw: `%22` for `"`, `%0D` for CR, `%0A` for LF.
    /// Nothing else is decoded, so `100%.jpg` stays as sent.
    static func unescapedFilename(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "%", index + 2 < scalars.count {
                let code = String(String.UnicodeScalarView(scalars[index + 1...index + 2])).uppercased()
                if let escaped: Unicode.Scalar = ["22": "\"", "0D": "\r", "0A": "\n"][code] {
                    result.append(escaped)
                    index += 3
                    continue
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }

    mutating func consume(_ event: MultipartParser.Event) throws(Failure) {
        switch event {
        case .partStart(let headers):
            guard let disposition = headers["Content-Disposition"].flatMap(HeaderParameters.parse),
                  disposition.value == "form-data", let name = disposition["name"]
            else { throw Failure(message: "part without Content-Disposition: form-data; name=...") }
            switch name {
            case "photo":
                guard photoType == nil else { throw Failure(message: "a second photo part") }
                guard let filename = disposition["filename"], !filename.isEmpty else {
                    throw Failure(message: "photo part has no filename")
                }
                let type = headers["Content-Type"].flatMap(HeaderParameters.parse)?.value ?? "text/plain"
                guard Self.photoTypes.contains(type) else {
                    throw Failure(message: "photo must be image/jpeg or image/png, not \(type)")
                }
                photoType = type
                photoFilename = Self.unescapedFilename(filename)
                current = .photo
            case "caption":
                current = .caption
            default:
                current = .ignored
            }
        case .partData(let bytes):
            switch current {
            case .photo:
                hasher.update(bytes)
                photoBytes.append(contentsOf: bytes)
            case .caption:
                guard caption.count + bytes.count <= Self.maxCaptionBytes else {
                    throw Failure(message: "caption longer than 64 KiB")
                }
                caption.append(contentsOf: bytes)
            case .none, .ignored:
                break
            }
        case .partEnd:
            if current == .photo { digest = hasher.finalize() }
            current = .none
        }
    }
}
