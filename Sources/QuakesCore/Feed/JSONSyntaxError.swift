/// Where a document stops being valid JSON, and why.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    /// The byte offset in the whole document at which parsing stopped.
    var offset: Int64
    /// What was wrong, as a phrase: "unterminated string", "expected ':' after a key".
    var reason: String
}
