/// Cuts a GeoJSON document into chunks of whole features as its bytes arrive, in blocks of any size.
///
/// It follows only the structure of the document (strings, escapes, nesting), which is cheap, and
/// leaves checking each feature to `FeatureDecoder`, on many tasks at once. Memory stays bounded
/// whatever the document's size: only the current chunk and the document's small outline are held.
/// The outline is the document without the elements of its top-level `features` array, such as
/// `{"type":"FeatureCollection","metadata":{…},"features":[],"bbox":[…]}`; `FeedOutline` checks
/// it at the end. A single `Feature` document (a USGS detail file) is all outline.
struct FeedSplitter {
    /// About how many bytes of features go into one chunk. A chunk ends with the feature that
    /// crosses this size, so one large feature makes one large chunk.
    let chunkSize: Int

    private enum Phase { case beforeDocument, inDocument, afterDocument }

    private var phase = Phase.beforeDocument
    /// The nesting depth outside strings: 1 inside the document object, 2 inside its members' values.
    private var depth = 0
    private var inString = false
    private var afterBackslash = false
    /// The document offset of the current block's first byte.
    private var offset: Int64 = 0
    /// Bytes of the current block before this index are already in `outline` or `current`.
    private var copied = 0

    // The outline, and the key read at depth 1, to spot `"features": [`.
    private var outline: [UInt8] = []
    private var key: [UInt8] = []
    private var lastStringWasFeaturesKey = false
    private var valueIsFeatures = false
    private var featuresStart: Int64 = 0
    private var feedGenerated: Int64?
    private var outlineGap: FeedOutline.Gap?

    // The features array being cut into chunks.
    private var inFeatures = false
    private var elementStart: Int?
    private var afterComma = false
    private var current: [UInt8] = []
    private var elements: [Range<Int>] = []
    private var currentOrigin: Int64 = 0
    private var featureCount = 0

    init(chunkSize: Int) {
        self.chunkSize = chunkSize
    }

