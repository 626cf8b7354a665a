import QuakesCore

/// A picture as a list of shapes in points (1/72 inch, one pixel of a PNG), top left at 0,0:
/// what a chart or a map is drawn into once, and every file format is written from. The shapes
/// are few on purpose (paths, rectangles, circles, text), so that each writer (SVG and HTML in
/// Swift, PNG and PDF through cairo) draws them alike.
struct Drawing: Sendable, Equatable {
    var width: Double
    var height: Double
    var background: Colour = .white
    /// The document's title (SVG and HTML `<title>`).
    var title: String
    var items: [Item] = []

    struct Point: Sendable, Equatable {
        var x: Double
        var y: Double
    }

    struct Rectangle: Sendable, Equatable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double

        func contains(_ point: Point) -> Bool {
            point.x >= x && point.x <= x + width && point.y >= y && point.y <= y + height
        }

        /// The part of the segment from `start` to `end` inside the rectangle (Liang and Barsky's
        /// clipping), or nil when none is.
        func clip(_ start: Point, _ end: Point) -> (Point, Point)? {
            let (dx, dy) = (end.x - start.x, end.y - start.y)
            var (enter, leave) = (0.0, 1.0)
            for (p, q) in [
                (-dx, start.x - x), (dx, x + width - start.x), (-dy, start.y - y), (dy, y + height - start.y),
            ] {
                if p == 0 {
                    if q < 0 { return nil }
                    continue
                }
                let t = q / p
                if p < 0 { enter = max(enter, t) } else { leave = min(leave, t) }
                if enter > leave { return nil }
            }
            return (
                Point(x: start.x + enter * dx, y: start.y + enter * dy),
                Point(x: start.x + leave * dx, y: start.y + leave * dy)
            )
        }
    }

    /// How a shape is painted: filled, outlined, or both.
    struct Style: Sendable, Equatable {
        var fill: Colour?
        var stroke: Colour?
        var lineWidth: Double = 1

        static func filled(_ colour: Colour) -> Style { Style(fill: colour) }
        static func stroked(_ colour: Colour, width: Double = 1) -> Style { Style(stroke: colour, lineWidth: width) }
    }

    enum Anchor: String, Sendable, Equatable {
        case start, middle, end
    }

    /// One event drawn on a picture: what an HTML page shows when the pointer is over it.
    struct Mark: Sendable, Equatable {
        var id: String
        var tooltip: String
    }

    enum Item: Sendable, Equatable {
        /// Polylines, or polygons when `closed` (filled by the even-odd rule, so a ring inside
        /// another is a hole).
        case path([[Point]], closed: Bool, Style)
        case rectangle(Rectangle, Style)
        /// A circle; with a mark, it stands for an event.
        case circle(centre: Point, radius: Double, Style, mark: Mark?)
        /// Text in DejaVu Sans of `size` points, its baseline at `at.y`.
        case text(String, at: Point, size: Double, anchor: Anchor, colour: Colour, bold: Bool)
        /// Items drawn only inside a rectangle.
        case clipped(Rectangle, [Item])
        /// Items that stand for one thing, which the SVG names by a class on each of their
        /// elements (`radius`, the circle of `--radius`); drawn as they are.
        case classed(String, [Item])
    }

    /// Every event mark, in drawing order.
    var marks: [Mark] {
        func marks(in items: [Item]) -> [Mark] {
            items.flatMap { item -> [Mark] in
                switch item {
                case let .circle(_, _, _, mark?): [mark]
                case let .clipped(_, inner), let .classed(_, inner): marks(in: inner)
                default: []
                }
            }
        }
        return marks(in: items)
    }
}
