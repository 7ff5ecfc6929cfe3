// `import Baton` is all a file using Baton needs: the client and its features, the promise, and
// the Foundation types that appear in Baton's API (`URL`, `Data`, `URLRequest`; on Linux
// `URLRequest`, `URLSession` and `URLResponse` live in FoundationNetworking, which a user writing
// an adapter or a transport would otherwise have to discover).
@_exported import BatonAuth
@_exported import BatonClient
@_exported import BatonImages
@_exported import BatonPromise
@_exported import BatonUploads
@_exported import BatonWire
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
