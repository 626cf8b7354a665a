import Glibc
import QuakesCore

/// Reading a store's file whole, and replacing it whole: a reader or a crash sees the old file or
/// the new one, never half of either.
extension GeoJSONStoreFile {
    /// Which version of the file is on disk: a writer replaces the file by a rename, so a new
    /// version is a new inode; its size and time tell a file rewritten in place by another program.
    package struct Version: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec

        package static func == (left: Version, right: Version) -> Bool {
            (left.device, left.inode, left.size, left.modified.tv_sec, left.modified.tv_nsec)
                == (right.device, right.inode, right.size, right.modified.tv_sec, right.modified.tv_nsec)
        }

        /// The version of the file at `path`, nil when there is none.
        package static func of(_ path: String) -> Version? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return Version(info)
        }

        /// The version `stat` or `fstat` describes.
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim
        }
    }

    /// The store in the file at `path`, which must exist (for reading: a missing store is an error).
    package static func load(from path: String) throws(StoreError) -> GeoJSONStoreFile {
        guard let (file, _) = try loadIfPresent(from: path) else { throw StoreError(path: path, .missing) }
        return file
    }

    /// The store in the file at `path` and the version read, nil when there is no file.
    package static func loadIfPresent(from path: String) throws(StoreError) -> (GeoJSONStoreFile, Version)? {
        guard let (bytes, version) = try contents(of: path) else { return nil }
        return (try decode(bytes, name: path), version)
    }

    /// The bytes of the file at `path` and the version read, nil when there is no file.
    package static func contents(of path: String) throws(StoreError) -> (bytes: [UInt8], version: Version)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw StoreError(path: path, "cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw StoreError(path: path, "cannot read it: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(path: path, .foreign("it is not a regular file"))
        }
        // A file cut short meanwhile, by another program, is read as it is: decoding says what is wrong.
        let size = Int(info.st_size)
        guard let bytes = FileBytes.read(descriptor, upTo: size, expected: size) else {
            throw StoreError(path: path, "cannot read it: \(String(cString: strerror(errno)))")
        }
        return (bytes, Version(info))
    }

    /// Replaces the file at `path` with `bytes`: written to a temporary file beside it, flushed to
    /// disk, renamed over it, and the folder flushed, so that the rename itself survives a crash.
    /// The new file keeps the old one's permissions (a web server that could read it still can).
    /// The temporary file's name is this process's own.
    @discardableResult
    package static func replace(_ path: String, with bytes: [UInt8]) throws(StoreError) -> Version {
        try DatabaseFolder.create(for: path, database: path)
        let temporary = path + ".tmp.\(getpid())"
        func failure(_ doing: String) -> StoreError {
            StoreError(path: path, "cannot \(doing): \(String(cString: strerror(errno)))")
        }
        // A new file gets the mode any file the user creates gets (0666 less the umask); a replaced
        // one keeps its own.
        var existing = stat()
        let keptMode = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : nil
        unlink(temporary)  // Left by a process of the same number that crashed.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, keptMode == nil ? 0o666 : 0o600)
        guard descriptor >= 0 else { throw failure("create \(temporary)") }
        var written = 0
        var error: StoreError?
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                error = failure("write \(temporary)")
                break
            }
            written += count
        }
        if error == nil, let keptMode, fchmod(descriptor, keptMode) != 0 {
            error = failure("set the mode of \(temporary)")
        }
        if error == nil, fsync(descriptor) != 0 { error = failure("flush \(temporary) to disk") }
        close(descriptor)
        if error == nil, rename(temporary, path) != 0 {
            error = failure("rename \(temporary) to \(path)")
        }
        if let error {
            unlink(temporary)
            throw error
        }
        DatabaseFolder.flush(containing: path)
        guard let version = Version.of(path) else { throw failure("read \(path) back") }
        return version
    }
}
