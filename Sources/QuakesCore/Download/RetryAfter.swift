/// Reads the `Retry-After` header: a number of seconds, or an HTTP date (RFC 9110).
enum RetryAfter {
    /// The seconds to wait from `now` (milliseconds since 1970), or nil when the value is unreadable.
    static func seconds(_ value: String, now: Int64) -> Double? {
        let text = value.trimmingCharacters(where: \.isBlank)
        if let seconds = Int(text), seconds >= 0 { return Double(seconds) }
        guard let date = httpDate(text) else { return nil }
        return max(0, Double(date - now) / 1000)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, the IMF-fixdate form servers send, in milliseconds.
    static func httpDate(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int64(parts[1]),
            let month = CivilTime.monthNames.firstIndex(where: { $0.hasPrefix(parts[2]) && parts[2].count == 3 }),
            let year = Int64(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int64($0) }
        guard clock.count == 3 else { return nil }
        return CivilTime.milliseconds(
            year: year, month: Int64(month) + 1, day: day, hour: clock[0], minute: clock[1],
            second: clock[2])
    }
}
