@testable import QuakesCore

/// A whole document run through the splitter and the decoder the way a fetch does, in blocks of
/// `blockSize` bytes and chunks of about `chunkSize`, but on one thread (`FeatureDocument`).
struct DecodedDocument {
    var quakes: [Quake] = []
    var problems: [FeatureProblem] = []
    var chunkCount = 0

    init(_ bytes: [UInt8], blockSize: Int = 1 << 20, chunkSize: Int = 64 * 1024) throws {
        let document = try bytes.withUnsafeBytes { try FeatureDocument($0, blockSize: blockSize, chunkSize: chunkSize) }
        (quakes, problems, chunkCount) = (document.quakes, document.problems, document.chunkCount)
    }

    init(_ text: String, blockSize: Int = 1 << 20) throws {
        try self.init(Array(text.utf8), blockSize: blockSize)
    }
}

/// The syntax error a document fails with, or nil when it decodes.
func syntaxError(of text: String, blockSize: Int = 1 << 20) -> JSONSyntaxError? {
    syntaxError(of: Array(text.utf8), blockSize: blockSize)
}

func syntaxError(of bytes: [UInt8], blockSize: Int = 1 << 20) -> JSONSyntaxError? {
    do {
        _ = try DecodedDocument(bytes, blockSize: blockSize)
        return nil
    } catch let error as JSONSyntaxError {
        return error
    } catch {
        return JSONSyntaxError(offset: -1, reason: "unexpected error \(error)")
    }
}
