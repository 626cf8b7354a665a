/// One stored event's fields, read one at a time where a reader has them: what the JSON listings
/// write from, so that an export of a million events builds no `Quake`, and no `String` per text
/// field, per row. A `Quake` is one too, so every engine and writer can speak it.
///
/// A row is valid only during the call that hands it over (a reader's cursor moves on after it).
package protocol QuakeRow {
    /// The field's value, for an integer field (times are milliseconds); nil when it has none.
    func integer(_ field: QuakeField) -> Int64?
    /// The field's value, for a real field; nil when it has none.
    func real(_ field: QuakeField) -> Double?
    /// Calls `body` with the UTF-8 of a text field (valid UTF-8, as a `String` would hold it), or
    /// nil when it has none; the bytes are valid only during the call. The one exception: the
    /// engines' private rows that only `Quake(copying:)` reads, which repairs what it is given.
    func withText<Result>(_ field: QuakeField, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows
        -> Result
    /// The whole event, for writers that need one.
    var quake: Quake { get }
}

extension Quake {
    /// The event `row` holds, field by field.
    package init(copying row: some QuakeRow) {
        self.init(id: "", time: 0, longitude: 0, latitude: 0)
        for field in QuakeField.allCases {
            let value: QuakeField.Value? =
                switch field.kind {
                case .text: row.withText(field) { $0.map { .text(String(decoding: $0, as: UTF8.self)) } }
                case .integer: row.integer(field).map(QuakeField.Value.integer)
                case .real: row.real(field).map(QuakeField.Value.real)
                }
            field.set(value, in: &self)
        }
    }
}

/// Each field read straight from its property, by kind: the one place that pairs a field with its
/// property for reading (`QuakeField.set` writes), with no `QuakeField.Value` made on the way.
/// `QuakeFieldTests` reads every field back through them.
extension Quake: QuakeRow {
    @inlinable
    public func integer(_ field: QuakeField) -> Int64? {
        switch field {
        case .time: time
        case .updated: updated
        case .tsunami: tsunami.map(Int64.init)
        case .significance: significance.map(Int64.init)
        case .feltReports: feltReports.map(Int64.init)
        case .stationCount: stationCount.map(Int64.init)
        case .timeZoneOffset: timeZoneOffset.map(Int64.init)
        case .feedGenerated: feedGenerated
        default: nil
        }
    }

    @inlinable
    public func real(_ field: QuakeField) -> Double? {
        switch field {
        case .magnitude: magnitude
        case .longitude: longitude
        case .latitude: latitude
        case .depth: depth
        case .reportedIntensity: reportedIntensity
        case .estimatedIntensity: estimatedIntensity
        case .minimumDistance: minimumDistance
        case .rms: rms
        case .azimuthalGap: azimuthalGap
        default: nil
        }
    }

    /// The field's value, for a text field; nil when it has none.
    @inlinable
    public func text(_ field: QuakeField) -> String? {
        switch field {
        case .id: id
        case .magnitudeType: magnitudeType
        case .place: place
        case .eventType: eventType
        case .status: status
        case .alert: alert
        case .network: network
        case .code: code
        case .ids: ids
        case .sources: sources
        case .productTypes: productTypes
        case .url: url
        case .detail: detail
        case .title: title
        case .extra: extra
        default: nil
        }
    }

    package func withText<Result>(_ field: QuakeField, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result)
        rethrows -> Result
    {
        guard var text = text(field) else { return try body(nil) }
        return try text.withUTF8 { try body($0) }
    }

    package var quake: Quake { self }
}
