import Foundation
import QuakesCore
import QuakesPictures

/// `make geodata`: the packed country outlines made again from their GeoJSON, and how long the
/// data files take to load, which is why the outlines are packed at all.
enum GeoData {
    /// Packs `countries-110m.geojson` of `resources` into its `countries-110m.outlines`, then loads
    /// both data files from there; returns a line on what it wrote and the median load times.
    static func regenerate(in resources: URL) throws -> String {
        let geoJSON = try Data(contentsOf: resources.appendingPathComponent("countries-110m.geojson"))
        let packed = try CountryOutlines.pack(geoJSON: [UInt8](geoJSON))
        try Data(packed).write(to: resources.appendingPathComponent(CountryOutlines.fileName), options: .atomic)
        let data = SharedData(variables: [SharedData.variable: resources.path])
        let outlines = try CountryOutlines.load(from: data)
        let rings = outlines.countries.map(\.rings.count).reduce(0, +)
        let points = outlines.countries.flatMap(\.rings).map(\.points.count).reduce(0, +)
        let outlinesTime = try medianMilliseconds { _ = try CountryOutlines.load(from: data) }
        let placesTime = try medianMilliseconds { _ = try PopulatedPlaces.load(from: data) }
        let packingTime = try medianMilliseconds { _ = try CountryOutlines.pack(geoJSON: [UInt8](geoJSON)) }
        #if DEBUG
            let build = "debug build"
        #else
            let build = "release build"
        #endif
        return String(
            format: "%@: %d bytes from %d of GeoJSON; %d countries, %d rings, %d points\n"
                + "load (median of 101, %@): outlines %.3f ms, places %.3f ms; packing from GeoJSON %.1f ms",
            CountryOutlines.fileName, packed.count, geoJSON.count, outlines.countries.count, rings, points, build,
            outlinesTime, placesTime, packingTime)
    }

    /// The median wall time of 101 runs of `body`, file reading included, in milliseconds.
    private static func medianMilliseconds(_ body: () throws -> Void) throws -> Double {
        var times: [Double] = []
        for _ in 0..<101 {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        }
        return times.sorted()[times.count / 2]
    }
}
