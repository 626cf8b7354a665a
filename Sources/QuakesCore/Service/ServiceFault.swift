/// An FDSN event service that answers what no client can page: more events than its cap in a
/// window of one second, which no smaller window can split. The service's fault, not the
/// database's: it ends the run with the status of an unavailable service.
struct ServiceFault: Error, ExitStatusProviding, CustomStringConvertible {
    /// The service's base URL.
    var service: String
    var reason: String

    var exitStatus: ExitStatus { .unavailable }

    var description: String {
        "the FDSN event service \(service) \(reason)"
    }
}
