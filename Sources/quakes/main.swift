import Foundation
import QuakesCore

let status = await Quakes.main(Array(CommandLine.arguments.dropFirst()), in: .current())
exit(status.code)
