import Glibc

/// A time zone's offsets from UTC, as the C library finds them: from the system's time zone
/// database (TZif files, RFC 8536, Debian's tzdata), or from a POSIX `TZ` rule (`EST5EDT`,
/// `<+03>-3`, `CET-1CEST,M3.5.0,M10.5.0/3`).
///
/// Not Foundation's `TimeZone`, which needs ICU and its own copy of the database, and the rest of
/// Foundation with them, which quakes does not link (see Package.swift). Reading the system's files
/// also shows the offsets `date` and SQLite's `localtime` show, updated with the system.
struct ZoneRules: Sendable, Equatable {
    /// Instants (seconds since 1970) at which the offset changes, ascending.
    private let transitions: [Int64]
    /// The offset (seconds east of UTC) from each transition on.
    private let offsets: [Int32]
    /// The offset before the first transition.
    private let initialOffset: Int32
    /// The rule after the last transition (the TZif footer), where there is one.
    private let rule: PosixRule?

    static let utc = ZoneRules(transitions: [], offsets: [], initialOffset: 0, rule: nil)

    /// True when the offset is zero at every moment, past and future: UTC, whatever the zone is
    /// called (`Etc/UTC`, `Zulu`, `UTC0`, `Etc/GMT`, a copy of the UTC file).
    var isUTC: Bool {
        initialOffset == 0 && offsets.allSatisfy { $0 == 0 }
            && (rule.map { $0.standardOffset == 0 && ($0.daylight?.offset ?? 0) == 0 } ?? true)
    }

