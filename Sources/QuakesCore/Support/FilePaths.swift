/// Path arithmetic on strings, as NSString's path methods did it: those live in Foundation's whole
/// module, which quakes no longer links (its start-up cost is in Package.swift), and quakes needs
/// only these three.
package enum FilePaths {
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
