import Glibc

extension String {
    /// `arguments` formatted by C's `printf` rules (`%.1f`, `%6.1f km`), in the C locale that quakes
    /// never leaves: a decimal point, whatever the user's locale. Foundation's `String(format:)`
    /// gives the same text, but lives in the module quakes does not link (see Package.swift).
    package init(cFormat format: String, _ arguments: any CVarArg...) {
        self.init(cFormat: format, arguments: arguments)
    }

    package init(cFormat format: String, arguments: [any CVarArg]) {
        var buffer = [CChar](repeating: 0, count: 64)
        let needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
