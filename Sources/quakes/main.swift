import Foundation
import QuakesCore

// Before anything else starts a thread: SIGINT and SIGTERM become cancellation (see Interruption).
let interruption = Interruption()
interruption.listenToSignals()
// A closed pipe (`quakes list | head`) then ends the command quietly through EPIPE, not SIGPIPE.
signal(SIGPIPE, SIG_IGN)
let status = await Quakes.main(Array(CommandLine.arguments.dropFirst()), in: .current(interruption: interruption))
exit(status.code)
