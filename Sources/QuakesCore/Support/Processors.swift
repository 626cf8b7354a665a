import Glibc

/// The processors this process may run on.
package enum Processors {
    /// How many processors the process's affinity mask allows (`taskset`, a container's cpuset),
    /// as `Cpus_allowed` in `/proc/self/status` gives it, else how many are online; at least one.
    ///
    /// Not Foundation's `ProcessInfo`, the one reason the executable linked FoundationEssentials,
    /// which reads a cgroup's CPU quota instead: a quota limits time, not the cores the decoders may
    /// run on at once. Not `sched_getaffinity`, which Glibc's module leaves out with the other GNU
    /// extensions.
    ///
    /// Read once, when a fetch first asks: every source's ingest sizes its decoding by it.
    package static let available: Int = {
        let online = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        return FileBytes.ofRegularFile("/proc/self/status", atMost: 1 << 16).flatMap(allowed(inStatus:)) ?? online
    }()

    /// How many processors the `Cpus_allowed` line of a `/proc/PID/status` text allows; nil when it
    /// has no such line, or one that allows none.
    package static func allowed(inStatus status: [UInt8]) -> Int? {
        let key = Array("Cpus_allowed:".utf8)
        guard let line = status.split(separator: UInt8(ascii: "\n")).first(where: { $0.starts(with: key) }) else {
            return nil
        }
        // A mask in hexadecimal, in comma-separated groups of 32 bits: "3", "ff,ffffffff".
        let allowed = line.dropFirst(key.count).reduce(0) { count, character in
            count + (Int(String(UnicodeScalar(character)), radix: 16)?.nonzeroBitCount ?? 0)
        }
        return allowed > 0 ? allowed : nil
    }
}
