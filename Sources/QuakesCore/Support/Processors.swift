import Glibc

/// The processors this process may run on.
package enum Processors {
    /// How many processors the process's affinity mask allows (`taskset`, a container's cpuset),
    /// as `Cpus_allowed` in `/proc/self/status` gives it, else how many are online; at least one.
    ///
    /// Not Foundation's `ProcessInfo`, the one reason the executable linked FoundationEssentials;
    /// not `sched_getaffinity`, which Glibc's module leaves out with the other GNU extensions.
    package static var available: Int {
        let online = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return online }
        defer { close(descriptor) }
        guard let status = FileBytes.read(descriptor, upTo: 1 << 16) else { return online }
        let key = Array("Cpus_allowed:".utf8)
        guard let line = status.split(separator: UInt8(ascii: "\n")).first(where: { $0.starts(with: key) }) else {
            return online
        }
        // A mask in hexadecimal, in comma-separated groups of 32 bits: "3", "ff,ffffffff".
        let mask = line.dropFirst(key.count)
        let allowed = mask.reduce(0) { count, character in
            count + (Int(String(UnicodeScalar(character)), radix: 16)?.nonzeroBitCount ?? 0)
        }
        return allowed > 0 ? allowed : online
    }
}
