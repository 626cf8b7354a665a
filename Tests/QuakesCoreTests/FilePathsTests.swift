import Foundation
import Testing

@testable import QuakesCore

/// The path arithmetic and `mkdir -p` that replaced Foundation's, held to what NSString and
/// FileManager did.
@Suite struct FilePathsTests {
    @Test func pathsAreTakenApartAsNSStringDid() {
        for path in ["/a/b", "/a", "/", "a/b/", "", "/a//b", "a/b//", "//a"] {
            #expect(FilePaths.parent(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
        // swift-corelibs-foundation's NSString crashes on a lone name; Apple's gives the empty string.
        #expect(FilePaths.parent(of: "a") == "")
        for path in ["/a/b", "/a", "/", "a/b/", "", "a", "a//b", "a/b//"] {
            #expect(FilePaths.name(of: path) == (path as NSString).lastPathComponent, "\(path)")
        }
        for (path, component) in [("/a", "b"), ("/a/", "b"), ("/", "b"), ("", "b"), ("a", "b/c"), ("/a", "")] {
            #expect(
                FilePaths.appending(component, to: path) == (path as NSString).appendingPathComponent(component),
                "\(path) + \(component)")
        }
        #expect(FilePaths.standardized("/a/./b/../c/") == "/a/c")
        #expect(FilePaths.standardized("/a//b/.") == "/a/b")
        #expect(FilePaths.standardized("/../a") == "/a")
        #expect(FilePaths.standardized("/") == "/")
        #expect(FilePaths.standardized("a/../b") == "a/../b")
    }

    @Test func aDatabaseFolderIsMadeWithItsParents() throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("a/b/c/q.sqlite")
        try DatabaseFolder.create(for: database, database: database)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.file("a/b/c"), isDirectory: &isFolder))
        #expect(isFolder.boolValue)
        // Again, with every folder there: nothing to do, and no error.
        try DatabaseFolder.create(for: database, database: database)
        // A file where a folder should be is named.
        try folder.write("file", "not a folder")
        let blocked = folder.file("file/d/q.sqlite")
        #expect {
            try DatabaseFolder.create(for: blocked, database: blocked)
        } throws: { error in
            "\(error)".contains(
                "cannot create the folder \(folder.file("file/d")): \(folder.file("file")) is not a folder")
        }
    }
}
