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
            checkSkimmed(chunk)
            let batch = try chunk.decode()
            for quake in batch.quakes { checkDecoded(quake) }
        }
    } catch is JSONSyntaxError {
        // A malformed document: rejected, as it should be.
    } catch {
        fatalError("unexpected error \(error)")
    }
}

/// What a re-ingest's skim of a chunk must agree on with decoding it: the same syntax error, and
/// for every feature it skims, valid JSON with the ids, feed time and fingerprint the decoder reads.
func checkSkimmed(_ chunk: FeatureChunk) {
    let decoded = Result { try chunk.decode() }
    let skimmed = Result { try chunk.prepare(skimming: true) }
    switch (decoded, skimmed) {
    case let (.failure(error as JSONSyntaxError), .failure(skimError as JSONSyntaxError)):
        precondition(error == skimError, "skimming fails with \(skimError), decoding with \(error)")
    case let (.success(batch), .success(skimmedBatch)):
        var usable = skimmedBatch.quakes.count
        for feature in skimmedBatch.features {
            guard case let .skimmed(skim, element) = feature else { continue }
            let decoding: IngestBatch.Decoding
            do {
                decoding = try skimmedBatch.decode(element: element)
            } catch {
                fatalError("a skimmed feature does not decode: \(error)")
            }
            guard case let .usable(decoded) = decoding else { continue }
            usable += 1
            precondition(skim.id == decoded.quake.id, "the skim reads id \(skim.id), not \(decoded.quake.id)")
            precondition(skim.otherIDs == decoded.quake.otherIDs, "the skim reads other ids \(skim.otherIDs)")
            precondition(skim.generated == decoded.quake.feedGenerated, "the skim reads another feed time")
            precondition(skim.fingerprint == decoded.fingerprint, "the skim fingerprints other bytes")
        }
        precondition(
            usable == batch.quakes.count, "skimming finds \(usable) usable features, decoding \(batch.quakes.count)")
    default:
        fatalError("skimming gives \(skimmed), decoding \(decoded)")
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
