/// How tables show a magnitude and a depth, the same in every command: with at least one decimal
/// and as many as the value has, up to two (a magnitude of 4.46 shown as 4.5 would look matched
/// by `--min-magnitude 4.5`, which leaves it out), a depth with its unit. Finer digits are a
/// feed's floating-point noise (1.79999995), not precision.
package enum FieldText {
    /// `4.46`, `4.5`, `9.0`, `-0.5`.
    package static func magnitude(_ value: Double) -> String {
        decimal(value)
    }

    /// `22.38 km`, `10.0 km`.
    package static func depth(_ value: Double) -> String {
        decimal(value) + " km"
    }

    private static func decimal(_ value: Double) -> String {
        var text = String(cFormat: "%.2f", value)
        if text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
