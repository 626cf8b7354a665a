/// The bash completion script: three functions generated from the commands' definitions (each
/// subcommand's options, what an option's value is made of, what a positional argument is), and a
/// fixed function `_quakes` that works out where the cursor is and asks them.
///
/// It needs nothing but bash 4.4 or later: not the bash-completion package, which many systems
/// lack, and whose helpers (`_init_completion`) would make the script untestable without it.
struct BashCompletion {
    var completion: ShellCompletion

    init(_ completion: ShellCompletion) {
        self.completion = completion
    }

    var script: String {
        let program = completion.program
        let function = "_" + Self.identifier(program)
        let first = completion.firstWords.map(\.name)
        let rootOptions = completion.root.options.flatMap(ShellCompletion.spellings)
        let runnable = completion.subcommands.map(\.name)
        return """
            # bash completion for \(program), written by `\(program) completions bash` from the definitions
            # behind `\(program) --help`. Load it with: source <(\(program) completions bash)

            # The options of subcommand $1, short and long: all of them in `options`, those that take a value
            # in `valued`. Fails for a word that is no subcommand.
            \(function)_options() {
                case $1 in
            \(optionsCases)
                    *) return 1 ;;
                esac
            }

            # What the value of option $2 of subcommand $1 is made of: words in `choices`, and file names
            # when `paths` is 1.
            \(function)_value() {
                case "$1 $2" in
            \(valueCases)
                esac
            }

            # What positional argument $2 (counted from 0) of subcommand $1 is made of, as for \(function)_value.
            \(function)_argument() {
                case $1 in
            \(argumentCases)
                esac
            }

            \(function)() {
                COMPREPLY=()
                local -a first=(\(Self.words(first)))
                local -a root_options=(\(Self.words(rootOptions)))
                local -a subcommands=(\(Self.words(runnable)))
            \(Self.body(function: function))
            }

            complete -F \(function) \(Self.word(program))

            """
    }

    /// `fetch) options=(…); valued=(…) ;;` for every subcommand.
    private var optionsCases: String {
        completion.subcommands.map { command in
            let all = command.help.options.flatMap(ShellCompletion.spellings)
            let valued = command.help.options.filter { $0.value != nil }.flatMap(ShellCompletion.spellings)
            return """
                        \(Self.word(command.name)))
                            options=(\(Self.words(all)))
                            valued=(\(Self.words(valued)))
                            ;;
                """
        }.joined(separator: "\n")
    }

    /// `'list --sort') choices=(…) ;;` for every option whose value completes to something.
    private var valueCases: String {
        completion.subcommands.flatMap { command in
            command.help.options.compactMap { option -> String? in
                guard option.value != nil, let action = Self.action(option.choices, paths: option.takesPath) else {
                    return nil
                }
                let patterns = ShellCompletion.spellings(of: option).map { Self.quoted("\(command.name) \($0)") }
                return "        \(patterns.joined(separator: " | "))) \(action) ;;"
            }
        }.joined(separator: "\n")
    }

    /// `fetch) if (( $2 >= 0 )); then choices=(…); paths=1; fi ;;` for every subcommand with an
    /// argument that completes to something.
    private var argumentCases: String {
        completion.subcommands.compactMap { command -> String? in
            let tests = command.help.arguments.enumerated().compactMap { index, argument -> String? in
                guard let action = Self.action(argument.choices, paths: argument.takesPath) else { return nil }
                let position = argument.isRepeating ? "$2 >= \(index)" : "$2 == \(index)"
                return "            if (( \(position) )); then \(action); fi"
            }
            guard !tests.isEmpty else { return nil }
            return "        \(Self.word(command.name)))\n" + tests.joined(separator: "\n") + "\n            ;;"
        }.joined(separator: "\n")
    }

