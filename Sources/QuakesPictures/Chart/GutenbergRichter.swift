import Glibc
import QuakesCore

/// The magnitude–frequency law of a catalogue, log10 N(≥M) = a − bM: the b-value by Aki's
/// maximum-likelihood estimator with Utsu's correction for binned magnitudes, above a magnitude of
/// completeness given or estimated by maximum curvature.
///
/// Catalogue magnitudes are rounded (to 0.1, some to 0.01): an event listed as 2.5 is anywhere in
/// [2.45, 2.55), so the smallest magnitude counted is Mc − ΔM/2, not Mc. Aki's estimator without that
/// half bin overestimates b by about 12 % at ΔM = 0.1 and b = 1 (the tests show it).
struct GutenbergRichter: Sendable, Equatable {
    /// How the magnitude of completeness was chosen.
    enum CompletenessMethod: String, Sendable {
        /// `--mc`.
        case given
        /// The most populated magnitude bin (Wiemer and Wyss 2000).
        case maximumCurvature = "maximum curvature"
    }

    var bValue: Double
    /// Aki's standard error, b / √N.
    var uncertainty: Double
    /// The magnitude of completeness: events at or above it were counted.
    var completeness: Double
    var method: CompletenessMethod
    /// The width of the magnitudes' bins: 0.1, 0.01, or 0 for magnitudes not binned.
    var binWidth: Double
    /// Events at or above `completeness`.
    var events: Int

    /// The estimate for `magnitudes`, above `completeness` when given; nil with fewer than two
    /// events above it, or, for magnitudes not binned, when they all have the lowest one.
    init?(magnitudes: [Double], completeness given: Double? = nil) {
        let magnitudes = magnitudes.filter(\.isFinite)
        guard !magnitudes.isEmpty else { return nil }
        let width = Self.binWidth(of: magnitudes)
        let completeness = given ?? Self.maximumCurvature(magnitudes, binWidth: width == 0 ? 0.1 : width)
        // The lowest magnitude an event counted may have had, its bin's lower edge.
        let floor = completeness - width / 2
        let tolerance = max(width, 0.01) * 1e-6
        let counted = magnitudes.filter { $0 >= completeness - tolerance }
        guard counted.count >= 2 else { return nil }
        let mean = counted.reduce(0, +) / Double(counted.count)
        guard mean - floor > 1e-12 else { return nil }
        bValue = log10(M_E) / (mean - floor)
        uncertainty = bValue / Double(counted.count).squareRoot()
        self.completeness = completeness
        method = given == nil ? .maximumCurvature : .given
        binWidth = width
        events = counted.count
    }

    /// 0.1 when every magnitude is a whole number of tenths, 0.01 of hundredths, else 0.
    static func binWidth(of magnitudes: [Double]) -> Double {
        for width in [0.1, 0.01] {
            let steps = 1 / width
            if magnitudes.allSatisfy({ abs(($0 * steps) - ($0 * steps).rounded()) < 1e-6 }) { return width }
        }
        return 0
    }

    /// The magnitude of the most populated bin of `binWidth` (the lower one of a tie).
    static func maximumCurvature(_ magnitudes: [Double], binWidth: Double) -> Double {
        var counts: [Int64: Int] = [:]
        for magnitude in magnitudes { counts[Int64((magnitude / binWidth).rounded()), default: 0] += 1 }
        let best = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }!
        return Double(best.key) * binWidth
    }

    /// `b-value 1.02 ± 0.03 (Mc 2.5 by maximum curvature, 1,234 events)`.
    /// What is said in place of `line` when no estimate could be made.
    static let tooFewEvents = "b-value: too few events above the magnitude of completeness"

    var line: String {
        let mc = String(cFormat: binWidth == 0.01 ? "%.2f" : "%.1f", completeness)
        return String(cFormat: "b-value %.2f ± %.2f", bValue, uncertainty)
            + " (Mc \(mc) \(method == .given ? "given" : "by maximum curvature"), \(TerminalText.grouped(events)) events)"
    }
}
