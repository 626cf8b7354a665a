/// An error of a module above the core that says which status it ends the process with: the
/// core's `ExitStatus(for:)` names only its own errors.
package protocol ExitStatusProviding: Error {
    var exitStatus: ExitStatus { get }
}
