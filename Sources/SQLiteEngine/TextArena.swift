/// A buffer for the text of the rows one statement is bound to, which SQLite reads in place while
/// the statement runs (`SQLITE_STATIC`): binding without the allocation and copy SQLite would make
/// for each string.
///
/// It grows by blocks and never moves what it holds, so every pointer `store` returns stays valid
/// until the next `reset()`, however many rows a statement has.
///
/// Its state is reached through a pointer rather than stored properties: a class's stored
/// properties are checked for exclusive access at run time on every read and write, which cost
/// more than the copy itself when every text of a fetch passes through here.
///
/// Not `Sendable`: it belongs to the store actor, like the statements bound to it.
final class TextArena {
    private struct State {
        var blocks: [UnsafeMutableRawBufferPointer] = []
        /// The block being filled, and the free part of it.
        var current = -1
        var free = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }

    private let state: UnsafeMutablePointer<State>
    private let blockSize: Int

    init(blockSize: Int = 16 * 1024) {
        self.blockSize = blockSize
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        for block in state.pointee.blocks { block.deallocate() }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Forgets every text stored: the statements bound to them must be bound again (or cleared)
    /// before they run.
    func reset() {
        state.pointee.current = -1
        state.pointee.free = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }

    /// Copies `text` in and returns where its UTF-8 bytes now are.
    func store(_ text: String) -> UnsafeRawBufferPointer {
        if let stored = text.utf8.withContiguousStorageIfAvailable({ copy(UnsafeRawBufferPointer($0)) }) {
            return stored
        }
        return ContiguousArray(text.utf8).withUnsafeBytes { copy($0) }
    }

    private func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        if bytes.count > state.pointee.free.count { nextBlock(for: bytes.count) }
        let free = state.pointee.free
        guard let start = free.baseAddress, !bytes.isEmpty else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        start.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        state.pointee.free = UnsafeMutableRawBufferPointer(rebasing: free[bytes.count...])
        return UnsafeRawBufferPointer(start: start, count: bytes.count)
    }

    /// Moves on to a block with room for `count` bytes, the next one or a new one.
    private func nextBlock(for count: Int) {
        while state.pointee.current + 1 < state.pointee.blocks.count {
            state.pointee.current += 1
            state.pointee.free = state.pointee.blocks[state.pointee.current]
            if state.pointee.free.count >= count { return }
        }
        // A text larger than a block gets a block of its own size.
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: max(blockSize, count), alignment: 1)
        state.pointee.blocks.append(block)
        state.pointee.current = state.pointee.blocks.count - 1
        state.pointee.free = block
    }
}
