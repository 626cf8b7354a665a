import QuakesCore

/// A colour in sRGB, each component from 0 to 1, with an opacity.
struct Colour: Sendable, Hashable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double = 1

    /// The colour of a hexadecimal `0xRRGGBB`.
    init(hex: UInt32, alpha: Double = 1) {
        red = Double((hex >> 16) & 0xFF) / 255
        green = Double((hex >> 8) & 0xFF) / 255
        blue = Double(hex & 0xFF) / 255
        self.alpha = alpha
    }

    init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    static let white = Colour(hex: 0xFFFFFF)
    static let black = Colour(hex: 0x000000)

    /// `#rrggbb`, as SVG and CSS write it (the opacity is written apart).
    var hexString: String {
        func byte(_ component: Double) -> String {
            let value = Int((min(max(component, 0), 1) * 255).rounded())
            return String(value, radix: 16).leftPadded(to: 2, with: "0")
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }

    func withAlpha(_ alpha: Double) -> Colour { Colour(red: red, green: green, blue: blue, alpha: alpha) }
}
