import Glibc
import QuakesCore
import Registry

// A closed pipe (`quakes list | head`) then ends the command quietly through EPIPE, not SIGPIPE,
// and a file size limit (`ulimit -f`) is an error SQLite reports, EFBIG, not a kill by SIGXFSZ.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
// `--version`, help and unknown words are answered before anything below starts a thread (see
// Quakes.answerWithoutCommand).
let outputs = Environment.processOutputs()
if let status = Quakes.answerWithoutCommand(
    arguments, commands: Registry.commands, engines: Registry.engines, standardOutput: outputs.standardOutput,
    standardError: outputs.standardError)
{
    exit(status.code)
}
let interruption = Interruption()
let environment = Environment.current(
    outputs: outputs, interruption: interruption, commands: Registry.commands, engines: Registry.engines)
// A command that only reads (count, list, show…) runs here, on this thread, before anything starts
// a thread: the concurrency runtime's threads cost `quakes count` more than its query (see
// BlockingCommand).
if let status = Quakes.runBlockingCommand(arguments, in: environment) {
    exit(status.code)
}
// SIGINT and SIGTERM become cancellation of the command (see Interruption), for as long as
// `signals` lives: to the end of the process.
let signals = interruption.listenToSignals()
let status = await Quakes.main(arguments, in: environment)
withExtendedLifetime(signals) {}
exit(status.code)
