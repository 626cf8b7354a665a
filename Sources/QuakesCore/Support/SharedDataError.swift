/// A data file quakes ships is missing or damaged: the installation is incomplete, not the
/// command wrong, so it ends with `EX_OSFILE` and says where it looked.
package struct SharedDataError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Problem: Sendable, Equatable {
        case missing(searched: [String])
        case damaged(reason: String)
    }

    /// The file's name, such as `countries-110m.outlines`.
    package var file: String
    package var problem: Problem

    package init(file: String, problem: Problem) {
        self.file = file
        self.problem = problem
    }

    package var description: String {
        switch problem {
        case .missing(let searched):
            let places =
                searched.isEmpty ? "nowhere (the executable's path is unknown)" : searched.joined(separator: ", ")
            return "The data file '\(file)' that quakes ships is missing: looked in \(places). "
                + "Reinstall quakes, or set \(SharedData.variable) to the folder that holds it"
        case .damaged(let reason):
            return "The data file '\(file)' that quakes ships is damaged (\(reason)). Reinstall quakes"
        }
    }
}
