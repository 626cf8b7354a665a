import Foundation

/// The folder a database file lives in, made when a write first needs it: by the engines whose
/// databases are files (SQLite, GeoJSON), and by their writer lock beside them.
package enum DatabaseFolder {
    /// Makes the folder of the file at `path` (and its parents) when it is missing.
    package static func create(for path: String, database: String) throws(StoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError(path: database, "cannot create the folder \(folder): \(describe(error))")
        }
    }

    /// A Foundation file error as the short phrase `strerror` would give, where there is one.
    package static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
