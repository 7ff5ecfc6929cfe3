import Foundation
import XCTest

/// A test case with a folder of its own in the temporary folder (`folder`), made before each test
/// and removed, with whatever the test left in it, after.
open class TemporaryFolderTestCase: XCTestCase {
    public private(set) var folder: URL!

    override open func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appending(path: "baton-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override open func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }
}
