import Glibc
import QuakesCore

/// How a map shows an event: a circle whose area grows with the magnitude, coloured by depth on
/// the scale of USGS's "Seismicity of the Earth" maps (shallow 0–69 km red, intermediate 70–299 km
/// green, deep 300 km and more blue). One place for both, read by the picture and its legend and
/// by the terminal map.
enum MapStyle {
    struct DepthClass: Sendable {
        var label: String
        var below: Double
        var colour: Colour
        /// The colour's number among the terminal's 16 (31 red, 32 green, 34 blue).
        var terminalColour: Int
    }

    static let depthClasses = [
        DepthClass(label: "0–69 km", below: 70, colour: Colour(hex: 0xD7301F), terminalColour: 31),
        DepthClass(label: "70–299 km", below: 300, colour: Colour(hex: 0x2CA25F), terminalColour: 32),
        DepthClass(label: "≥300 km", below: .infinity, colour: Colour(hex: 0x2B6CB0), terminalColour: 34),
    ]

    /// Events without a depth, grey rather than guessed shallow; in the legend only when one is drawn.
    static let unknownDepth = DepthClass(
        label: "depth unknown", below: .nan, colour: Colour(hex: 0x8C8C8C), terminalColour: 37)

    /// The class of a depth.
    static func depthClass(_ depth: Double?) -> DepthClass {
        guard let depth, depth.isFinite else { return unknownDepth }
        return depthClasses.first { depth < $0.below } ?? depthClasses[depthClasses.count - 1]
    }

    /// The classes a legend shows for `events`: the three, and "depth unknown" when one lacks a depth.
    static func legendClasses(_ events: [Quake]) -> [DepthClass] {
        events.contains { $0.depth?.isFinite != true } ? depthClasses + [unknownDepth] : depthClasses
    }

    /// A circle's radius in points: 2.5 at M2 growing by half again a magnitude (so M7 is about
    /// 19 points), at least 1.5 for the smallest and no event without a magnitude, at most 40.
    static func radius(magnitude: Double?, scale: Double = 1) -> Double {
        let magnitude = magnitude ?? 0
        return min(max(2.5 * pow(1.5, magnitude - 2), 1.5), 40) * scale
    }

    static let land = Colour(hex: 0xEFEBE2)
    static let sea = Colour(hex: 0xDCE9F2)
    static let border = Colour(hex: 0x9A9488)
    static let ink = Colour(hex: 0x222222)
    static let faint = Colour(hex: 0x666666)
}
