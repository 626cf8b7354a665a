import Glibc
import QuakesCore

/// Longitude and latitude to a picture's points: an equirectangular projection whose standard
/// parallel is the middle of a regional map (so a map of Japan is not stretched sideways), and the
/// equator for a map of most of the world, fitted into a frame with the region grown to fill it.
struct MapProjection: Sendable, Equatable {
    /// The region shown, after growing it to the frame's shape.
    let region: MapExtent.Region
    /// The part of the picture the map covers.
    let frame: Drawing.Rectangle
    private let scale: Double
    private let stretch: Double
    private let origin: Drawing.Point

    init(fitting wanted: MapExtent.Region, into frame: Drawing.Rectangle) {
        let latitudeSpan = max(wanted.north - wanted.south, 0.01)
        let longitudeSpan = max(wanted.east - wanted.west, 0.01)
        let middle = (wanted.north + wanted.south) / 2
        stretch = latitudeSpan > 100 ? 1 : max(cos(middle * .pi / 180), 0.2)
        scale = min(frame.width / (longitudeSpan * stretch), frame.height / latitudeSpan)
        // Grow the region to fill the frame, as far as the Earth goes.
        let width = min(frame.width / (scale * stretch), 360)
        let height = min(frame.height / scale, 180)
        let centre = (wanted.west + wanted.east) / 2
        var south = middle - height / 2
        var north = middle + height / 2
        if south < -90 { (south, north) = (-90, -90 + height) }
        if north > 90 { (south, north) = (90 - height, 90) }
        region = MapExtent.Region(west: centre - width / 2, east: centre + width / 2, south: south, north: north)
        // What the Earth cannot fill is left as a margin on both sides.
        origin = Drawing.Point(
            x: frame.x + (frame.width - width * scale * stretch) / 2, y: frame.y + (frame.height - height * scale) / 2)
        self.frame = frame
    }

    /// Where a point is drawn, its longitude taken in the region's turn of the Earth.
    func point(longitude: Double, latitude: Double) -> Drawing.Point {
        place(longitude: region.unwrapped(longitude), latitude: latitude)
    }

    /// Where a point is drawn, its longitude taken as it is (for outlines moved by whole turns).
    func place(longitude: Double, latitude: Double) -> Drawing.Point {
        Drawing.Point(
            x: origin.x + (longitude - region.west) * scale * stretch, y: origin.y + (region.north - latitude) * scale)
    }

    /// The rectangle the region covers in the picture.
    var mapArea: Drawing.Rectangle {
        let topLeft = place(longitude: region.west, latitude: region.north)
        let bottomRight = place(longitude: region.east, latitude: region.south)
        return Drawing.Rectangle(
            x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y)
    }

    /// The whole turns (-360, 0, 360) by which a shape spanning `west...east` must be moved to
    /// show in the region: none, one, or two when the region is wider than the shape's gap.
    func turns(west: Double, east: Double) -> [Double] {
        [-360.0, 0, 360].filter { west + $0 < region.east && east + $0 > region.west }
    }
}
