import Locking
import QuakesCore

/// The stores this process read last, decoded, by path and file version: a `watch --no-fetch`
/// that looks at an unchanged file every interval, or several commands run in one process (the
/// tests), decode it once. A version is the file's inode, size and modification time, and a writer
/// replaces the file by a rename, so a changed store is never taken for the one decoded. Its lock
/// is `Locked`, which ThreadSanitizer sees.
final class GeoJSONReadCache: Sendable {
    struct Entry: Sendable {
        var version: GeoJSONStoreFile.Version
        var file: GeoJSONStoreFile
        var quakes: [Quake]
    }

    /// How many stores are kept: a process reads one, or a few.
    private static var capacity: Int { 4 }
    private let entries = Locked<[(path: String, entry: Entry)]>([])

    /// The store at `path` as it is now, from the cache when the file has not changed since.
    func store(at path: String) throws(StoreError) -> Entry {
        if let version = GeoJSONStoreFile.Version.of(path),
            let entry = entries.withLock({ $0.first { $0.path == path }?.entry }), entry.version == version
        {
            return entry
        }
        guard let (bytes, version) = try GeoJSONStoreFile.contents(of: path) else {
            throw StoreError(path: path, .missing)
        }
        let (file, quakes) = try GeoJSONStoreFile.decodeForReading(bytes, name: path)
        let entry = Entry(version: version, file: file, quakes: quakes)
        entries.withLock { entries in
            entries.removeAll { $0.path == path }
            entries.insert((path, entry), at: 0)
            if entries.count > Self.capacity { entries.removeLast() }
        }
        return entry
    }
}
