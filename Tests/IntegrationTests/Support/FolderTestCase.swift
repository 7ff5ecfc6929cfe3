import Foundation

/// An integration test case with a folder of its own for files, made empty before each test and
/// removed after it.
class FolderTestCase: IntegrationTestCase {
    private(set) var folder: URL!

    override func setUp() async throws {
        try await super.setUp()
        folder = FileManager.default.temporaryDirectory.appending(path: "baton-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: folder)
        try await super.tearDown()
    }
}
