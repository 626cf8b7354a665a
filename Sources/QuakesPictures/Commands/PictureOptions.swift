import QuakesCore

/// The options of the commands that draw (`chart`, `map`): a file to write the picture to and its
/// size, or, without a file, text fitted to the terminal, plain with `--ascii`.
struct PictureOptions: Sendable, Equatable {
    static let output = ValueOption(
        "output", short: "o", value: "file",
        help: "Write the picture to FILE, as its extension says: .svg, .png, .pdf or .html (one self-contained page).",
        takesPath: true,
        expected: "a file name ending in " + PictureFormat.allCases.map { "." + $0.rawValue }.joined(separator: ", ")
    ) { path in PictureFormat(path: path).map { PictureFile(path: path, format: $0) } }
    static let ascii = Flag("ascii", help: "In the terminal, draw with plain ASCII characters.")

    /// The picture options of a command whose pictures are `defaultSize` unless `--size` says otherwise.
    struct Declarations: Sendable {
        let defaultSize: PictureSize
        let size: ValueOption<PictureSize>

        init(defaultSize: PictureSize) {
            self.defaultSize = defaultSize
            size = ValueOption(
                "size", value: "WxH", help: "The picture's size, in pixels for PNG and points for the others.",
                default: "\(defaultSize.width)x\(defaultSize.height)",
                expected: "WIDTHxHEIGHT, from 300x200 to 10000x10000, such as 1200x750"
            ) { text in
                let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                    (300...10_000).contains(width), (200...10_000).contains(height)
                else { return nil }
                return PictureSize(width: width, height: height)
            }
        }

        /// What help lists, in its order.
        var options: [CommandHelp.Option] {
            [
                PictureOptions.output.declaration, size.declaration, PictureOptions.ascii.declaration,
                CommonOptions.color.declaration,
            ]
        }
    }

    /// A picture's width and height, in pixels for PNG and points for the others.
    struct PictureSize: Sendable, Equatable {
        var width: Int
        var height: Int
    }

    /// The file, as given, and its format; nil to draw in the terminal.
    var output: PictureFile?
    var width: Int
    var height: Int
    var ascii: Bool
    var color: CommonOptions.ColorChoice

    /// Reads the options `declared` declares.
    init(_ arguments: ParsedArguments, _ declared: Declarations) throws(UsageError) {
        output = try arguments.read(Self.output)
        let size = try arguments.read(declared.size)
        width = (size ?? declared.defaultSize).width
        height = (size ?? declared.defaultSize).height
        if size != nil, output == nil { throw UsageError("'--size <WxH>' needs '--output <file>'") }
        ascii = arguments.read(Self.ascii)
        color = try arguments.read(CommonOptions.color)
    }

    /// The output file, its name found from the current directory.
    func file(in environment: Environment) -> PictureFile? {
        guard var output else { return nil }
        output.directory = environment.currentDirectory
        return output
    }

    /// True when text is drawn with `#` and `o` rather than blocks and Braille: `--ascii`, or a dumb terminal.
    func plainText(in environment: Environment) -> Bool {
        ascii || environment.variables["TERM"] == "dumb"
    }
}
