/// The options that may also come before the subcommand, as git's and cargo's do: `quakes --db
/// q.sqlite count` is `quakes count --db q.sqlite`. They are moved after the subcommand's name,
/// where the command reads them as its own, so a command that does not take one says so as it
/// would of any option it does not know.
enum LeadingOptions {
    /// What they are: the options most commands take.
    static let declarations: [CommandHelp.Option] = [
        DatabaseLocation.option.declaration, CommonOptions.utc.declaration, CommonOptions.color.declaration,
        WriteOptions.quiet.declaration,
    ]

    /// `arguments` with the leading options moved after the first word that follows them, the
    /// subcommand's name; unchanged when no leading option comes first, or when nothing follows
    /// them. A first word that is no option returns at once: the quick commands pay nothing.
    static func moved(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-") else { return arguments }
        var leading: [String] = []
        var rest = arguments[...]
        while let taken = optionLength(at: rest) {
            guard taken > 0 else { return arguments }
            leading += rest.prefix(taken)
            rest = rest.dropFirst(taken)
        }
        guard !leading.isEmpty, let name = rest.first, !name.hasPrefix("-") else { return arguments }
        return [name] + leading + rest.dropFirst()
    }

    /// What the root's help says of them.
    static var discussion: String {
        let names = declarations.map { "--" + $0.name }
        return "The options " + names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            + " may also come before the subcommand, where every command that takes them reads them: "
            + "quakes --db quakes.sqlite count."
    }

    /// True when `word` spells one of the leading options (`--db`, `--db=x`, `-q`).
    static func spells(_ word: String) -> Bool {
        declaration(of: word) != nil
    }

    /// How many words the leading option at the start of `words` takes (1, or 2 with its value); 0
    /// when its value is missing; nil when the first word is no leading option.
    private static func optionLength(at words: ArraySlice<String>) -> Int? {
        guard let word = words.first, let option = declaration(of: word) else { return nil }
        guard option.value != nil, !word.contains("=") else { return 1 }
        return words.count >= 2 ? 2 : 0
    }

    private static func declaration(of word: String) -> CommandHelp.Option? {
        if word.hasPrefix("--") {
            let name = word.dropFirst(2).prefix { $0 != "=" }
            return declarations.first { $0.name == name }
        }
        guard word.count == 2, word.hasPrefix("-"), let letter = word.last else { return nil }
        return declarations.first { $0.short == letter }
    }
}
