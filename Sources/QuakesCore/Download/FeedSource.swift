import Glibc

/// Where a fetch reads a feed from, resolved from what the user typed: a USGS summary feed name,
/// a URL, or a local file.
public struct FeedSource: Sendable, Equatable {
    /// What the user typed; it names the source in summaries and errors.
    public var label: String
    /// The URL handed to the downloader.
    public var url: String
    /// The file, when the source is a local path; it is checked before the download starts, for a
    /// clearer error than libcurl's.
    public var localPath: String?
    /// True for `-`: the document is read from standard input.
    public var isStandardInput = false

    /// What `-` is called where a source's URL is recorded (the history, the fetch summary).
    public static let standardInputURL = "-"

    /// Where USGS serves its summary feeds.
    public static let summaryFeedBase = "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/"

    /// The magnitude thresholds of the summary feeds, as named in their URLs.
    public static let feedThresholds = ["significant", "4.5", "2.5", "1.0", "all"]
    /// The periods of the summary feeds.
    public static let feedPeriods = ["hour", "day", "week", "month"]

    /// Every summary feed name, `significant_hour` to `all_month`.
    public static let summaryFeedNames = feedThresholds.flatMap { threshold in feedPeriods.map { "\(threshold)_\($0)" }
    }

    /// Resolves `argument`. Anything with `://` is a URL and must be http, https or file; a name such
    /// as `all_day` is a summary feed (write `./all_day` for a file of that name); anything else is a
    /// path, relative to `currentDirectory`.
    public init(_ argument: String, currentDirectory: String) throws(UsageError) {
        label = argument
        if argument == "-" {
            url = Self.standardInputURL
            isStandardInput = true
        } else if let schemeEnd = argument.firstRange(of: "://") {
            let scheme = argument[..<schemeEnd.lowerBound].lowercased()
            guard ["http", "https", "file"].contains(scheme) else {
                throw UsageError(
                    "Unsupported URL scheme '\(scheme)' in '\(argument)': quakes fetches http, https and file URLs")
            }
            url = argument
        } else if Self.isSummaryFeedName(argument) {
            url = Self.summaryFeedBase + argument + ".geojson"
        } else {
            let path =
                argument.hasPrefix("/") ? argument : FilePaths.appending(argument, to: currentDirectory)
            localPath = FilePaths.standardized(path)
            url = Self.fileURL(forPath: localPath!)
        }
    }

    /// The magnitude threshold of a summary feed's URL (USGS's, or a mirror's: its last path
    /// component is the feed's name, `4.5_week.geojson`): `.some(nil)` for `all_*`; nil for a URL
    /// that is not a summary feed, and for `significant_*`, which has no fixed threshold.
    static func threshold(ofSummaryFeed url: String) -> Double?? {
        summaryFeed(of: url).flatMap { name in
            switch name.threshold {
            case "all": .some(nil)
            case "significant": nil
            default: Double(name.threshold).map { .some($0) }
            }
        }
    }

    /// The summary feed a URL names by its last path component, as its threshold and period.
    static func summaryFeed(of url: String) -> (threshold: String, period: String)? {
        guard url.lowercased().hasPrefix("http"),
            let last = url.split(separator: "?").first?.split(separator: "/").last,
            last.hasSuffix(".geojson")
        else { return nil }
        let name = String(last.dropLast(".geojson".count))
        guard isSummaryFeedName(name), let separator = name.lastIndex(of: "_") else { return nil }
        return (String(name[..<separator]), String(name[name.index(after: separator)...]))
    }

    /// A request to an FDSN event service, which names itself in messages.
    init(service url: String) {
        label = url
        self.url = url
    }

    /// True for http and https sources, which requests may be made conditional for.
    public var isHTTP: Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// True for `{significant,4.5,2.5,1.0,all}_{hour,day,week,month}`.
    public static func isSummaryFeedName(_ name: String) -> Bool {
        guard let separator = name.lastIndex(of: "_") else { return false }
        return feedThresholds.contains(String(name[..<separator]))
            && feedPeriods.contains(String(name[name.index(after: separator)...]))
    }

    /// A `file://` URL for an absolute path, percent-encoding every byte but unreserved ones and '/'.
    static func fileURL(forPath path: String) -> String {
        var url = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                url.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                url += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return url
    }

    /// Fails with `DownloadError.unreadableFile` unless the local file can be read.
    func checkLocalFile() throws(DownloadError) {
        guard let localPath else { return }
        var status = stat()
        guard stat(localPath, &status) == 0 else {
            let reason =
                errno == ENOENT && !label.contains("/") && !label.contains(".")
                ? "no such file, and not a feed name (\(Self.feedThresholds.joined(separator: ", ")) then _\(Self.feedPeriods.joined(separator: ", _")))"
                : String(cString: strerror(errno))
            throw .unreadableFile(path: label, reason: reason)
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .unreadableFile(path: label, reason: "it is a folder") }
        guard access(localPath, R_OK) == 0 else {
            throw .unreadableFile(path: label, reason: String(cString: strerror(errno)))
        }
    }
}

extension String {
    package func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
