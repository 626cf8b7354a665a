import QuakesCore

/// The file `--output` names and the format its extension says: SVG and HTML written by quakes'
/// own writers, PNG and PDF through cairo; never half a picture (see `PartialFile`).
struct PictureFile: Sendable, Equatable {
    /// The name as the user gave it, which messages show.
    var path: String
    var format: PictureFormat
    /// Where relative names are found: the current directory.
    var directory = ""

    /// Writes the picture off the cooperative pool, since drawing and writing block for as long
    /// as a picture takes; an interruption meanwhile (SIGINT, SIGTERM) leaves the file as it was.
    func write(_ drawing: Drawing) async throws {
        let target = path.hasPrefix("/") || directory.isEmpty ? path : directory + "/" + path
        let (path, format) = (path, format)
        let cancellation = CancellationFlag()
        try await withTaskCancellationHandler {
            try await Blocking.run {
                try PartialFile.replacing(target, shownAs: path, isCancelled: { cancellation.isCancelled }) { file in
                    switch format {
                    case .svg: file.append(Array(SVGWriter(drawing: drawing).document().utf8))
                    case .html: file.append(Array(HTMLPage(drawing: drawing).document().utf8))
                    case .png: try CairoRenderer.draw(drawing, as: .png, into: file)
                    case .pdf: try CairoRenderer.draw(drawing, as: .pdf, into: file)
                    }
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
