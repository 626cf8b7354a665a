import Glibc

/// The folder a database file lives in, made when a write first needs it: by the engines whose
/// databases are files (SQLite, GeoJSON), and by their writer lock beside them.
package enum DatabaseFolder {
    /// Makes the folder of the file at `path` (and its parents) when it is missing.
    package static func create(for path: String, database: String) throws(StoreError) {
        let folder = FilePaths.parent(of: path)
        guard !folder.isEmpty, !isFolder(folder) else { return }
        // `mkdir -p`: each missing folder from the top down; one made meanwhile by another
        // process is as good as one made here.
        var made = folder.hasPrefix("/") ? "/" : ""
        for component in folder.split(separator: "/") {
            made = FilePaths.appending(String(component), to: made)
            guard mkdir(made, 0o777) != 0 else { continue }
            let failure = errno
            guard failure != EEXIST || !isFolder(made) else { continue }
            let reason = failure == EEXIST ? "\(made) is not a folder" : String(cString: strerror(failure))
            throw StoreError(path: database, "cannot create the folder \(folder): \(reason)")
        }
    }

    /// Flushes the folder of the file at `path` to disk, so that a file just renamed into it stays
    /// renamed after a crash. Best effort: a file system that cannot flush a folder has nothing to flush.
    package static func flush(containing path: String) {
        let parent = FilePaths.parent(of: path)
        let folder = open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        fsync(folder)
        close(folder)
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