    /// Takes the next bytes of the document, calling `emit` with each chunk that fills up.
    mutating func consume(_ block: UnsafeRawBufferPointer, emit: (FeatureChunk) throws -> Void) throws {
        guard let base = block.baseAddress?.assumingMemoryBound(to: UInt8.self), !block.isEmpty else { return }
        let count = block.count
        var index = 0
        copied = 0

        while index < count {
            if inString {
                index = scanString(base, from: index, count: count)
                continue
            }
            if depth > 2 {
                index = skipNested(base, from: index, count: count)
                guard index < count else { break }
            }
            let byte = base[index]
            switch byte {
            case .space, .tab, .newline, .carriageReturn:
                break

            case .quote:
                try noteValue(byte, at: index)
                inString = true
                if depth == 1 { key.removeAll(keepingCapacity: true) }

            case .openBracket where depth == 1 && valueIsFeatures:
                // `"features": [` — from here on, bytes go to chunks instead of the outline.
                outline.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: index + 1 - copied))
                copied = index + 1
                feedGenerated = FeedOutline.generated(inPrefix: outline)
                valueIsFeatures = false
                featuresStart = offset + Int64(index + 1)
                outlineGap = FeedOutline.Gap(at: outline.count, length: 0)
                inFeatures = true
                afterComma = false
                current.removeAll(keepingCapacity: true)
                currentOrigin = featuresStart
                depth = 2

            case .openBrace, .openBracket:
                try noteValue(byte, at: index)
                depth += 1

            case .closeBracket where inFeatures && depth == 2:
                try endElement(at: index, base: base, closing: true, emit: emit)
                inFeatures = false
                outlineGap?.length = offset + Int64(index) - featuresStart
                depth = 1

            case .closeBrace, .closeBracket:
                guard depth > 0 else { throw unexpected(byte, at: index) }
                if depth == 1 || (inFeatures && depth == 2) {
                    let expected = depth == 1 ? "expected ',' or '}'" : "expected ',' or ']'"
                    guard byte == .closeBrace, depth == 1 else { throw unexpected(byte, at: index, expected) }
                    phase = .afterDocument
                }
                valueIsFeatures = false
                depth -= 1

            case .comma:
                guard depth > 0 else { throw unexpected(byte, at: index) }
                if inFeatures, depth == 2 { try endElement(at: index, base: base, closing: false, emit: emit) }
                valueIsFeatures = false

            case .colon:
                guard depth > 0 else { throw unexpected(byte, at: index) }
                if depth == 1 { valueIsFeatures = lastStringWasFeaturesKey }

            default:
                let documentOffset = offset + Int64(index)
                if phase == .beforeDocument, documentOffset < 3, byte == byteOrderMark[Int(documentOffset)] {
                    // A UTF-8 byte order mark: RFC 8259 lets a parser ignore it, and some editors add one.
                    copied = index + 1
                    break
                }
                try noteValue(byte, at: index)
            }
            index += 1
        }

        let rest = UnsafeBufferPointer(start: base + copied, count: count - copied)
        if inFeatures { current.append(contentsOf: rest) } else { outline.append(contentsOf: rest) }
        offset += Int64(count)
    }

    /// Ends the document: returns its outline, or fails if the document stopped early.
    mutating func finish() throws -> FeedOutline {
        switch phase {
        case .beforeDocument:
            let reason = offset == 0 ? "the document is empty" : "the document has nothing but whitespace"
            throw JSONSyntaxError(offset: offset, reason: reason)
        case .inDocument:
            throw JSONSyntaxError(offset: offset, reason: "unexpected end of data (the document is cut short)")
        case .afterDocument:
            return try FeedOutline(outline: outline, gap: outlineGap)
        }
    }

    // MARK: - Private

    /// Scans string bytes from `index` to the closing quote or the block's end; returns where it stopped.
    private mutating func scanString(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        var index = index
        if afterBackslash {
            afterBackslash = false
            if depth == 1 { noteKeyByte(base[index]) }
            return index + 1
        }
        let start = index
        index = ByteRuns.quoteOrBackslash(base, from: index, count: count)
        if depth == 1 {
            for byte in UnsafeBufferPointer(start: base + start, count: index - start) { noteKeyByte(byte) }
        }
        guard index < count else { return index }
        if base[index] == .backslash {
            afterBackslash = true
            if depth == 1 { noteKeyByte(.backslash) }
        } else {
            inString = false
            if depth == 1 { lastStringWasFeaturesKey = key.elementsEqual("features".utf8) }
        }
        return index + 1
    }

    /// Passes over the inside of a feature (or of a value deep in the outline), where only strings
    /// and brackets matter, in a loop of its own: returns at the bracket that closes back to depth
    /// 2, which the caller handles, or at the block's end, inside a string perhaps. A feature has
    /// some 70 strings, and going through `consume`'s switch for each of their quotes would make the
    /// splitter much slower.
    private mutating func skipNested(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        var depth = self.depth
        defer { self.depth = depth }
        while true {
            index = ByteRuns.quoteOrBracket(base, from: index, count: count)
            guard index < count else { return count }
            switch base[index] {
            case .quote:
                index += 1
                while true {
                    index = ByteRuns.quoteOrBackslash(base, from: index, count: count)
                    guard index < count else {
                        inString = true
                        return count
                    }
                    if base[index] == .quote { break }
                    // A backslash and the byte it escapes, which may be in the next block.
                    index += 2
                    guard index <= count else {
                        inString = true
                        afterBackslash = true
                        return count
                    }
                }
            case .openBrace, .openBracket:
                depth += 1
            case .closeBrace, .closeBracket:
                guard depth > 3 else { return index }
                depth -= 1
            default:
                // Bytes `quoteOrBracket` also stops at, which mean nothing here.
                break
            }
            index += 1
        }
    }

    /// Handles a byte that starts a value or a key outside strings.
    private mutating func noteValue(_ byte: UInt8, at index: Int) throws {
        switch depth {
        case 0:
            guard phase == .beforeDocument, byte == .openBrace else { throw unexpected(byte, at: index) }
            phase = .inDocument
        case 1:
            valueIsFeatures = false
        case 2 where inFeatures && elementStart == nil:
            elementStart = current.count + index - copied
        default:
            break
        }
    }

    /// Ends the feature before the ',' or ']' at `index`, and emits the chunk once it is full
    /// or the array ends.
    private mutating func endElement(
        at index: Int, base: UnsafePointer<UInt8>, closing: Bool,
        emit: (FeatureChunk) throws -> Void
    ) throws {
        if let start = elementStart {
            elements.append(start..<(current.count + index - copied))
            elementStart = nil
            featureCount += 1
        } else if !closing || afterComma {
            throw unexpected(base[index], at: index, closing ? "expected a feature after ','" : "expected a feature")
        }
        afterComma = !closing
        guard closing || current.count + index - copied >= chunkSize else { return }
        current.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: index - copied))
        copied = index
        if !elements.isEmpty {
            let chunk = FeatureChunk(
                bytes: current, elements: elements, firstIndex: featureCount - elements.count,
                origin: currentOrigin, feedGenerated: feedGenerated)
            elements.removeAll(keepingCapacity: true)
            current = []
            current.reserveCapacity(chunkSize + chunkSize / 4)
            try emit(chunk)
        } else {
            current.removeAll(keepingCapacity: true)
        }
        currentOrigin = offset + Int64(index)
    }

    private mutating func noteKeyByte(_ byte: UInt8) {
        if key.count < 9 { key.append(byte) }
    }

    /// An error for an out-of-place byte, worded for where it was found.
    private func unexpected(_ byte: UInt8, at index: Int, _ expectation: String? = nil) -> JSONSyntaxError {
        let reason: String
        if let expectation {
            reason = "unexpected \(describeByte(byte)) (\(expectation))"
        } else if phase == .afterDocument {
            reason = "unexpected \(describeByte(byte)) after the end of the document"
        } else if byte == .openBracket {
            reason = "the document is a JSON array, not a GeoJSON object"
        } else if byte == UInt8(ascii: "<") {
            reason = "the document is not JSON (it looks like HTML or XML)"
        } else {
            reason = "the document is not a JSON object: unexpected \(describeByte(byte))"
        }
        return JSONSyntaxError(offset: offset + Int64(index), reason: reason)
    }
}

private let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
