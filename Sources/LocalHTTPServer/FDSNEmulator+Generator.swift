import Foundation

extension FDSNEmulator {
    /// A deterministic catalogue that looks like ComCat's: the same `seed` gives the same events on
    /// every machine, so tests and benchmarks can state exact counts.
    ///
    /// `count` background events fall uniformly in `from..<to` (milliseconds); each burst adds its
    /// own `events` as an aftershock sequence, densest just after `at`, within `spanMilliseconds`
    /// (30,000 in 20 minutes forces a client's windows below an hour). Magnitudes follow
    /// Gutenberg–Richter with b = 1 from 2.5 to 7; about one event in twenty has two or three ids;
    /// about one in five hundred is deleted. With `boundaryEvents`, about one event in twenty falls
    /// on a whole second, a few of them on a whole minute or hour, because a client's windows share
    /// their boundary seconds and an event there belongs to both.
    public static func catalogue(
        count: Int, from: Int64, to: Int64, seed: UInt64,
        bursts: [(at: Int64, events: Int, spanMilliseconds: Int64)] = [], boundaryEvents: Bool = true
    ) -> [Event] {
        var generator = Generator(seed: seed)
        var events: [Event] = []
        events.reserveCapacity(count + bursts.reduce(0) { $0 + $1.events })
        let span = max(1, to - from)
        for _ in 0..<max(0, count) {
            var time = from + Int64(generator.next() % UInt64(span))
            if boundaryEvents {
                switch generator.next() % 1000 {
                case 0..<5: time -= time % 3_600_000
                case 5..<15: time -= time % 60_000
                case 15..<50: time -= time % 1000
                default: break
                }
                time = max(from, time)
            }
            let town = Generator.towns[Int(generator.next() % UInt64(Generator.towns.count))]
            events.append(generator.event(at: time, near: town, spread: 1.5, until: to))
        }
        for burst in bursts {
            let town = Generator.towns[Int(generator.next() % UInt64(Generator.towns.count))]
            let span = Double(max(1, burst.spanMilliseconds))
            for index in 0..<max(0, burst.events) {
                // Omori-like: a cube of a uniform draw crowds the sequence towards its start.
                let offset = index == 0 ? 0 : Int64(span * pow(generator.uniform(), 3))
                var time = burst.at + min(offset, burst.spanMilliseconds - 1)
                if boundaryEvents, generator.next() % 20 == 0 { time -= time % 1000 }
                var event = generator.event(at: max(burst.at, time), near: town, spread: 0.15, until: to)
                if index == 0 { event.mag = 7.0 }
                events.append(event)
            }
        }
        return Catalogue.sortedByTime(events)
    }

    /// The catalogue's random numbers (`SplitMix64`) and the tables that make events look real.
    private struct Generator {
        struct Town {
            var name: String
            var latitude: Double
            var longitude: Double
            var net: String
        }

        static let towns = [
            Town(name: "Ridgecrest, CA", latitude: 35.62, longitude: -117.67, net: "ci"),
            Town(name: "Anza, CA", latitude: 33.56, longitude: -116.67, net: "ci"),
            Town(name: "The Geysers, CA", latitude: 38.78, longitude: -122.76, net: "nc"),
            Town(name: "Petrolia, CA", latitude: 40.33, longitude: -124.29, net: "nc"),
            Town(name: "Anchorage, Alaska", latitude: 61.22, longitude: -149.9, net: "ak"),
            Town(name: "Sand Point, Alaska", latitude: 55.34, longitude: -160.5, net: "ak"),
            Town(name: "Pāhala, Hawaii", latitude: 19.2, longitude: -155.48, net: "hv"),
            Town(name: "Volcano, Hawaii", latitude: 19.43, longitude: -155.24, net: "hv"),
            Town(name: "Tobelo, Indonesia", latitude: 1.73, longitude: 128.01, net: "us"),
            Town(name: "Jalālābād, Afghanistan", latitude: 34.43, longitude: 70.45, net: "us"),
            Town(name: "Ovalle, Chile", latitude: -30.6, longitude: -71.2, net: "us"),
            Town(name: "Hualien City, Taiwan", latitude: 23.98, longitude: 121.6, net: "us"),
            Town(name: "Kanysh-Kyya, Kyrgyzstan", latitude: 41.9, longitude: 71.1, net: "us"),
            Town(name: "Suva, Fiji", latitude: -18.14, longitude: 178.44, net: "us"),
            Town(name: "Adak, Alaska", latitude: 51.88, longitude: -176.66, net: "us"),
        ]
        static let directions = [
            "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
        ]
        static let nets = ["us", "ci", "nc", "ak", "hv"]

