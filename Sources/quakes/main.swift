import Foundation
import GeoJSONEngine
import PostgresEngine
import QuakesCore
import SQLiteEngine

// SIGINT and SIGTERM become cancellation of the command (see Interruption), for as long as
// `signals` lives: to the end of the process.
let interruption = Interruption()
let signals = interruption.listenToSignals()
// A closed pipe (`quakes list | head`) then ends the command quietly through EPIPE, not SIGPIPE,
// and a file size limit (`ulimit -f`) is an error SQLite reports, EFBIG, not a kill by SIGXFSZ.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
// The storage engines, asked in this order which keeps the database --db names: PostgreSQL takes
// its URIs, GeoJSON paths ending in .geojson or .json, and SQLite, last, every value the others
// leave, since anything else is a file path.
let engines: [any StorageEngine] = [PostgresEngine(), GeoJSONEngine(), SQLiteEngine()]
let status = await Quakes.main(
    Array(CommandLine.arguments.dropFirst()), in: .current(interruption: interruption, engines: engines))
withExtendedLifetime(signals) {}
exit(status.code)
