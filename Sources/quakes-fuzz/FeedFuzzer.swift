// quakes-fuzz: the feed decoder under libFuzzer (`make fuzz`), or, built normally, a replayer of
// saved inputs (`quakes-fuzz FILE...`), which the regression tests of found crashes use.
//
// Each input goes through what a fetch does with a body: the splitter, in two blocks cut at a
// point the input chooses, into small chunks, then the feature decoder. Errors are expected; a
// crash, a hang, a sanitizer report, or a decoded quake that breaks the model's invariants is a bug.

import Foundation
@testable import QuakesCore

/// Decodes `bytes` as a fetch would and checks what comes out.
func decodeAsAFetchWould(_ bytes: UnsafeRawBufferPointer) {
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
            for quake in batch.quakes { check(quake) }
        }
    } catch is JSONSyntaxError {
        // A malformed document: rejected, as it should be.
    } catch {
        fatalError("unexpected error \(error)")
    }
}

/// What every stored quake satisfies, whatever the feed held.
func check(_ quake: Quake) {
    precondition(!quake.id.isEmpty, "an empty id")
    precondition(quake.longitude.isFinite && quake.latitude.isFinite, "non-finite coordinates")
    for value in [quake.magnitude, quake.depth, quake.reportedIntensity, quake.estimatedIntensity,
                  quake.minimumDistance, quake.rms, quake.azimuthalGap] {
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

#if FUZZING
/// libFuzzer's driver: it parses libFuzzer's options from the command line and calls `callback` with
/// each input. Declared here because it is in the fuzzer runtime, which has no module to import.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The program's entry point under the name SwiftPM links as `main`, so that libFuzzer's own
/// `main` is not needed and the driver runs from here.
@_cdecl("quakes_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}

/// The fuzz target, under the name libFuzzer's runtime expects.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    decodeAsAFetchWould(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
@main
struct Replay {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            bytes.withUnsafeBytes { decodeAsAFetchWould($0) }
            print("ok \(path)")
        }
    }
}
#endif
