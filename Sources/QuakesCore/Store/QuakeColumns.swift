import SQLite

/// The columns of the `quake` table in their order, and how a `Quake` maps to and from them.
///
/// The one place that pairs a `Quake` property with a column: the upsert binds through it and every
/// read decodes through it.
enum QuakeColumns {
    /// Every column, in table order.
    static let names = [
        "id", "time", "updated", "mag", "magType", "place", "longitude", "latitude", "depth", "type", "status",
        "alert", "tsunami", "sig", "felt", "cdi", "mmi", "net", "code", "ids", "sources", "types", "nst", "dmin",
        "rms", "gap", "url", "detail", "title", "tz", "extra", "generated",
    ]

    /// `id, time, …, extra`, for SELECT and INSERT lists.
    static let list = names.joined(separator: ", ")

    /// Decodes the row at the statement's cursor, whose first columns are `list` in order.
    static func quake(from row: Statement, startingAt first: Int32 = 0) -> Quake {
        var column = first
        func next() -> Int32 {
            defer { column += 1 }
            return column
        }
        var quake = Quake(
            id: row.string(at: next()) ?? "", time: row.int64(at: next()) ?? 0, longitude: 0,
            latitude: 0)
        quake.updated = row.int64(at: next())
        quake.magnitude = row.double(at: next())
        quake.magnitudeType = row.string(at: next())
        quake.place = row.string(at: next())
        quake.longitude = row.double(at: next()) ?? 0
        quake.latitude = row.double(at: next()) ?? 0
        quake.depth = row.double(at: next())
        quake.eventType = row.string(at: next())
        quake.status = row.string(at: next())
        quake.alert = row.string(at: next())
        quake.tsunami = row.int(at: next())
        quake.significance = row.int(at: next())
        quake.feltReports = row.int(at: next())
        quake.reportedIntensity = row.double(at: next())
        quake.estimatedIntensity = row.double(at: next())
        quake.network = row.string(at: next())
        quake.code = row.string(at: next())
        quake.ids = row.string(at: next())
        quake.sources = row.string(at: next())
        quake.productTypes = row.string(at: next())
        quake.stationCount = row.int(at: next())
        quake.minimumDistance = row.double(at: next())
        quake.rms = row.double(at: next())
        quake.azimuthalGap = row.double(at: next())
        quake.url = row.string(at: next())
        quake.detail = row.string(at: next())
        quake.title = row.string(at: next())
        quake.timeZoneOffset = row.int(at: next())
        quake.extra = row.string(at: next())
        quake.feedGenerated = row.int64(at: next())
        return quake
    }

    /// Binds every column of `quake` to parameters 1 through 32 in table order.
    ///
    /// Text goes through `arena`, one buffer per row that SQLite reads in place (`SQLITE_STATIC`),
    /// which saves the allocation and copy SQLite would otherwise make for each string. The bindings
    /// stay valid until the arena starts its next row or the statement's bindings are cleared.
    static func bind(_ quake: Quake, to statement: Statement, arena: TextArena) throws(SQLiteError) {
        arena.startRow(
            reserving: byteCount(
                quake.id, quake.magnitudeType, quake.place, quake.eventType,
                quake.status, quake.alert, quake.network, quake.code, quake.ids,
                quake.sources, quake.productTypes, quake.url, quake.detail, quake.title,
                quake.extra))
        func bind(_ text: String?, at index: Int32) throws(SQLiteError) {
            guard let text else { return try statement.bindNull(at: index) }
            try statement.bind(unownedText: arena.store(text), at: index)
        }
        try bind(quake.id, at: 1)
        try statement.bind(quake.time, at: 2)
        try statement.bind(quake.updated, at: 3)
        try statement.bind(quake.magnitude, at: 4)
        try bind(quake.magnitudeType, at: 5)
        try bind(quake.place, at: 6)
        try statement.bind(quake.longitude, at: 7)
        try statement.bind(quake.latitude, at: 8)
        try statement.bind(quake.depth, at: 9)
        try bind(quake.eventType, at: 10)
        try bind(quake.status, at: 11)
        try bind(quake.alert, at: 12)
        try statement.bind(quake.tsunami, at: 13)
        try statement.bind(quake.significance, at: 14)
        try statement.bind(quake.feltReports, at: 15)
        try statement.bind(quake.reportedIntensity, at: 16)
        try statement.bind(quake.estimatedIntensity, at: 17)
        try bind(quake.network, at: 18)
        try bind(quake.code, at: 19)
        try bind(quake.ids, at: 20)
        try bind(quake.sources, at: 21)
        try bind(quake.productTypes, at: 22)
        try statement.bind(quake.stationCount, at: 23)
        try statement.bind(quake.minimumDistance, at: 24)
        try statement.bind(quake.rms, at: 25)
        try statement.bind(quake.azimuthalGap, at: 26)
        try bind(quake.url, at: 27)
        try bind(quake.detail, at: 28)
        try bind(quake.title, at: 29)
        try statement.bind(quake.timeZoneOffset, at: 30)
        try bind(quake.extra, at: 31)
        try statement.bind(quake.feedGenerated, at: 32)
    }

    private static func byteCount(_ texts: String?...) -> Int {
        texts.reduce(0) { $0 + ($1?.utf8.count ?? 0) }
    }
}

/// A buffer for the text of one row at a time, which SQLite reads in place while the row is stepped.
///
/// Not `Sendable`: it belongs to the store actor, like the statements bound to it.
final class TextArena {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0

    init(capacity: Int = 16 * 1024) {
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        self.capacity = capacity
    }

    deinit {
        base.deallocate()
    }

    /// Forgets the previous row and makes room for `byteCount` bytes; nothing moves until the next call.
    func startRow(reserving byteCount: Int) {
        used = 0
        guard byteCount > capacity else { return }
        base.deallocate()
        capacity = max(byteCount, capacity * 2)
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
    }

    /// Copies `text` in and returns where its UTF-8 bytes now are.
    func store(_ text: String) -> UnsafeRawBufferPointer {
        var text = text
        let count = text.utf8.count
        precondition(used + count <= capacity, "startRow(reserving:) was given too small a size")
        let start = base + used
        text.withUTF8 { bytes in
            if let source = bytes.baseAddress { start.copyMemory(from: source, byteCount: count) }
        }
        used += count
        return UnsafeRawBufferPointer(start: start, count: count)
    }
}
