import QuakesCore

/// What a GeoJSON-file store holds, and its bytes: one `FeatureCollection` in the shape
/// `quakes list --format geojson` writes, so that web maps, GIS tools and GDAL open it as it is,
/// with what the store needs besides the events in `metadata.quakes` (the schema version, the last
/// history token, the feeds' validators, and the owner of every id, tombstones among them).
///
/// The bytes depend only on the content: features newest first (then by id), owners and feeds by
/// their keys, one feature a line, no version or clock of the writer's. So a fetch that changes
/// nothing writes the same file, byte for byte, and `git diff` shows what a fetch changed, line by
/// line. For the same reason the file keeps of a feed only its validators, not when it was fetched
/// or last checked (`status` reports those as unknown for this engine), and a feature does not
/// carry the time of the newest feed that named it (`generated`), which changes every minute on
/// USGS's feeds: the owner of its id keeps that time, in the metadata line, and reading the file
/// puts it back.
package struct GeoJSONStoreFile: Sendable, Equatable {
    package static var schemaVersion: Int { 1 }

    package var events: [String: Quake] = [:]
    package var owners: [String: IdentityOwner] = [:]
    /// The feeds' validators, and where a backfill or a sync stands, without the times of their
    /// fetches (see above).
    package var feeds: [String: FeedState] = [:]
    /// The newest history token ever issued.
    package var lastToken: Int64 = 0

    package init() {}

    // MARK: - Writing

    /// The file's bytes.
    package func encoded() -> [UInt8] {
        var text = #"{"type":"FeatureCollection","metadata":"# + metadata().serialized() + #","features":["# + "\n"
        let events = Array(events.values)
        let ordered = QuerySemantics.order(events, sort: .time, origin: nil).lazy.map { events[$0] }
        for (index, quake) in ordered.enumerated() {
            var feature = quake
            feature.feedGenerated = nil
            text += (index == 0 ? "" : ",\n") + QuakeFormats.geoJSONFeature(feature)
        }
        text += (ordered.isEmpty ? "" : "\n") + "]}\n"
        return Array(text.utf8)
    }

    private func metadata() -> JSONValue {
        let feeds = self.feeds.values.sorted { $0.url.utf8.lexicographicallyPrecedes($1.url.utf8) }.map { feed in
            JSONValue.object(
                [
                    ("url", .string(feed.url)), ("etag", feed.etag.map(JSONValue.string) ?? .null),
                    ("lastModified", feed.lastModified.map(JSONValue.string) ?? .null),
                ] + (feed.progress.map { [("progress", JSONValue.string($0))] } ?? []))
        }
        let owners = self.owners.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { id, owner in
            JSONValue.array([
                .string(id), .string(owner.event), owner.version.updated.map(JSONValue.integer) ?? .null,
                owner.version.generated.map(JSONValue.integer) ?? .null, .integer(owner.version.digest),
                .bool(owner.isDeletion), .integer(owner.time),
            ])
        }
        return .object([
            ("title", .string("quakes store")),
            (
                "quakes",
                .object([
                    ("schema", .integer(Int64(Self.schemaVersion))), ("lastToken", .integer(lastToken)),
                    ("feeds", .array(feeds)), ("owners", .array(owners)),
                ])
            ),
        ])
    }

    // MARK: - Reading

    /// Reads a store's bytes; anything else (another GeoJSON, any other file, a store of a newer
    /// schema) is refused with `StoreError` (`foreign`), and the file is left alone.
    package static func decode(_ bytes: [UInt8], name: String) throws(StoreError) -> GeoJSONStoreFile {
        var (file, quakes) = try decodeForReading(bytes, name: name)
        file.events.reserveCapacity(quakes.count)
        for quake in quakes { file.events[quake.id] = quake }
        quakes = []
        return file
    }

    /// Reads a store's bytes as `decode` does, but leaves the events in the file's order, out of
    /// `events`: a reader scans them, and needs no dictionary built (nor a copy of each event).
    package static func decodeForReading(_ bytes: [UInt8], name: String) throws(StoreError) -> (
        GeoJSONStoreFile, [Quake]
    ) {
        let file = try decodeMetadata(bytes, name: name)
        do {
            let document = try bytes.withUnsafeBytes { try FeatureDocument($0, digests: false) }
            guard document.problems.isEmpty else {
                throw StoreError(path: name, "a feature of the file cannot be read: \(document.problems[0])")
            }
            var quakes = document.quakes
            for index in quakes.indices {
                quakes[index].feedGenerated = file.owners[quakes[index].id]?.version.generated
            }
            return (file, quakes)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: name, "the file is damaged: \(error)")
        }
    }

    /// Reads the first line of a store's bytes, the metadata, alone: enough to tell a store (and
    /// its schema) from any other file, which a writer checks before it takes the lock.
    package static func decodeMetadata(_ bytes: [UInt8], name: String) throws(StoreError) -> GeoJSONStoreFile {
        // The metadata is on the first line, as `encoded()` writes it: read it alone, and leave the
        // features to the feed decoder.
        let prefix = #"{"type":"FeatureCollection","metadata":"#
        let suffix = #","features":["#
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")), bytes.starts(with: prefix.utf8),
            bytes[..<newline].reversed().starts(with: suffix.utf8.reversed())
        else { throw StoreError(path: name, .foreign("it is not a GeoJSON file that quakes keeps")) }
        let metadata = try? bytes[prefix.utf8.count..<(newline - suffix.utf8.count)].withUnsafeBytes {
            try JSONValue(parsing: $0)
        }
        guard let store = metadata?[member: "quakes"], let schema = store[member: "schema"]?.integerValue else {
            throw StoreError(path: name, .foreign("its metadata has no quakes store in it"))
        }
        guard schema <= Self.schemaVersion else {
            throw StoreError(
                path: name,
                "the file has schema version \(schema), newer than this version of quakes understands "
                    + "(\(Self.schemaVersion)); upgrade quakes to use it")
        }
        var file = GeoJSONStoreFile()
        file.lastToken = store[member: "lastToken"]?.integerValue ?? 0
        for feed in store[member: "feeds"]?.arrayValue ?? [] {
            guard let url = feed[member: "url"]?.stringValue else { continue }
            file.feeds[url] = FeedState(
                url: url, etag: feed[member: "etag"]?.stringValue,
                lastModified: feed[member: "lastModified"]?.stringValue, fetched: 0,
                progress: feed[member: "progress"]?.stringValue)
        }
        for case let .array(owner) in store[member: "owners"]?.arrayValue ?? [] {
            guard owner.count == 7, let id = owner[0].stringValue, let event = owner[1].stringValue,
                let digest = owner[4].integerValue, let isDeletion = owner[5].boolValue,
                let time = owner[6].integerValue
            else { throw StoreError(path: name, .foreign("an owner in its metadata is not one quakes writes")) }
            file.owners[id] = IdentityOwner(
                event: event,
                version: EventVersion(updated: owner[2].integerValue, generated: owner[3].integerValue, digest: digest),
                isDeletion: isDeletion, time: time)
        }
        return file
    }
}
