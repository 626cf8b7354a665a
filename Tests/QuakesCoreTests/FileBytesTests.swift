import Foundation
import Testing

@testable import QuakesCore

/// The one read loop of the tool's files, and the processor count that sizes a fetch's decoding.
@Suite struct FileBytesTests {
    @Test func aFileIsReadWholeOrUpToTheLimit() throws {
        let folder = try TemporaryDirectory()
        // Larger than the first buffer, so that the loop grows it.
        let content = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try folder.write("file", content)
        func read(upTo limit: Int, expected: Int = 0) -> [UInt8]? {
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor) }
            return FileBytes.read(descriptor, upTo: limit, expected: expected)
        }
        #expect(read(upTo: .max) == content)
        #expect(read(upTo: .max, expected: content.count) == content)
        #expect(read(upTo: 100) == Array(content.prefix(100)))
        #expect(read(upTo: 0) == [])
        // A size from fstat that is out of date (the file grew or shrank since) changes nothing.
        #expect(read(upTo: .max, expected: 10) == content)
        #expect(read(upTo: .max, expected: 100_000) == content)
    }

    @Test func aPipeIsReadToItsEndAcrossManyReads() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (reading, writing) = (ends[0], ends[1])
        let content = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        // Both ends block, so each runs on a thread of its own, off the cooperative pool.
        async let written: Void = Blocking.run {
            // In pieces of 1,000 bytes, so that each read gets a part.
            for start in stride(from: 0, to: content.count, by: 1_000) {
                content[start..<start + 1_000].withUnsafeBytes { _ = write(writing, $0.baseAddress, $0.count) }
            }
            close(writing)
        }
        let bytes = try await Blocking.run { FileBytes.read(reading, upTo: .max) }
        try await written
        close(reading)
        #expect(bytes == content)
    }

    @Test func aFailedReadIsNilWithErrno() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("file", "text")
        let descriptor = open(path, O_WRONLY)
        defer { close(descriptor) }
        let bytes = FileBytes.read(descriptor, upTo: .max)
        let error = errno
        #expect(bytes == nil)
        #expect(error == EBADF)
    }

    /// `nproc`, which counts the processors of the same affinity mask (`sched_getaffinity`), is
    /// the oracle; a process that taskset confines to one processor has a status that allows one.
    @Test func theProcessorsAreThoseTheAffinityMaskAllows() async throws {
        let nproc = try await ChildProcess.run("/usr/bin/nproc", [])
        #expect(Processors.available == Int(nproc.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        let confined = try await ChildProcess.run("/usr/bin/taskset", ["-c", "0", "/bin/cat", "/proc/self/status"])
        #expect(Processors.allowed(inStatus: Array(confined.output.utf8)) == 1)
        #expect(Processors.allowed(inStatus: Array("Name:\tx\nCpus_allowed:\tff,ffffffff\n".utf8)) == 40)
        #expect(Processors.allowed(inStatus: Array("Name:\tx\nCpus_allowed:\t0\n".utf8)) == nil)
        #expect(Processors.allowed(inStatus: Array("Name:\tx\n".utf8)) == nil)
    }
}
