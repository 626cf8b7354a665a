import Testing

@testable import QuakesCore

/// `QuakeField.set` and `Quake`'s accessors each pair every field with its property; a field either
/// leaves out would be stored as null, and digested as one, without a word.
@Suite struct QuakeFieldTests {
    /// A value of `field`'s kind unlike any other field's, so that a field read from the wrong
    /// property shows.
    private func value(of field: QuakeField) -> QuakeField.Value {
        let number = Int64(field.rawValue + 1)
        return switch field.kind {
        case .text: .text("text of \(field.name)")
        case .integer: .integer(number * 1_000 + 7)
        case .real: .real(Double(number) + 0.25)
        }
    }

    @Test(arguments: QuakeField.allCases) func everyFieldReadsBackWhatWasSet(field: QuakeField) {
        var quake = Quake(id: "", time: 0, longitude: 0, latitude: 0)
        field.set(value(of: field), in: &quake)
        for other in QuakeField.allCases {
            let read = other.value(of: quake)
            if other == field {
                #expect(read == value(of: field), "\(field.name)")
            } else {
                // Only the required fields have a value when unset.
                if !other.isRequired { #expect(read == nil, "\(other.name) after setting \(field.name)") }
                #expect(read != value(of: other), "\(other.name) after setting \(field.name)")
            }
        }
    }
}