    /// `choices=(…); paths=1`, or nil when there is nothing to complete.
    private static func action(_ choices: [String], paths: Bool) -> String? {
        let parts = (choices.isEmpty ? [] : ["choices=(\(words(choices)))"]) + (paths ? ["paths=1"] : [])
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The fixed part of the completion function. Bash also splits words at the characters of
    /// COMP_WORDBREAKS (`=` and `:` among them), so it first joins the pieces that no blank separates
    /// back into the words typed; what it offers are whole words, less the part before the last
    /// break character, which is what readline replaces.
    private static func body(function: String) -> String {
        #"""
            local line=${COMP_LINE:0:COMP_POINT} piece trimmed i
            local -a words=()
            if [[ -z $COMP_LINE ]]; then
                words=("${COMP_WORDS[@]:0:COMP_CWORD+1}")
                piece=${COMP_WORDS[COMP_CWORD]}
            else
                for ((i = 0; i <= COMP_CWORD; i++)); do
                    trimmed=${line#"${line%%[![:space:]]*}"}
                    if ((i == 0)) || [[ $trimmed != "$line" ]]; then words+=(""); fi
                    line=$trimmed
                    piece=${COMP_WORDS[i]}
                    ((i == COMP_CWORD)) && piece=$line
                    words[-1]+=$piece
                    line=${line#"$piece"}
                done
            fi
            # The part of the word readline replaces: none of it when the cursor follows a break character.
            local cur=${words[-1]} typed=$piece breaks=${COMP_WORDBREAKS-$'"\'><=;|&(:'}
            local rest=$typed
            while [[ -n $rest && $breaks == *"${rest:0:1}"* ]]; do rest=${rest:1}; done
            [[ -z $rest ]] && typed=
            local strip=${cur%"$typed"}

            local -a options=() valued=() choices=()
            local paths=0 value=$cur prefix= list= pending= ended= positionals=0 word
            if ((${#words[@]} == 2)); then
                if [[ $cur == -* ]]; then choices=("${root_options[@]}"); else choices=("${first[@]}"); fi
            elif [[ ${words[1]} == help ]]; then
                ((${#words[@]} == 3)) && choices=("${subcommands[@]}")
            elif __FUNCTION___options "${words[1]}"; then
                for word in "${words[@]:2:${#words[@]}-3}"; do
                    if [[ -n $pending ]]; then
                        pending=
                    elif [[ -n $ended ]]; then
                        positionals=$((positionals + 1))
                    elif [[ $word == -- ]]; then
                        ended=1
                    elif [[ $word == -?* ]]; then
                        [[ $word != *=* && " ${valued[*]} " == *" $word "* ]] && pending=$word
                    else
                        positionals=$((positionals + 1))
                    fi
                done
                if [[ -n $pending ]]; then
                    __FUNCTION___value "${words[1]}" "$pending"
                    list=1
                elif [[ -z $ended && $cur == --*=* ]]; then
                    prefix=${cur%%=*}=
                    value=${cur#*=}
                    __FUNCTION___value "${words[1]}" "${cur%%=*}"
                    list=1
                elif [[ -z $ended && $cur == -* ]]; then
                    choices=("${options[@]}")
                else
                    __FUNCTION___argument "${words[1]}" "$positionals"
                fi
            fi
            # An option's value may be a comma-separated list of its words (--sort time,magnitude).
            local last=$value
            if [[ -n $list && $value == *,* ]]; then
                prefix+=${value%,*},
                last=${value##*,}
            fi
            for word in "${choices[@]}"; do
                [[ $word == "$last"* ]] && COMPREPLY+=("$prefix$word")
            done
            if ((paths)); then
                compopt -o filenames 2>/dev/null
                while IFS= read -r word; do
                    COMPREPLY+=("${cur%"$value"}$word")
                done < <(compgen -f -- "$value")
            fi
            COMPREPLY=("${COMPREPLY[@]#"$strip"}")
        """#.replacingEvery("__FUNCTION__", with: function)
    }

    /// Words for an array: each quoted when it needs to be.
    private static func words(_ words: [String]) -> String {
        words.map(word).joined(separator: " ")
    }

    /// `word`, quoted for bash when it holds anything but letters, digits and `_.,:/+-`.
    static func word(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "_.,:/+-".unicodeScalars.contains(scalar))
            }
        return plain ? word : quoted(word)
    }

    /// `text` in single quotes, a quote inside written `'\''`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingEvery("'", with: #"'\''"#) + "'"
    }

    /// A shell function name made of `program`: letters, digits and underscores.
    static func identifier(_ program: String) -> String {
        String(program.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }
}
