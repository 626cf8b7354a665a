import CCairo

@testable import QuakesCore
@testable import QuakesPictures

/// A PNG read back through cairo, for tests to look at its pixels: one that quakes wrote, or a
/// browser's screenshot of an SVG or HTML picture.
///
/// The pixels are copied out of cairo's surface, so the image is a plain value that outlives it.
struct CairoImage: Sendable {
    let width: Int
    let height: Int
    /// Rows top to bottom, each pixel as cairo keeps it: `0xAARRGGBB`, premultiplied by its alpha.
    private let pixels: [UInt32]

    /// A pixel's colour, not premultiplied, each component from 0 to 255.
    struct Pixel: Sendable, Equatable, CustomStringConvertible {
        var red: Int
        var green: Int
        var blue: Int
        var alpha: Int

        /// True when each component is within `tolerance` of `colour`'s, as antialiasing and
        /// rounding leave it.
        func isClose(to colour: Colour, tolerance: Int = 2) -> Bool {
            let expected = [colour.red, colour.green, colour.blue, colour.alpha].map { Int(($0 * 255).rounded()) }
            return zip([red, green, blue, alpha], expected).allSatisfy { abs($0 - $1) <= tolerance }
        }

        var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
    }

    /// Reads the PNG at `path`. Blocks on the disk: call it in tests only, off the cooperative pool
    /// when that matters.
    init(contentsOfFile path: String) throws(PictureError) {
        if let failure = ccairo_load() {
            throw PictureError(.libraryMissing(String(cString: failure)))
        }
        let surface = ccairo_image_surface_create_from_png(path)
        defer { ccairo_surface_destroy(surface) }
        let status = ccairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PictureError(.cannotRead(path: path, reason: String(cString: ccairo_status_to_string(status))))
        }
        let format = ccairo_image_surface_get_format(surface)
        // cairo reads every PNG into one of these two: with an alpha channel or without.
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else {
            throw PictureError(.cannotRead(path: path, reason: "cairo read it in pixel format \(format.rawValue)"))
        }
        ccairo_surface_flush(surface)
        width = Int(ccairo_image_surface_get_width(surface))
        height = Int(ccairo_image_surface_get_height(surface))
        let stride = Int(ccairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(ccairo_image_surface_get_data(surface))
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for row in 0..<height {
            for column in 0..<width {
                let pixel = data!.loadUnaligned(fromByteOffset: row * stride + column * 4, as: UInt32.self)
                // RGB24 leaves the top byte unspecified; its pixels are opaque.
                pixels.append(format == CAIRO_FORMAT_RGB24 ? pixel | 0xFF00_0000 : pixel)
            }
        }
        self.pixels = pixels
    }

    /// The pixel whose top left corner is at `x`, `y`.
    func pixel(x: Int, y: Int) -> Pixel {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "(\(x), \(y)) is outside the image")
        let value = pixels[y * width + x]
        let alpha = Int(value >> 24)
        // Undoes cairo's premultiplication, rounding to the nearest.
        func component(_ shift: UInt32) -> Int {
            let premultiplied = Int((value >> shift) & 0xFF)
            return alpha == 0 ? 0 : min(255, (premultiplied * 255 + alpha / 2) / alpha)
        }
        return Pixel(red: component(16), green: component(8), blue: component(0), alpha: alpha)
    }

    /// The pixel at a point of the drawing (one point is one pixel).
    func pixel(at point: Drawing.Point) -> Pixel {
        pixel(x: Int(point.x.rounded(.down)), y: Int(point.y.rounded(.down)))
    }

    /// How many pixels of `rectangle` (clamped to the image) are not close to `colour`: something
    /// was drawn there over a background of that colour.
    func countOfPixels(in rectangle: Drawing.Rectangle, differingFrom colour: Colour) -> Int {
        let left = max(0, Int(rectangle.x.rounded(.down)))
        let right = min(width, Int((rectangle.x + rectangle.width).rounded(.up)))
        let top = max(0, Int(rectangle.y.rounded(.down)))
        let bottom = min(height, Int((rectangle.y + rectangle.height).rounded(.up)))
        guard left < right, top < bottom else { return 0 }
        var count = 0
        for y in top..<bottom {
            for x in left..<right where !pixel(x: x, y: y).isClose(to: colour) {
                count += 1
            }
        }
        return count
    }
}
