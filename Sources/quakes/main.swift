import Foundation
import QuakesCore

// A closed pipe (`quakes list | head`) then ends the command quietly through EPIPE, not SIGPIPE.
signal(SIGPIPE, SIG_IGN)
let status = await Quakes.main(Array(CommandLine.arguments.dropFirst()), in: .current())
exit(status.code)
