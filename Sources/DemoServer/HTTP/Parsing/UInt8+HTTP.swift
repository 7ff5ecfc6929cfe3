/// The byte classes of HTTP syntax, shared by the request, multipart, form and JSON parsers.
extension UInt8 {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    var decimalDigitValue: Int? {
        (0x30...0x39).contains(self) ? Int(self - 0x30) : nil
    }

    var hexDigitValue: Int? {
        switch self {
        case 0x30...0x39: Int(self - 0x30)
        case 0x41...0x46: Int(self - 0x41 + 10)
        case 0x61...0x66: Int(self - 0x61 + 10)
        default: nil
        }
    }

    /// RFC 9110 `tchar`: the characters of a method or header field name.
    var isTokenCharacter: Bool {
        switch self {
        case 0x30...0x39, 0x41...0x5a, 0x61...0x7a: true
        default: "!#$%&'*+-.^_`|~".utf8.contains(self)
        }
    }
}
