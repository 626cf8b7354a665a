import Foundation

@testable import QuakesCore

/// Runs the built binary as the unprivileged `nobody` (uid 65534), through `setpriv`, to test what
/// users without write access see; or as the test's own user.
///
/// `nobody` runs a copy of the binary kept in a folder every user can enter, so the tests do not
/// depend on where the checkout lives: in a private home, or in a folder `mktemp -d` made, the
/// built binary is out of its reach.
enum UnprivilegedUser {
    static let uid: uid_t = 65534

    /// True when the tests run as root, which may become `nobody`.
    static var isAvailable: Bool { getuid() == 0 }

    /// A folder that `nobody` can enter and read, for the binary and the files it is given.
    static let folder: String = {
        let path = NSTemporaryDirectory() + "quakes-unprivileged-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o755)
        return path
    }()

    /// The copy of the built binary that `nobody` runs.
    static let executable: String = {
        let copy = folder + "/quakes"
        try? FileManager.default.removeItem(atPath: copy)
        try? FileManager.default.copyItem(atPath: BinaryTests.executable.path, toPath: copy)
        chmod(copy, 0o755)
        return copy
    }()

    /// A copy of `file` that `nobody` can read.
    static func readable(_ file: String) throws -> String {
        let copy = folder + "/" + UUID().uuidString + "-" + (file as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        chmod(copy, 0o644)
        return copy
    }

    /// Runs quakes with `arguments` through `/bin/sh -c`, `setup` first (a `ulimit`, a `umask`),
    /// as `nobody` when `asNobody` (and the tests run as root).
    static func run(_ arguments: [String], setup: String = "", asNobody: Bool = false) async throws
        -> ChildProcess.Outcome
    {
        let unprivileged = asNobody && isAvailable
        let binary = unprivileged ? executable : BinaryTests.executable.path
        let quoted = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = (setup.isEmpty ? "" : setup + "; ") + "exec " + quoted.joined(separator: " ")
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder, "TZ": "UTC"]
        if unprivileged {
            return try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/bin/sh", "-c", script],
                environment: environment)
        }
        return try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: environment)
    }
}