    /// The offset from UTC, in seconds, at `seconds` since 1970.
    func offset(at seconds: Int64) -> Int32 {
        guard let last = transitions.last, seconds < last || rule == nil else {
            return rule?.offset(at: seconds) ?? initialOffset
        }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    // MARK: - Finding a zone

    /// The zone `TZ` names, as glibc reads it: a file of the database (`Europe/Paris`, with or
    /// without a leading colon), an absolute path to a TZif file, or a POSIX rule; nil when it is
    /// none of them.
    static func named(_ name: String, database: String = "/usr/share/zoneinfo") -> ZoneRules? {
        var name = Substring(name)
        if name.hasPrefix(":") { name.removeFirst() }
        guard !name.isEmpty else { return nil }
        let path = name.hasPrefix("/") ? String(name) : database + "/" + name
        if let bytes = readFile(path), let zone = ZoneRules(tzif: bytes) { return zone }
        return PosixRule(String(name)).map { ZoneRules(transitions: [], offsets: [], initialOffset: 0, rule: $0) }
    }

    /// The system's zone, `/etc/localtime`, with its name in the database (the link's target
    /// below `zoneinfo/`, else `/etc/timezone`'s line); nil when there is none.
    static func system(localtime: String = "/etc/localtime", timezoneFile: String = "/etc/timezone") -> (
        zone: ZoneRules, name: String
    )? {
        guard let bytes = readFile(localtime), let zone = ZoneRules(tzif: bytes) else { return nil }
        if let target = FilePaths.linkTarget(of: localtime), let range = target.firstRange(of: "zoneinfo/") {
            return (zone, String(target[range.upperBound...]))
        }
        if let line = readFile(timezoneFile).map({ String(decoding: $0, as: UTF8.self) })?
            .split(whereSeparator: \.isNewline).first.map({ $0.trimmingCharacters(where: \.isWhitespace) }),
            !line.isEmpty
        {
            return (zone, line)
        }
        return (zone, "localtime")
    }

    // MARK: - TZif

    /// The zone of a TZif file (RFC 8536): its 64-bit data (version 2 and later) and footer rule
    /// when it has them, its 32-bit data otherwise; nil when the bytes are not one.
    init?(tzif bytes: [UInt8]) {
        var reader = BigEndianReader(bytes)
        guard let first = reader.header() else { return nil }
        guard first.version >= 2 else {
            guard let data = reader.data(first, timeSize: 4) else { return nil }
            self.init(data, rule: nil)
            return
        }
        guard reader.skip(first.dataSize(timeSize: 4)), let second = reader.header(),
            let data = reader.data(second, timeSize: 8)
        else { return nil }
        // The footer: a newline, a POSIX rule (empty when none), a newline. One this reader does
        // not understand is left out: the transitions still hold, to 2037 in Debian's files.
        var rule: PosixRule?
        if reader.byte() == UInt8(ascii: "\n"), let text = reader.line() { rule = PosixRule(text) }
        self.init(data, rule: rule)
    }

    private init(_ data: (transitions: [Int64], types: [Int], offsets: [Int32]), rule: PosixRule?) {
        transitions = data.transitions
        offsets = data.types.map { data.offsets[$0] }
        // Before the first transition: the first local time type (RFC 8536, section 3.2).
        initialOffset = data.offsets.first ?? 0
        self.rule = rule
    }

    private init(transitions: [Int64], offsets: [Int32], initialOffset: Int32, rule: PosixRule?) {
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// The bytes of the file at `path`, when it is a regular file of a size a zone file can have: a
    /// few kilobytes, never past a megabyte. `TZ` may name any path.
    private static func readFile(_ path: String) -> [UInt8]? {
        FileBytes.ofRegularFile(path, atMost: 1 << 20)
    }

    /// The parts of a TZif file, read in order.
    private struct BigEndianReader {
        struct Header {
            var version: Int
            var isUTCCount, isStandardCount, leapCount, timeCount, typeCount, characterCount: Int

            func dataSize(timeSize: Int) -> Int {
                timeCount * timeSize + timeCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                    + isStandardCount + isUTCCount
            }
        }

        private let bytes: [UInt8]
        private var position = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func header() -> Header? {
            guard bytes.count - position >= 44, bytes[position..<position + 4].elementsEqual("TZif".utf8) else {
                return nil
            }
            let versionByte = bytes[position + 4]
            position += 20
            let counts = (0..<6).map { _ in Int(integer(size: 4)!) }
            guard counts.allSatisfy({ $0 >= 0 }) else { return nil }
            return Header(
                version: versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0")),
                isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2], timeCount: counts[3],
                typeCount: counts[4], characterCount: counts[5])
        }

        /// The transitions, the type of each, and each type's offset.
        mutating func data(_ header: Header, timeSize: Int) -> (transitions: [Int64], types: [Int], offsets: [Int32])? {
            guard header.typeCount > 0, bytes.count - position >= header.dataSize(timeSize: timeSize) else {
                return nil
            }
            let transitions = (0..<header.timeCount).map { _ in integer(size: timeSize)! }
            let types = (0..<header.timeCount).map { _ in Int(byte()!) }
            var offsets: [Int32] = []
            for _ in 0..<header.typeCount {
                offsets.append(Int32(truncatingIfNeeded: integer(size: 4)!))
                position += 2  // isdst, and the index of the abbreviation
            }
            guard types.allSatisfy({ $0 < offsets.count }), zip(transitions, transitions.dropFirst()).allSatisfy(<)
            else { return nil }
            position +=
                header.characterCount + header.leapCount * (timeSize + 4) + header.isStandardCount
                + header.isUTCCount
            return (transitions, types, offsets)
        }

        mutating func skip(_ count: Int) -> Bool {
            guard bytes.count - position >= count else { return false }
            position += count
            return true
        }

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        /// The text up to the next newline, which is consumed; nil when there is none.
        mutating func line() -> String? {
            guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            defer { position = end + 1 }
            return String(decoding: bytes[position..<end], as: UTF8.self)
        }

        /// A signed big-endian integer of `size` bytes (4 or 8).
        private mutating func integer(size: Int) -> Int64? {
            guard bytes.count - position >= size else { return nil }
            var value: UInt64 = 0
            for byte in bytes[position..<position + size] { value = value << 8 | UInt64(byte) }
            position += size
            return size == 4 ? Int64(Int32(truncatingIfNeeded: value)) : Int64(bitPattern: value)
        }
    }
}
