/// The file `--output` names and the format its extension says: SVG and HTML written by quakes'
/// own writers, PNG and PDF through cairo; never half a picture (see `PartialFile`).
struct PictureFile: Sendable, Equatable {
    var path: String
    var format: PictureFormat

    func write(_ drawing: Drawing) async throws {
        switch format {
        case .svg: try PartialFile.write(Array(SVGWriter(drawing: drawing).document().utf8), to: path)
        case .html: try PartialFile.write(Array(HTMLPage(drawing: drawing).document().utf8), to: path)
        case .png: try await CairoRenderer.write(drawing, toFile: path, as: .png)
        case .pdf: try await CairoRenderer.write(drawing, toFile: path, as: .pdf)
        }
    }
}
