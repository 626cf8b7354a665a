// quakes-fuzz: the feed decoder under libFuzzer (`make fuzz`), or, built normally, a replayer of
// saved inputs (`quakes-fuzz FILE...`), which the regression tests of found crashes use.
//
// Each input goes through what a fetch does with a body: the splitter, in two blocks cut at a
// point the input chooses, into small chunks, then the feature decoder. Errors are expected; a
// crash, a hang, a sanitizer report, or a decoded quake that breaks the model's invariants is a bug.

import Foundation
import QuakesCore

#if FUZZING
    /// libFuzzer's driver: it parses libFuzzer's options from the command line and calls `callback` with
    /// each input. Declared here because it is in the fuzzer runtime, which has no module to import.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
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
        return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
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
