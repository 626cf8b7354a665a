/// What the identity rules need of a feature before deciding whether to decode it: its ids, the
/// feed time it carries, and the fingerprint of its bytes, read by checking it as JSON only.
///
/// A re-ingest skims every feature; the store decodes only those whose fingerprint is not that of
/// the version it holds (`IdentityRules.apply(_:owners:to:)`). Skimming checks every byte as the
/// decoder would (the same `JSONScanner`), but builds no `Quake`, no strings but the ids, and no
/// digest, which is most of what decoding costs.
package struct FeatureSkim: Sendable, Equatable {
    /// The feature's `id`.
    package var id: String
    /// The ids of its `properties.ids` other than `id`, each once, as `Quake.otherIDs` has them.
    package var otherIDs: [String]
    /// The feed time of the version: the feature's own `generated`, else the document's.
    package var generated: Int64?
    /// The `FeatureFingerprint` of its bytes.
    package var fingerprint: Int64

    /// Every id the feature names, its own first, each once, as `Quake.namedIDs` has them.
    package var namedIDs: [String] {
        [id] + otherIDs
    }

    /// Skims the feature that fills `element` (surrounding whitespace allowed); nil when the
    /// skim cannot stand for it: the element is not valid JSON (decoding it reports the error),
    /// or its members are not read exactly as the decoder reads them (an escaped key among its
    /// properties, a missing or non-string id), which decoding settles. `feedGenerated` is the
    /// document's `metadata.generated`.
    static func skim(_ element: UnsafeRawBufferPointer, feedGenerated: Int64?) -> FeatureSkim? {
        var scanner = JSONScanner(element)
        do {
            guard scanner.peek() == .openBrace, try scanner.beginObject() else { return nil }
            var id: String?
            var ids: String?
            var hasProperties = false
            var generated: Int64?
            repeat {
                // The members the decoder matches, matched as it does (`FeatureDecoder.decodeFeature`).
                let key = try scanner.key()
                if scanner.matches(key, "id") {
                    guard id == nil, scanner.peek() == .quote else { return nil }
                    id = scanner.string(try scanner.scanString())
                } else if scanner.matches(key, "properties") {
                    guard !hasProperties, scanner.peek() == .openBrace else { return nil }
                    hasProperties = true
                    ids = try skimProperties(&scanner)
                } else if scanner.matches(key, "generated"), let byte = scanner.peek(), byte == .minus || byte.isDigit {
                    generated = scanner.integer(try scanner.scanNumber())
                } else {
                    try scanner.skipValue()
                }
            } while try scanner.nextMember(closer: .closeBrace)
            scanner.skipWhitespace()
            guard scanner.isAtEnd, let id, !id.isEmpty, let ids else { return nil }
            return FeatureSkim(
                id: id, otherIDs: Quake.otherIDs(in: ids, besides: id), generated: generated ?? feedGenerated,
                fingerprint: FeatureFingerprint.of(element))
        } catch {
            return nil
        }
    }

    /// Checks `properties` and returns its `ids` string ("" when it has none or it is null: no
    /// other ids either way); nil when a key has escapes or `ids` is not a string.
    private static func skimProperties(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> String? {
        var ids = ""
        var seen = false
        guard try scanner.beginObject() else { return ids }
        repeat {
            let key = try scanner.key()
            guard !key.hasEscapes else { return nil }
            if key.count == 3, scanner.matches(key, "ids") {
                guard !seen else { return nil }
                seen = true
                if scanner.peek() == .quote {
                    ids = scanner.string(try scanner.scanString())
                } else if try !scanner.consumeNull() {
                    return nil
                }
            } else {
                try scanner.skipValue()
            }
        } while try scanner.nextMember(closer: .closeBrace)
        return ids
    }
}
