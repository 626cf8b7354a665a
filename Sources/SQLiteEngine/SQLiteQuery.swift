import QuakesCore
import SQLite

/// The SQLite engine's SQL for the engine-neutral query values: filters, sorts and sections, each
/// with bound parameters (nothing a user types is pasted into SQL), and the query functions of
/// `SQLFunctionNames` where SQL alone cannot compute what Swift does.
enum SQLiteQuery {
    /// The filter's conditions, ANDed, over the `quake` table.
    static func condition(_ filter: QuakeFilter) -> SQLCondition {
        var condition = SQLCondition()
        if let earliest = filter.earliest { condition.add("time >= ?", .integer(earliest)) }
        if let before = filter.before { condition.add("time < ?", .integer(before)) }
        if let latest = filter.latest { condition.add("time <= ?", .integer(latest)) }
        if let minimum = filter.minimumMagnitude { condition.add("mag >= ?", .real(minimum)) }
        if let maximum = filter.maximumMagnitude { condition.add("mag <= ?", .real(maximum)) }
        if let minimum = filter.minimumDepth { condition.add("depth >= ?", .real(minimum)) }
        if let maximum = filter.maximumDepth { condition.add("depth <= ?", .real(maximum)) }
        if let eventType = filter.eventType { condition.add("type = ? COLLATE NOCASE", .text(eventType)) }
        if let status = filter.status { condition.add("status = ? COLLATE NOCASE", .text(status)) }
        if let alert = filter.alert { condition.add("alert = ? COLLATE NOCASE", .text(alert)) }
        if filter.tsunamiOnly { condition.add("tsunami = 1") }
        if let box = filter.box {
            condition.add("latitude BETWEEN ? AND ?", .real(box.minimumLatitude), .real(box.maximumLatitude))
            if box.minimumLongitude <= box.maximumLongitude {
                condition.add("longitude BETWEEN ? AND ?", .real(box.minimumLongitude), .real(box.maximumLongitude))
            } else {
                condition.add(
                    "(longitude >= ? OR longitude <= ?)", .real(box.minimumLongitude),
                    .real(box.maximumLongitude))
            }
        }
        if let circle = filter.circle {
            // A latitude band first: a cheap test that spares most rows the trigonometry.
            let band = circle.latitudeBand
            condition.add("latitude BETWEEN ? AND ?", .real(band.lowerBound), .real(band.upperBound))
            condition.add(
                "\(SQLFunctionNames.distance)(latitude, longitude, ?, ?) <= ?", .real(circle.latitude),
                .real(circle.longitude), .real(circle.radius))
        }
        if let placeContains = filter.placeContains {
            condition.add("\(SQLFunctionNames.contains)(place, ?)", .text(TextFolding.fold(placeContains)))
        }
        return condition
    }

    /// The column or expression of a sort key, with the collation text needs; `?` stands for the
    /// coordinates of the point distances are measured from.
    static func column(_ key: SortSpec.Key) -> String {
        switch key {
        case .time: "time"
        case .magnitude: "mag"
        case .depth: "depth"
        case .place: "place COLLATE \(SQLFunctionNames.caseInsensitive)"
        case .significance: "sig"
        case .distance: "\(SQLFunctionNames.distance)(latitude, longitude, ?, ?)"
        }
    }

    /// `ORDER BY …` with the tie-breakers, and the values of its parameters (the coordinates of
    /// `origin` for a distance). Missing values come last in either direction: SQLite puts NULL
    /// first in ascending order, so ascending terms say `NULLS LAST`, and descending ones keep the
    /// default, which lets the magnitude index serve them.
    static func orderBy(_ sort: SortSpec, origin: GeoPoint?) -> (clause: String, values: [SQLValue]) {
        var values: [SQLValue] = []
        var parts = sort.terms.map { term in
            if term.key == .distance {
                values += [.real(origin?.latitude ?? 0), .real(origin?.longitude ?? 0)]
            }
            return term.ascending
                ? "\(column(term.key)) ASC" + (term.key == .time ? "" : " NULLS LAST")
                : "\(column(term.key)) DESC"
        }
        if !sort.terms.contains(where: { $0.key == .time }) { parts.append("time DESC") }
        parts.append("id ASC")
        return ("ORDER BY " + parts.joined(separator: ", "), values)
    }

    /// The SQL expression whose value is a row's section (NULL for the `unknown` section), computed
    /// exactly as `SectionKey.value(of:zone:)` computes it in Swift.
    static func sectionExpression(_ key: SectionKey) -> String {
        switch key {
        case .hour, .day, .week, .month:
            "\(SQLFunctionNames.local)(time, \(SQLFunctionNames.localUnits.firstIndex(of: key.unit!)!))"
        case .magnitude: "\(SQLFunctionNames.band)(mag)"
        case .type: "lower(type)"
        case .network: "net"
        case .alert: "lower(alert)"
        }
    }

    /// The rows of one section: ranges for time and magnitude, so indexes serve them.
    static func sectionCondition(_ key: SectionKey, _ rows: SectionKey.Rows) -> SQLCondition {
        var condition = SQLCondition()
        switch rows {
        case .missing: condition.add("\(key.field.name) IS NULL")
        case let .times(range):
            condition.add("time >= ? AND time < ?", .integer(range.lowerBound), .integer(range.upperBound))
        case let .magnitudes(range):
            condition.add("mag >= ? AND mag < ?", .real(range.lowerBound), .real(range.upperBound))
        case let .text(text): condition.add("\(sectionExpression(key)) = ?", .text(text))
        }
        return condition
    }

    /// Reads a value of a section's SQL expression.
    static func sectionValue(_ statement: Statement, at column: Int32) -> SectionValue {
        switch statement.type(at: column) {
        case .null: .none
        case .integer, .real: .number(statement.int64(at: column) ?? 0)
        case .text, .blob: .text(statement.string(at: column) ?? "")
        }
    }
}

/// A WHERE clause under construction: conditions to AND, with their parameters in order.
struct SQLCondition: Sendable {
    private(set) var clauses: [String] = []
    private(set) var values: [SQLValue] = []

    mutating func add(_ clause: String, _ values: SQLValue...) {
        clauses.append(clause)
        self.values += values
    }

    /// `WHERE a AND b`, or nothing.
    var whereClause: String {
        clauses.isEmpty ? "" : "WHERE " + clauses.concatenated(separator: " AND ")
    }

    /// This condition and `other`, ANDed.
    func and(_ other: SQLCondition) -> SQLCondition {
        var combined = self
        combined.clauses += other.clauses
        combined.values += other.values
        return combined
    }
}
