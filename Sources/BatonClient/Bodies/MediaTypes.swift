/// Media types guessed from file name extensions, for file parts whose type the caller left out.
enum MediaTypes {
    private static let byExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "heic": "image/heic", "heif": "image/heif", "webp": "image/webp", "avif": "image/avif",
        "mp4": "video/mp4", "mov": "video/quicktime", "pdf": "application/pdf", "json": "application/json",
        "txt": "text/plain", "csv": "text/csv", "zip": "application/zip",
    ]

    /// The type for a file name extension (any case), `application/octet-stream` when unknown.
    static func guess(forExtension pathExtension: String) -> String {
        byExtension[pathExtension.lowercased()] ?? "application/octet-stream"
    }
}
