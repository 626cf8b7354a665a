import CCairo
import QuakesCore

/// Writes a `Drawing` as a PNG or a PDF through cairo, which quakes does not draw itself: a PNG
/// needs rasterising with antialiasing and a PDF embedded fonts, and cairo does both from the same
/// calls, so the two formats show the same picture.
///
/// The file is written beside its name and renamed into place only once it is whole, so a failure
/// (a full disk, an interruption) never leaves a half-written picture where the old one was.
enum CairoRenderer {
    /// The formats cairo writes for quakes; SVG and HTML are quakes' own writers.
    enum Format: Sendable {
        case png, pdf

        /// The cairo format of a picture format, or nil for one that quakes writes itself.
        init?(_ format: PictureFormat) {
            switch format {
            case .png: self = .png
            case .pdf: self = .pdf
            case .svg, .html: return nil
            }
        }
    }

    /// The family of every text, installed with fonts-dejavu-core: the one the SVG and HTML
    /// writers name too, so text takes the same room in every format.
    static let fontFamily = "DejaVu Sans"

    /// Writes `drawing` to `path` on a thread of its own (see `Blocking`), since cairo's calls
    /// block on the disk and on the CPU for as long as the picture takes.
    static func write(_ drawing: Drawing, toFile path: String, as format: Format) async throws {
        try await Blocking.run { try writeBlocking(drawing, toFile: path, as: format) }
    }

    /// `write(_:toFile:as:)` on the calling thread, which it blocks: never call it on Swift's
    /// cooperative pool.
    static func writeBlocking(_ drawing: Drawing, toFile path: String, as format: Format) throws {
        try PartialFile.replacing(path) { file in try draw(drawing, as: format, into: file) }
    }

    /// Draws `drawing` into the partial file `file`; blocks.
    static func draw(_ drawing: Drawing, as format: Format, into file: PartialFile) throws(PictureError) {
        if let failure = ccairo_load() {
            throw PictureError(.libraryMissing(String(cString: failure)))
        }
        switch format {
        case .png: try writePNG(drawing, to: file)
        case .pdf: try writePDF(drawing, to: file)
        }
    }

    private static func writePNG(_ drawing: Drawing, to file: PartialFile) throws(PictureError) {
        // cairo's images are at most 32,767 pixels a side.
        let sides = [drawing.width, drawing.height]
        guard sides.allSatisfy({ $0.isFinite && $0 >= 1 && $0.rounded(.up) <= 32_767 }) else {
            throw PictureError(.drawing("a PNG cannot be \(drawing.width) by \(drawing.height) pixels"))
        }
        let surface = ccairo_image_surface_create(
            CAIRO_FORMAT_ARGB32, Int32(drawing.width.rounded(.up)), Int32(drawing.height.rounded(.up)))
        defer { ccairo_surface_destroy(surface) }
        try check(ccairo_surface_status(surface))
        try draw(drawing, on: surface)
        let status = withExtendedLifetime(file) {
            ccairo_surface_write_to_png_stream(
                surface, PartialFile.cairoWrite, Unmanaged.passUnretained(file).toOpaque())
        }
        try file.checkWrites()
        try check(status)
    }

    private static func writePDF(_ drawing: Drawing, to file: PartialFile) throws(PictureError) {
        guard drawing.width.isFinite, drawing.height.isFinite, drawing.width > 0, drawing.height > 0 else {
            throw PictureError(.drawing("a PDF cannot be \(drawing.width) by \(drawing.height) points"))
        }
        try withExtendedLifetime(file) { () throws(PictureError) in
            let surface = ccairo_pdf_surface_create_for_stream(
                PartialFile.cairoWrite, Unmanaged.passUnretained(file).toOpaque(), drawing.width, drawing.height)
            defer { ccairo_surface_destroy(surface) }
            try check(ccairo_surface_status(surface))
            ccairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, drawing.title)
            try draw(drawing, on: surface)
            // The end of the document is written now, not when the surface is destroyed.
            ccairo_surface_finish(surface)
            try file.checkWrites()
            try check(ccairo_surface_status(surface))
        }
    }

    /// Paints the background and every item on a fresh context of `surface`.
    private static func draw(_ drawing: Drawing, on surface: OpaquePointer?) throws(PictureError) {
        let context = ccairo_create(surface)
        defer { ccairo_destroy(context) }
        setSource(drawing.background, on: context)
        ccairo_paint(context)
        // A ring inside another is a hole, as Drawing.Item.path promises and SVG's evenodd draws.
        ccairo_set_fill_rule(context, CAIRO_FILL_RULE_EVEN_ODD)
        for item in drawing.items {
            draw(item, on: context)
        }
        try check(ccairo_status(context))
    }

    private static func draw(_ item: Drawing.Item, on context: OpaquePointer?) {
        ccairo_new_path(context)
        switch item {
        case let .path(rings, closed, style):
            for ring in rings {
                guard let first = ring.first else { continue }
                ccairo_move_to(context, first.x, first.y)
                for point in ring.dropFirst() {
                    ccairo_line_to(context, point.x, point.y)
                }
                if closed { ccairo_close_path(context) }
            }
            paint(style, on: context)
        case let .rectangle(rectangle, style):
            ccairo_rectangle(context, rectangle.x, rectangle.y, rectangle.width, rectangle.height)
            paint(style, on: context)
        case let .circle(centre, radius, style, _):
            ccairo_arc(context, centre.x, centre.y, radius, 0, 2 * Double.pi)
            ccairo_close_path(context)
            paint(style, on: context)
        case let .text(text, point, size, anchor, colour, bold):
            ccairo_select_font_face(
                context, fontFamily, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            ccairo_set_font_size(context, size)
            var extents = cairo_text_extents_t()
            ccairo_text_extents(context, text, &extents)
            let x =
                switch anchor {
                case .start: point.x
                case .middle: point.x - extents.x_advance / 2
                case .end: point.x - extents.x_advance
                }
            ccairo_move_to(context, x, point.y)
            setSource(colour, on: context)
            ccairo_show_text(context, text)
        case let .clipped(rectangle, items):
            ccairo_save(context)
            ccairo_rectangle(context, rectangle.x, rectangle.y, rectangle.width, rectangle.height)
            ccairo_clip(context)
            for item in items {
                draw(item, on: context)
            }
            ccairo_restore(context)
        case let .classed(_, items):
            for item in items {
                draw(item, on: context)
            }
        }
    }

    /// Fills the current path, then outlines it, as SVG paints a shape with both.
    private static func paint(_ style: Drawing.Style, on context: OpaquePointer?) {
        if let fill = style.fill {
            setSource(fill, on: context)
            ccairo_fill_preserve(context)
        }
        if let stroke = style.stroke {
            setSource(stroke, on: context)
            ccairo_set_line_width(context, style.lineWidth)
            ccairo_stroke(context)
        }
    }

    private static func setSource(_ colour: Colour, on context: OpaquePointer?) {
        ccairo_set_source_rgba(context, colour.red, colour.green, colour.blue, colour.alpha)
    }

    private static func check(_ status: cairo_status_t) throws(PictureError) {
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PictureError(.drawing(String(cString: ccairo_status_to_string(status))))
        }
    }
}

extension PartialFile {
    /// A `cairo_write_func_t` for a `PartialFile` passed unretained as the closure.
    static let cairoWrite: cairo_write_func_t = { closure, data, length in
        let file = Unmanaged<PartialFile>.fromOpaque(closure!).takeUnretainedValue()
        return file.write(UnsafeRawBufferPointer(start: data, count: Int(length)))
            ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
    }
}
