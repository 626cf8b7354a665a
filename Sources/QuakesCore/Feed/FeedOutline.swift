/// What a document is, read from its outline once all of it has arrived: a FeatureCollection whose
/// features were streamed, or a single Feature.
///
/// The outline is the whole document except the features `FeedSplitter` cut out, so checking it
/// here completes the check of the document: every byte is checked by either this or `FeatureDecoder`.
struct FeedOutline: Sendable {
    /// Where the splitter cut the features out of the outline, so offsets can be mapped back.
    struct Gap: Sendable {
        var at: Int
        var length: Int64
    }

    /// The features still inside the outline: the whole document when it is a single Feature, or
    /// a features array the splitter could not see (a key written with escapes, `"feat\u0075res"`).
    /// Empty for a normal FeatureCollection.
    var remainingFeatures: FeatureChunk?
    /// The document's `metadata.generated`, when it has one: the moment a feed's time range ends.
    var generated: Int64?

    /// Checks `outline` and finds what kind of document it is; `gap` is where features were cut out.
    init(outline: [UInt8], gap: Gap?) throws {
        do {
            (remainingFeatures, generated) = try outline.withUnsafeBytes { bytes in
                try Self.read(bytes, outline: outline)
            }
        } catch let error as JSONSyntaxError {
            // Offsets past the cut-out features move back to where they are in the document.
            var mapped = error
            if let gap, error.offset >= Int64(gap.at) { mapped.offset += gap.length }
            throw mapped
        }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, outline: [UInt8]) throws(JSONSyntaxError)
        -> (FeatureChunk?, generated: Int64?)
    {
        var scanner = JSONScanner(bytes)
        var type: String?
        var typeOffset: Int64 = 0
        var featuresArrays = 0
        var featureRanges: [Range<Int>] = []
        var featuresNotArray = false
        var generated: Int64?
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                let name = scanner.string(key)
                switch name {
                case "type":
                    guard type == nil else { throw scanner.error("the document has two 'type' members", at: key.start) }
                    typeOffset = Int64(key.start)
                    guard scanner.peek() == .quote else {
                        throw scanner.error("the document's 'type' is not a string")
                    }
                    type = scanner.string(try scanner.scanString())
                case "features":
                    featuresArrays += 1
                    guard featuresArrays == 1 else {
                        throw scanner.error("the document has two 'features' members", at: key.start)
                    }
                    guard scanner.peek() == .openBracket else {
                        featuresNotArray = true
                        try scanner.skipValue()
                        break
                    }
                    if try scanner.beginArray() {
                        repeat {
                            scanner.skipWhitespace()
                            let start = scanner.position
                            try scanner.skipValue()
                            featureRanges.append(start..<scanner.position)
                        } while try scanner.nextMember(closer: .closeBracket)
                    }
                case "metadata":
                    generated = try readGenerated(&scanner)
                default:
                    try scanner.skipValue()
                }
            } while try scanner.nextMember(closer: .closeBrace)
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw scanner.unexpected("expected the end of the document") }

        switch type {
        case "FeatureCollection":
            guard featuresArrays > 0 else {
                throw scanner.error("the FeatureCollection has no 'features' array", at: Int(typeOffset))
            }
            guard !featuresNotArray else { throw scanner.error("the document's 'features' is not an array", at: 0) }
            guard !featureRanges.isEmpty else { return (nil, generated) }
            return (
                FeatureChunk(
                    bytes: outline, elements: featureRanges, firstIndex: 0, origin: 0, feedGenerated: generated),
                generated
            )
        case "Feature":
            guard featuresArrays == 0 else {
                throw scanner.error("a Feature document must not have a 'features' member", at: Int(typeOffset))
            }
            return (
                FeatureChunk(
                    bytes: outline, elements: [0..<outline.count], firstIndex: 0, origin: 0, feedGenerated: generated),
                generated
            )
        case nil:
            throw scanner.error("the document has no 'type': it is not GeoJSON", at: 0)
        case let other?:
            throw scanner.error(
                "the document is a GeoJSON '\(other)', not a FeatureCollection or Feature",
                at: Int(typeOffset))
        }
    }

    /// Reads `generated` from the `metadata` object at the scanner, skipping everything else.
    private static func readGenerated(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Int64? {
        guard scanner.peek() == .openBrace else {
            try scanner.skipValue()
            return nil
        }
        var generated: Int64?
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if scanner.matches(key, "generated"), let byte = scanner.peek(), byte == .minus || byte.isDigit {
                    generated = scanner.integer(try scanner.scanNumber())
                } else {
                    try scanner.skipValue()
                }
            } while try scanner.nextMember(closer: .closeBrace)
        }
        return generated
    }

    /// The `metadata.generated` of a document whose outline so far ends with `"features":[`, or nil
    /// when the metadata does not come first (or the prefix is not valid: the full check comes later).
    static func generated(inPrefix prefix: [UInt8]) -> Int64? {
        prefix.withUnsafeBytes { bytes in
            var scanner = JSONScanner(bytes)
            do {
                guard try scanner.beginObject() else { return nil }
                while true {
                    let key = try scanner.key()
                    if scanner.matches(key, "features") { return nil }
                    if scanner.matches(key, "metadata") { return try readGenerated(&scanner) }
                    try scanner.skipValue()
                    guard try scanner.nextMember(closer: .closeBrace) else { return nil }
                }
            } catch {
                return nil
            }
        }
    }
}
