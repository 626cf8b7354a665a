#if canImport(Glibc)
    import Glibc
#endif

extension PostgresConnection {
    /// `uri` with any password replaced by `***`, for messages and logs.
    ///
    /// Reads both forms libpq takes, as libpq reads them: a URI (`postgresql://user:secret@host/db`,
    /// and a `password=` query parameter) and a `key=value` string (`host=h password=secret`, the
    /// value possibly quoted). Text of neither form is returned as it is.
    public static func redacted(uri: String) -> String {
        let bytes = Array(uri.utf8)
        var output: [UInt8] = []
        var start = 0
        for password in passwords(in: bytes) {
            output += bytes[start..<password.range.lowerBound]
            output += Array("***".utf8)
            start = password.range.upperBound
        }
        output += bytes[start...]
        return String(decoding: output, as: UTF8.self)
    }

    /// `message` with every password that `uri` or `PGPASSWORD` gives replaced by `***`.
    ///
    /// libpq quotes parts of a connection string it cannot read in its error messages, such as a
    /// bad percent-escape in a URI's password (`invalid percent-encoded token: "…"`).
    static func scrubbingPasswords(of uri: String, from message: String) -> String {
        var secrets: [String] = []
        if let password = getenv("PGPASSWORD") { secrets.append(String(cString: password)) }
        for password in passwords(in: Array(uri.utf8)) {
            secrets.append(password.raw)
            secrets.append(password.value)
        }
        var message = message
        // The longest first, so that a password containing another is replaced whole.
        for secret in secrets.sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            message = message.replacing(secret, with: "***")
        }
        // libpq quotes what it could not use, which may hold a piece of a password that it split
        // elsewhere than we do: `u:pa/ss@h` gives `invalid integer value "pa" for connection option
        // "port"`, and `u:pa@ss@h` gives `could not translate host name "ss@h"`.
        let pieces = secrets.flatMap { $0.split(whereSeparator: { "@/:".contains($0) }) }.map(String.init)
            .filter { $0.count >= 2 }
        return message.replacing(#/"([^"]*)"/#) { match in
            let quoted = String(match.output.1)
            let holdsSecret =
                !quoted.isEmpty && (secrets.contains { $0.contains(quoted) } || pieces.contains { quoted.contains($0) })
            return holdsSecret ? "\"***\"" : String(match.output.0)
        }
    }

    /// A password in a connection string: where its text lies, that text, and the value it stands
    /// for once percent-decoded (URIs) or unquoted and unescaped (`key=value` strings).
    private struct Password {
        var range: Range<Int>
        var raw: String
        var value: String
    }

    /// The passwords in `bytes`, in order.
    private static func passwords(in bytes: [UInt8]) -> [Password] {
        for scheme in ["postgresql://", "postgres://"] where bytes.starts(with: scheme.utf8) {
            return passwords(inURI: bytes, from: scheme.utf8.count)
        }
        return passwords(inKeyValues: bytes)
    }

    /// `postgresql://[user[:password]@][hosts][/dbname][?key=value&…]`.
    private static func passwords(inURI bytes: [UInt8], from start: Int) -> [Password] {
        var found: [Password] = []
        func add(_ range: Range<Int>) {
            let raw = String(decoding: bytes[range], as: UTF8.self)
            found.append(Password(range: range, raw: raw, value: percentDecoded(bytes[range])))
        }
        var index = start
        // libpq ends the user information at the first "@" before any "/", but a password with an
        // unescaped "/" or "@" in it (as generated ones have) is still one: here it ends at the
        // last "@" before the parameters, which hides more than libpq reads, never less.
        let parameters = bytes[start...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        if let end = bytes[start..<parameters].lastIndex(of: UInt8(ascii: "@")) {
            if let colon = bytes[start..<end].firstIndex(of: UInt8(ascii: ":")) { add(colon + 1..<end) }
            index = end + 1
        }
        guard let question = bytes[index...].firstIndex(of: UInt8(ascii: "?")) else { return found }
        var parameterStart = question + 1
        while parameterStart <= bytes.count {
            let parameterEnd = bytes[parameterStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            let parameter = bytes[parameterStart..<parameterEnd]
            if parameter.starts(with: "password=".utf8) { add(parameterStart + 9..<parameterEnd) }
            parameterStart = parameterEnd + 1
        }
        return found
    }

    /// `key = value key = 'quoted \' value'…`, scanned as libpq's conninfo_parse does.
    private static func passwords(inKeyValues bytes: [UInt8]) -> [Password] {
        var found: [Password] = []
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var index = 0
        while index < bytes.count {
            if isSpace(bytes[index]) {
                index += 1
                continue
            }
            let keywordStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "="), !isSpace(bytes[index]) { index += 1 }
            let keyword = bytes[keywordStart..<index]
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            // libpq rejects the string here; nothing after this point is a value it would use.
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return found }
            index += 1
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            let valueStart = index
            var value: [UInt8] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "'") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "'") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                    value.append(bytes[index])
                    index += 1
                }
                index = min(index + 1, bytes.count)  // The closing quote.
            } else {
                while index < bytes.count, !isSpace(bytes[index]) {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                    value.append(bytes[index])
                    index += 1
                }
            }
            if keyword.elementsEqual("password".utf8) {
                found.append(
                    Password(
                        range: valueStart..<index, raw: String(decoding: bytes[valueStart..<index], as: UTF8.self),
                        value: String(decoding: value, as: UTF8.self)))
            }
        }
        return found
    }

    /// `%XX` escapes decoded, as libpq decodes URIs; an escape that is not one is kept as it is.
    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var decoded: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.endIndex, let high = hex(bytes[index + 1]),
                let low = hex(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
