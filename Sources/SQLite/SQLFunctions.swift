import CSQLite

/// The arguments of one call to an application-defined SQL function, valid only during the call.
public struct FunctionArguments {
    private let values: UnsafeMutablePointer<OpaquePointer?>?
    /// The number of arguments.
    public let count: Int

    init(count: Int32, values: UnsafeMutablePointer<OpaquePointer?>?) {
        self.count = Int(count)
        self.values = values
    }

    /// True when argument `index` is NULL (wraps `sqlite3_value_type`).
    public func isNull(_ index: Int) -> Bool {
        csqlite_value_type(values![index]) == SQLITE_NULL
    }

    /// Argument `index` as an integer, or nil for NULL (wraps `sqlite3_value_int64`).
    public func int64(_ index: Int) -> Int64? {
        isNull(index) ? nil : csqlite_value_int64(values![index])
    }

    /// Argument `index` as a real number, or nil for NULL (wraps `sqlite3_value_double`).
    public func double(_ index: Int) -> Double? {
        isNull(index) ? nil : csqlite_value_double(values![index])
    }

    /// Argument `index` as UTF-8 bytes, valid during the call, or nil for NULL (wraps `sqlite3_value_text`).
    public func text(_ index: Int) -> UnsafeRawBufferPointer? {
        guard let text = csqlite_value_text(values![index]) else { return nil }
        return UnsafeRawBufferPointer(start: text, count: Int(csqlite_value_bytes(values![index])))
    }
}

/// What an application-defined SQL function returns.
public enum FunctionResult {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

extension Connection {
    /// Defines a scalar SQL function for this connection (wraps `sqlite3_create_function_v2`).
    ///
    /// `deterministic` functions (the same result for the same arguments) may be used in indexes
    /// and are evaluated once per statement when their arguments are constant. Functions are
    /// `SQLITE_DIRECTONLY`: the schema (a view, a trigger) cannot call them, so a crafted database
    /// file cannot make them run.
    public func createFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ body: @escaping (FunctionArguments) -> FunctionResult
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        var flags = SQLITE_UTF8 | SQLITE_DIRECTONLY
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        let result = csqlite_create_function_v2(
            handle, name, argumentCount, flags, box,
            { context, count, values in
                let box = Unmanaged<FunctionBox>.fromOpaque(csqlite_user_data(context)).takeUnretainedValue()
                switch box.body(FunctionArguments(count: count, values: values)) {
                case .null: csqlite_result_null(context)
                case let .integer(value): csqlite_result_int64(context, value)
                case let .real(value): csqlite_result_double(context, value)
                case let .text(value):
                    // A C string of the value: never a NULL pointer, which would make the result NULL.
                    value.withCString { text in
                        csqlite_result_text64(
                            context, text, UInt64(value.utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                    }
                }
            }, nil, nil,
            { box in
                if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
            })
        guard result == SQLITE_OK else { throw SQLiteError(resultCode: result, handle: handle) }
    }

    /// Defines a collating sequence for this connection (wraps `sqlite3_create_collation_v2`).
    ///
    /// `compare` receives two UTF-8 texts, valid during the call, and returns a negative number,
    /// zero or a positive number as the first sorts before, with, or after the second.
    public func createCollation(
        _ name: String,
        _ compare: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32
    )
        throws(SQLiteError)
    {
        let box = Unmanaged.passRetained(CollationBox(compare)).toOpaque()
        let result = csqlite_create_collation_v2(
            handle, name, SQLITE_UTF8, box,
            { box, leftCount, left, rightCount, right in
                let collation = Unmanaged<CollationBox>.fromOpaque(box!).takeUnretainedValue()
                return collation.compare(
                    UnsafeRawBufferPointer(start: left, count: Int(leftCount)),
                    UnsafeRawBufferPointer(start: right, count: Int(rightCount)))
            },
            { box in
                if let box { Unmanaged<CollationBox>.fromOpaque(box).release() }
            })
        guard result == SQLITE_OK else { throw SQLiteError(resultCode: result, handle: handle) }
    }
}

/// Keeps a function's closure alive for SQLite, which releases it through the destructor callback.
private final class FunctionBox {
    let body: (FunctionArguments) -> FunctionResult
    init(_ body: @escaping (FunctionArguments) -> FunctionResult) { self.body = body }
}

private final class CollationBox {
    let compare: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32
    init(_ compare: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32) { self.compare = compare }
}
