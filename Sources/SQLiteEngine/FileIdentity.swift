import Glibc
import QuakesCore

/// Which file a path names (device and inode): a connection keeps it, to find out when another
/// writer's first load (`FirstLoad`) has put a new file at the path since it was opened.
struct FileIdentity: Equatable {
    private let device: UInt64
    private let inode: UInt64

    /// The file at `path` now, a link followed as SQLite follows it; nil when there is none.
    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// Runs `open`, which opens (or creates) the file at `path`, and returns what it opened with the
    /// identity of that file: the one found at `path` both before and after, so surely the one
    /// opened. A file that `open` created is the one after: only a file that existed is replaced.
    static func opening<Opened>(_ path: String, _ open: () throws(StoreError) -> Opened) throws(StoreError)
        -> (Opened, FileIdentity?)
    {
        var attempts = 0
        while true {
            let before = FileIdentity(path)
            let opened = try open()
            let after = FileIdentity(path)
            attempts += 1
            // Bounded, for a file system whose inode numbers are not stable.
            if before == nil || before == after || attempts == 16 { return (opened, after) }
        }
    }
}
