import Glibc

/// Path arithmetic on strings, as NSString's path methods did it: those live in Foundation's whole
/// module, which quakes does not link (see Package.swift for why), and quakes needs
/// only these, and the target of a symbolic link.
package enum FilePaths {
    /// What the symbolic link at `path` points to, as written in the link; nil when it is not one.
    package static func linkTarget(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The folder part of `path`: `/a/b` → `/a`, `/a` → `/`, `a/b/` → `a`, `a` → the empty string.
    package static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var folder = trimmed[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return String(folder)
    }

    /// The last component of `path`: `/a/b` → `b`, `a/b/` → `b`, `a` → `a`.
    package static func name(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed.count > 1 else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `component` appended to `path` with one slash between them.
    package static func appending(_ component: String, to path: String) -> String {
        guard !path.isEmpty else { return component }
        guard !component.isEmpty else { return path }
        return (path.hasSuffix("/") ? String(path.dropLast()) : path) + "/"
            + (component.hasPrefix("/") ? String(component.dropFirst()) : component)
    }

    /// An absolute `path` without empty, `.` and `..` components (`/a/./b/../c/` → `/a/c`); a
    /// relative one is returned as it is, since its `..` may climb out of a folder not yet known.
    package static func standardized(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        var components: [Substring] = []
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
