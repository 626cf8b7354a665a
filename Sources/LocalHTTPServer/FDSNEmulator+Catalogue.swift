extension FDSNEmulator {
    /// The events sorted by time, the numbers that filters read, and every id's event.
    ///
    /// The benchmark serves a million events, so a query binary-searches its time range, scans
    /// plain numbers (`Row`s) rather than events whose strings would be retained and released at
    /// every step, and with `limit` in time order stops as soon as its page is full.
    struct Catalogue: Sendable {
        /// What the numeric filters read, apart from the events so that a scan copies no strings.
        struct Row: Sendable {
            var time: Int64
            var updated: Int64
            /// NaN when unknown, which every comparison refuses.
            var mag: Double
            var latitude: Double
            var longitude: Double
            /// NaN when unknown.
            var depth: Double
            var deleted: Bool

            init(_ event: Event) {
                time = event.time
                updated = event.updated
                mag = event.mag ?? .nan
                latitude = event.latitude
                longitude = event.longitude
                depth = event.depth ?? .nan
                deleted = event.isDeleted
            }
        }

        /// What a query finds: too many to answer, or the positions to write, in order.
        enum Selection {
            case overCap(Int)
            case page(ArraySlice<Int>)
        }

        let events: [Event]
        let rows: [Row]
        let index: [String: Int]

        init(events unsorted: [Event]) {
            events = Self.sortedByTime(unsorted)
            rows = events.map(Row.init)
            var index: [String: Int] = [:]
            index.reserveCapacity(events.count)
            for (position, event) in events.enumerated() {
                for id in event.ids { index[id] = position }
                index[event.id] = position
            }
            self.index = index
        }

        /// Sorting positions keeps events of equal time in the order given, whatever the sort.
        static func sortedByTime(_ events: [Event]) -> [Event] {
            let times = events.map(\.time)
            return events.indices.sorted { (times[$0], $0) < (times[$1], $1) }.map { events[$0] }
        }

        /// How many events `parameters` select, before `limit` and `offset`.
        func count(_ parameters: Parameters) -> Int {
            var count = 0
            for position in range(parameters) where selects(parameters, position) { count += 1 }
            return count
        }

        /// The page a query answers: `limit` events after `offset` in the order asked for, or with no
        /// `limit` every event when there are no more than `cap`.
        func select(_ parameters: Parameters, cap: Int) -> Selection {
            let range = range(parameters)
            guard let limit = parameters.limit else {
                var matching: [Int] = []
                var count = 0
                for position in range where selects(parameters, position) {
                    count += 1
                    if count <= cap { matching.append(position) }
                }
                if count > cap { return .overCap(count) }
                return .page(order(matching, by: parameters.orderBy)[...])
            }
            let wanted = parameters.offset - 1 + limit
            var matching: [Int] = []
            switch parameters.orderBy {
            case .timeAscending:
                for position in range where selects(parameters, position) {
                    matching.append(position)
                    if matching.count == wanted { break }
                }
            case .time:
                // Newest first, but events of equal time stay in catalogue order: finish the last
                // run of equal times before stopping, then order the runs.
                var position = range.upperBound
                while position > range.lowerBound {
                    position -= 1
                    if matching.count >= wanted, rows[position].time != rows[matching[matching.count - 1]].time {
                        break
                    }
                    if selects(parameters, position) { matching.append(position) }
                }
                matching = order(matching.reversed(), by: .time)
            case .magnitude, .magnitudeAscending:
                matching = order(range.filter { selects(parameters, $0) }, by: parameters.orderBy)
            }
            let first = min(matching.count, parameters.offset - 1)
            return .page(matching[first..<min(matching.count, first + limit)])
        }

        /// The positions within `starttime` and `endtime`, found by binary search.
        private func range(_ parameters: Parameters) -> Range<Int> {
            let lower = parameters.start.map { start in firstPosition { $0 >= start } } ?? 0
            let upper = parameters.end.map { end in firstPosition { $0 > end } } ?? rows.count
            return lower..<max(lower, upper)
        }

        private func selects(_ parameters: Parameters, _ position: Int) -> Bool {
            parameters.selects(rows[position]) && (!parameters.readsText || parameters.selectsText(events[position]))
        }

        /// The first position whose time passes `test`, which must be false and then true along the times.
        private func firstPosition(where test: (Int64) -> Bool) -> Int {
            var low = 0
            var high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if test(rows[middle].time) { high = middle } else { low = middle + 1 }
            }
            return low
        }

        /// `matching` (in catalogue order) in the order asked for: by one column, then in catalogue order.
        private func order(_ matching: [Int], by column: OrderBy) -> [Int] {
            switch column {
            case .timeAscending:
                return matching
            case .time:
                // Newest first, each run of equal times kept in catalogue order.
                var result: [Int] = []
                result.reserveCapacity(matching.count)
                var end = matching.count
                while end > 0 {
                    var start = end - 1
                    while start > 0, rows[matching[start - 1]].time == rows[matching[end - 1]].time { start -= 1 }
                    result += matching[start..<end]
                    end = start
                }
                return result
            case .magnitude, .magnitudeAscending:
                // A missing magnitude sorts below every other, so last in ORDER BY mag DESC and
                // first in ASC, as MySQL puts NULL.
                let sign: Double = column == .magnitude ? -1 : 1
                var keys = matching.map { position in
                    let mag = rows[position].mag
                    return (key: sign * (mag.isNaN ? -Double.greatestFiniteMagnitude : mag), position: position)
                }
                keys.sort { ($0.key, $0.position) < ($1.key, $1.position) }
                return keys.map(\.position)
            }
        }
    }

    /// The last six numbers of a GeoJSON answer: the least and greatest longitude, latitude and depth.
    struct BoundingBox {
        private var west = Double.infinity
        private var south = Double.infinity
        private var shallowest = Double.infinity
        private var east = -Double.infinity
        private var north = -Double.infinity
        private var deepest = -Double.infinity

        mutating func add(_ event: Event, depth: Double?) {
            west = min(west, event.longitude)
            east = max(east, event.longitude)
            south = min(south, event.latitude)
            north = max(north, event.latitude)
            if let depth {
                shallowest = min(shallowest, depth)
                deepest = max(deepest, depth)
            }
        }

        var values: [Double?] {
            [west, south, shallowest, east, north, deepest].map { $0.isFinite ? $0 : nil }
        }
    }
}
