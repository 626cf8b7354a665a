import QuakesCore

/// Why a picture could not be written or read, worded to follow `Error: `.
struct PictureError: Error, Sendable, Equatable, CustomStringConvertible {
    var reason: Reason

    enum Reason: Sendable, Equatable {
        /// The library that draws PNG and PDF is missing (exit 69): the text says which and how to get it.
        case libraryMissing(String)
        /// The file could not be created, written or put in place (exit 74): its path as the user gave
        /// it, and the system's reason.
        case cannotWrite(path: String, reason: String)
        /// The file could not be read as a picture: its path, and cairo's reason.
        case cannotRead(path: String, reason: String)
        /// cairo refused the drawing itself (a size it cannot make, memory): a bug in the drawing, or
        /// a machine out of memory.
        case drawing(String)
    }

    init(_ reason: Reason) {
        self.reason = reason
    }

    var description: String {
        switch reason {
        case let .libraryMissing(text): text
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
        case let .drawing(reason): "cannot draw the picture: \(reason)"
        }
    }
}

extension PictureError: ExitStatusProviding {
    package var exitStatus: ExitStatus {
        switch reason {
        case .libraryMissing: .unavailable
        case .cannotWrite: .ioError
        case .cannotRead: .noInput
        case .drawing: .software
        }
    }
}
