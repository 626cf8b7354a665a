@testable import QuakesCore

/// A whole document run through the splitter and the decoder the way a fetch does, in blocks of
/// `blockSize` bytes and chunks of about `chunkSize`, but on one thread.
struct DecodedDocument {
    var quakes: [Quake] = []
    var problems: [FeatureProblem] = []
    var chunkCount = 0

    init(_ bytes: [UInt8], blockSize: Int = 1 << 20, chunkSize: Int = 64 * 1024) throws {
        var splitter = FeedSplitter(chunkSize: chunkSize)
        var chunks: [FeatureChunk] = []
        try bytes.withUnsafeBytes { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(start + blockSize, buffer.count)
                try splitter.consume(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) { chunks.append($0) }
                start = end
            }
        }
        let outline = try splitter.finish()
        if let remaining = outline.remainingFeatures { chunks.append(remaining) }
        chunkCount = chunks.count
        for chunk in chunks {
            let batch = try chunk.decode()
            quakes += batch.quakes
            problems += batch.problems
        }
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
