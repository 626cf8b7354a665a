import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore
@testable import QuakesPictures

/// The b-value against synthetic catalogues of known b, binned as real catalogues are.
@Suite struct GutenbergRichterTests {
    /// `count` magnitudes of a Gutenberg–Richter law of slope `b`, complete from `completeness`,
    /// rounded to `width` as a catalogue lists them: continuous ones start at the lower edge of the
    /// first bin, Mc − ΔM/2.
    static func catalogue(count: Int, b: Double, completeness: Double, width: Double, seed: UInt64) -> [Double] {
        // SplitMix64, so that a catalogue is the same on every machine; uniform in (0, 1), at the
        // middle of each of its 2^53 steps.
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let uniform = (Double(generator.next() >> 11) + 0.5) / Double(1 << 53)
            let magnitude = completeness - width / 2 - log10(uniform) / b
            return (magnitude / width).rounded() * width
        }
    }

    @Test(arguments: [(0.8, 0.1), (1.0, 0.1), (1.3, 0.1), (1.0, 0.01)])
    func theEstimateFindsAKnownBValue(b: Double, width: Double) throws {
        let magnitudes = Self.catalogue(count: 20_000, b: b, completeness: 2.0, width: width, seed: 42)
        let estimate = try #require(GutenbergRichter(magnitudes: magnitudes, completeness: 2.0))
        #expect(estimate.binWidth == width)
        #expect(abs(estimate.bValue - b) < 3 * estimate.uncertainty, "\(estimate.bValue) for \(b)")
        #expect(abs(estimate.uncertainty - b / (20_000.0).squareRoot()) < 0.002)
    }

    /// Without Utsu's half bin the estimate is biased: at ΔM = 0.1 and b = 1 by about 12 %.
    @Test func withoutTheCorrectionForBinningTheEstimateIsBiased() throws {
        let magnitudes = Self.catalogue(count: 20_000, b: 1.0, completeness: 2.0, width: 0.1, seed: 7)
        let estimate = try #require(GutenbergRichter(magnitudes: magnitudes, completeness: 2.0))
        let mean = magnitudes.reduce(0, +) / Double(magnitudes.count)
        let uncorrected = log10(M_E) / (mean - 2.0)
        #expect(abs(estimate.bValue - 1.0) < 0.03)
        #expect(uncorrected > 1.08, "\(uncorrected)")
    }

    /// Below completeness a catalogue thins out: maximum curvature finds the bin where it peaks.
    @Test func maximumCurvatureFindsWhereTheCatalogueStopsBeingComplete() throws {
        var magnitudes = Self.catalogue(count: 10_000, b: 1.0, completeness: 2.5, width: 0.1, seed: 3)
        // An incomplete tail: fewer and fewer events below 2.5.
        for (magnitude, count) in [(2.4, 900), (2.3, 500), (2.2, 200), (2.1, 50)] {
            magnitudes += Array(repeating: magnitude, count: count)
        }
        let estimate = try #require(GutenbergRichter(magnitudes: magnitudes))
        #expect(estimate.method == .maximumCurvature)
        #expect(abs(estimate.completeness - 2.5) < 1e-9)
        #expect(estimate.events == 10_000)
        #expect(abs(estimate.bValue - 1.0) < 3 * estimate.uncertainty)
        #expect(estimate.line.hasPrefix("b-value 1.0") || estimate.line.hasPrefix("b-value 0.9"))
        #expect(estimate.line.hasSuffix("(Mc 2.5 by maximum curvature, 10,000 events)"), "\(estimate.line)")
    }

    @Test func tooFewEventsGiveNoEstimate() {
        #expect(GutenbergRichter(magnitudes: []) == nil)
        #expect(GutenbergRichter(magnitudes: [3.0]) == nil)
        #expect(GutenbergRichter(magnitudes: [3.0, 3.0, 3.0]) != nil)
        #expect(GutenbergRichter(magnitudes: [2.0, 2.0], completeness: 3) == nil)
    }
}
