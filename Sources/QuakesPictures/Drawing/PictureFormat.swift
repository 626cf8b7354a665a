import QuakesCore

/// The files a picture is written to, told by the name's extension (`--output map.png`).
enum PictureFormat: String, Sendable, CaseIterable {
    case svg, png, pdf, html

    /// The format of a file name, or nil for an extension quakes does not write.
    init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}
