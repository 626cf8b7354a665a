/// `quakes show` found no event with the id.
public struct NotFoundError: Error, Sendable, Equatable, CustomStringConvertible {
    public var id: String

    public var description: String {
        "no quake with id \(id)"
    }
}
