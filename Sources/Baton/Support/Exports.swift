// `import Baton` is all a file using Baton needs: Foundation's types appear in Baton's API
// (`URL`, `Data`, `URLRequest`), and on Linux `URLRequest`, `URLSession` and `URLResponse` live
// in FoundationNetworking, which a user writing an adapter or a transport would otherwise have to
// discover.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
