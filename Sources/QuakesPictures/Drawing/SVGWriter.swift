import QuakesCore

/// Writes a drawing as SVG text: the `.svg` file, and the picture inside the `.html` page.
///
/// Written here rather than through cairo's SVG surface because the SVG is a document people
/// and programs read: each event is one `<circle class="event">` with its id and a `<title>` (the
/// HTML page's tooltip), text stays text, and numbers are kept to two decimals, where cairo
/// writes glyphs as outlines and every shape as an anonymous path.
struct SVGWriter {
    var drawing: Drawing

    /// A standalone SVG document.
    func document() -> String {
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + element(attributes: #" xmlns="http://www.w3.org/2000/svg""#)
    }

    /// The `<svg>` element, with `attributes` added to its start tag.
    func element(attributes: String = "") -> String {
        var text = #"<svg width="\#(number(drawing.width))" height="\#(number(drawing.height))""#
        text += #" viewBox="0 0 \#(number(drawing.width)) \#(number(drawing.height))""# + attributes
        text += #" font-family="DejaVu Sans, Verdana, sans-serif">"# + "\n"
        text += "<title>\(Self.escaped(drawing.title))</title>\n"
        text += #"<rect width="100%" height="100%"\#(paint(.filled(drawing.background)))/>"# + "\n"
        var clips = 0
        write(drawing.items, into: &text, clips: &clips)
        return text + "</svg>\n"
    }

    /// Writes `items`, each element with the class `name` when given.
    private func write(_ items: [Drawing.Item], into text: inout String, clips: inout Int, name: String? = nil) {
        let classed = name.map { #" class="\#(Self.escaped($0))""# } ?? ""
        for item in items {
            switch item {
            case let .path(rings, closed, style):
                guard !rings.isEmpty else { continue }
                var data = ""
                for ring in rings where !ring.isEmpty {
                    data += "M" + ring.map { number($0.x) + "," + number($0.y) }.joined(separator: "L")
                    if closed { data += "Z" }
                }
                let rule = closed && style.fill != nil ? #" fill-rule="evenodd""# : ""
                text += #"<path\#(classed) d="\#(data)"\#(rule)\#(paint(style))/>"# + "\n"
            case let .rectangle(box, style):
                text += #"<rect\#(classed) x="\#(number(box.x))" y="\#(number(box.y))" width="\#(number(box.width))""#
                text += #" height="\#(number(box.height))"\#(paint(style))/>"# + "\n"
            case let .circle(centre, radius, style, mark):
                let circle = #"cx="\#(number(centre.x))" cy="\#(number(centre.y))" r="\#(number(radius))""#
                if let mark {
                    text += #"<circle class="event" data-id="\#(Self.escaped(mark.id))" \#(circle)\#(paint(style))>"#
                    text += "<title>\(Self.escaped(mark.tooltip))</title></circle>\n"
                } else {
                    text += "<circle\(classed) \(circle)\(paint(style))/>\n"
                }
            case let .text(string, point, size, anchor, colour, bold):
                text +=
                    #"<text\#(classed) x="\#(number(point.x))" y="\#(number(point.y))" font-size="\#(number(size))""#
                if anchor != .start { text += #" text-anchor="\#(anchor.rawValue)""# }
                if bold { text += #" font-weight="bold""# }
                text += #"\#(paint(.filled(colour)))>\#(Self.escaped(string))</text>"# + "\n"
            case let .clipped(box, inner):
                clips += 1
                let id = "clip\(clips)"
                text += #"<clipPath id="\#(id)"><rect x="\#(number(box.x))" y="\#(number(box.y))""#
                text += #" width="\#(number(box.width))" height="\#(number(box.height))"/></clipPath>"# + "\n"
                text += #"<g clip-path="url(#\#(id))">"# + "\n"
                write(inner, into: &text, clips: &clips, name: name)
                text += "</g>\n"
            case let .classed(itemName, inner):
                write(inner, into: &text, clips: &clips, name: itemName)
            }
        }
    }

    private func paint(_ style: Drawing.Style) -> String {
        var text = ""
        if let fill = style.fill {
            text += #" fill="\#(fill.hexString)""#
            if fill.alpha < 1 { text += #" fill-opacity="\#(number(fill.alpha))""# }
        } else {
            text += #" fill="none""#
        }
        if let stroke = style.stroke {
            text += #" stroke="\#(stroke.hexString)" stroke-width="\#(number(style.lineWidth))""#
            if stroke.alpha < 1 { text += #" stroke-opacity="\#(number(stroke.alpha))""# }
            text += #" stroke-linejoin="round""#
        }
        return text
    }

    /// At most two decimals, no trailing zeros: a hundredth of a point is below what any screen or
    /// printer shows, and keeps a 100,000-event map's file small.
    private func number(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "0" }
        let whole = Int64(hundredths)
        let sign = whole < 0 ? "-" : ""
        let magnitude = whole.magnitude
        let fraction = magnitude % 100
        var text = sign + String(magnitude / 100)
        if fraction != 0 {
            text += fraction % 10 == 0 ? "." + String(fraction / 10) : "." + String(fraction).leftPadded(to: 2)
        }
        return text == "-0" ? "0" : text
    }

    /// Text escaped for XML character data and attribute values.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            // Characters XML 1.0 does not allow at all (controls but tab and newlines, U+FFFE and
            // U+FFFF) are dropped.
            case let scalar where scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r": break
            case "\u{FFFE}", "\u{FFFF}": break
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