        private var random: SplitMix64
        /// Makes every id unique across the catalogue.
        private var serial: UInt64 = 0

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
        }

        mutating func next() -> UInt64 {
            random.next()
        }

        /// In `0..<1`.
        mutating func uniform() -> Double {
            random.uniform()
        }

        /// A new id of `net`, in the shape that network's ids have.
        mutating func id(net: String) -> String {
            serial += 1
            switch net {
            case "us":
                let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
                var code = ""
                var rest = serial
                repeat {
                    code = String(letters[Int(rest % 36)]) + code
                    rest /= 36
                } while rest > 0
                return "us7000" + String(repeating: "a", count: max(0, 4 - code.count)) + code
            case "ci": return "ci" + String(40_000_000 + serial)
            case "nc": return "nc" + String(70_000_000 + serial)
            case "ak": return "ak0" + String(250_000_000 + serial)
            default: return "hv" + String(74_000_000 + serial)
            }
        }

        /// An event at `time`, last updated up to 30 days later but not after `until` (the
        /// catalogue's end, which stands for now).
        mutating func event(at time: Int64, near town: Town, spread: Double, until: Int64) -> Event {
            // Gutenberg–Richter with b = 1: each unit of magnitude ten times rarer, cut at 7.
            let mag = min(7.0, 2.5 - log10(max(1e-9, 1 - uniform())))
            let rounded = (mag * 100).rounded() / 100
            let net = next() % 4 == 0 ? Self.nets[Int(next() % 5)] : town.net
            let id = self.id(net: net)
            var ids = [id]
            var sources = [net]
            if next() % 20 == 0 {
                for _ in 0..<(1 + next() % 2) {
                    let other = Self.nets[Int(next() % 5)]
                    ids.append(self.id(net: other))
                    if !sources.contains(other) { sources.append(other) }
                }
            }
            let latitude = min(90, max(-90, town.latitude + (uniform() * 2 - 1) * spread))
            var longitude = town.longitude + (uniform() * 2 - 1) * spread
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            let depth = (600 * pow(uniform(), 4) * 1000).rounded() / 1000
            let kilometres = 1 + next() % 120
            let direction = Self.directions[Int(next() % 16)]
            let magType: String
            switch net {
            case "us": magType = rounded >= 5.5 ? "mww" : "mb"
            case "nc", "hv": magType = next() % 2 == 0 ? "md" : "ml"
            default: magType = "ml"
            }
            var types = ["origin", "phase-data"]
            if rounded >= 4 { types = ["dyfi", "losspager", "origin", "phase-data", "shakemap"] }
            let deleted = next() % 500 == 0
            return Event(
                id: id, ids: ids, time: time, updated: max(time, min(until, time + Int64(next() % (30 * 86_400_000)))),
                mag: rounded,
                magType: magType, place: "\(kilometres) km \(direction) of \(town.name)",
                longitude: (longitude * 10_000).rounded() / 10_000, latitude: (latitude * 10_000).rounded() / 10_000,
                depth: depth, type: next() % 100 == 0 ? "quarry blast" : "earthquake",
                status: deleted ? "deleted" : (next() % 8 == 0 ? "automatic" : "reviewed"), net: net,
                sources: sources, types: types, rms: Double(10 + next() % 140) / 100)
        }
    }
}
