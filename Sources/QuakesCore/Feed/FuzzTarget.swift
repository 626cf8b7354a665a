import Foundation

// What the fuzzer (`quakes-fuzz`, `make fuzz`) runs on each input: the decoding a fetch does with a
// body, and the checks every decoded quake must pass. It lives here, at `package` access, so that the
// fuzzer needs no `@testable import` and every product builds in release too.

/// Decodes `bytes` as a fetch would and checks what comes out.
package func decodeAsAFetchWould(_ bytes: UnsafeRawBufferPointer) {
    // The first byte picks where the body is cut in two, so block boundaries are fuzzed too.
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) * bytes.count / 256
    var splitter = FeedSplitter(chunkSize: 97)
    var chunks: [FeatureChunk] = []
    do {
        try splitter.consume(UnsafeRawBufferPointer(rebasing: bytes[..<cut])) { chunks.append($0) }
        try splitter.consume(UnsafeRawBufferPointer(rebasing: bytes[cut...])) { chunks.append($0) }
        let outline = try splitter.finish()
        if let remaining = outline.remainingFeatures { chunks.append(remaining) }
        for chunk in chunks {
            let batch = try chunk.decode()
            for quake in batch.quakes { checkDecoded(quake) }
        }
    } catch is JSONSyntaxError {
        // A malformed document: rejected, as it should be.
    } catch {
        fatalError("unexpected error \(error)")
    }
}

/// What every stored quake satisfies, whatever the feed held.
func checkDecoded(_ quake: Quake) {
    precondition(!quake.id.isEmpty, "an empty id")
    precondition(quake.longitude.isFinite && quake.latitude.isFinite, "non-finite coordinates")
    for value in [
        quake.magnitude, quake.depth, quake.reportedIntensity, quake.estimatedIntensity,
        quake.minimumDistance, quake.rms, quake.azimuthalGap,
    ] {
        precondition(value?.isFinite ?? true, "a non-finite number")
    }
    // What a listing writes must read back.
    var json = JSONBuffer()
    QuakeFormats.writeJSONObject(quake, to: &json)
    json.bytes.withUnsafeBytes { bytes in
        var scanner = JSONScanner(bytes)
        do {
            try scanner.skipValue()
        } catch {
            fatalError("a listing of \(quake.id) is not JSON: \(error)")
        }
    }
}
