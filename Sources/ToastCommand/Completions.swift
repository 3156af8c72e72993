import ToastModel
import ToastNagOptions

/// A shell that `wl-toast completions` writes a script for.
package enum Shell: String, Equatable, Sendable, CaseIterable {
  /// GNU bash (bash-completion's directory, or `source` it).
  case bash
  /// zsh (a `#compdef` function for `$fpath`).
  case zsh
  /// fish (a file for `vendor_completions.d`).
  case fish
}

extension Option {
  /// Whether the option belongs to showing a toast (not only to a subcommand).
  var isToastOption: Bool { scope.contains(.show) }

  /// The subcommand whose completions offer it, when it is not a toast's option.
  var subcommand: Subcommand? { isToastOption ? nil : Subcommand.owning(self) }

  /// Whether its value completes to the configuration file's presets.
  var completesPresets: Bool { name == "preset" }

  /// Whether it takes a value.
  var takesValue: Bool { valueKind == .required }

  /// What its value completes to, or nil for an option without one.
  var valueCompletion: ValueCompletion? {
    guard takesValue else { return nil }
    if !choices.isEmpty { return .words(choices.joined(separator: " ")) }
    if takesPath { return .files }
    if completesPresets { return .presets }
    return .anything
  }
}

/// What an option's value completes to, in each shell's words.
enum ValueCompletion {
  /// One of these words (separated by spaces).
  case words(String)
  /// A file's path.
  case files
  /// A preset of the configuration file (`wl-toast presets`).
  case presets
  /// Anything: no completion.
  case anything
}

/// The subcommands completions offer, by their first word, each with the
/// options of all its forms (`watch`: sway's and river's).
private var subcommands: [(name: String, options: [Option])] {
  Subcommand.firstWords.compactMap { first in
    let forms = Subcommand.all.filter { $0.words[0] == first }
    guard !forms.isEmpty else { return nil }
    var options: [Option] = []
    for form in forms {
      options += (form.passesArguments ? nagCompletions : form.options).filter {
        !options.contains($0)
      }
    }
    return (first, options)
  }
}

/// The options of `wl-toast nag` (swaynag's, from ToastNagOptions' table), as options
/// of the completion scripts.
private var nagCompletions: [Option] {
  nagOptions.map { info in
    Option(
      info.name, letter: info.letter, info.takesValue ? .required("VALUE") : .none,
      summary: info.name, choices: info.choices, takesPath: info.name == "config", scope: .nag
    ) { _, _ in }
  }
}

/// The targets of a subcommand with several forms (`watch`: `sway river`).
private func targets(of first: String) -> [String] {
  Subcommand.all.filter { $0.words[0] == first && $0.words.count > 1 }.map { $0.words[1] }
}

/// The operand choices of a subcommand (`completions`: `bash zsh fish`;
/// `dnd`, whose operand may be left out: `on off toggle`).
private func operands(of first: String) -> [String] {
  guard
    let operand = Subcommand.all.first(where: { $0.words == [first] && !$0.passesArguments })?
      .operand
  else { return [] }
  return operand.filter { $0 != "[" && $0 != "]" }.split(separator: "|").map(String.init)
}

/// The completion script of `wl-toast` for `shell`, made from the options the
/// parser knows: every option, the values of those with a short list, file
/// names for paths, the presets of the configuration file (asked of
/// `wl-toast presets` as the user types) and the subcommands.
package func completionScript(for shell: Shell) -> String {
  switch shell {
  case .bash: bashScript()
  case .zsh: zshScript()
  case .fish: fishScript()
  }
}

private func bashScript() -> String {
  let toastOptions = Option.all.filter(\.isToastOption)
  var valueCases = ""
  let nagOnly = nagCompletions.filter { nag in !Option.all.contains { $0.name == nag.name } }
  for option in Option.all + nagOnly where option.takesValue {
    let reply =
      switch option.valueCompletion {
      case .words(let words)?: "COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\"))"
      case .files?: "COMPREPLY=($(compgen -f -- \"$cur\"))"
      case .presets?: "COMPREPLY=($(compgen -W \"$(wl-toast presets 2>/dev/null)\" -- \"$cur\"))"
      case .anything?, nil: "COMPREPLY=()"
      }
    valueCases += "    \(option.flagName)) \(reply); return ;;\n"
  }
  var subcommandCases = ""
  for (name, options) in subcommands {
    let flags = options.map(\.flagName).joined(separator: " ")
    let targets = targets(of: name)
    // Targets that combine follow one another (`watch audio media`).
    let combine = Subcommand.all.contains { $0.words[0] == name && $0.combinesTargets }
    let words =
      combine
      ? "\(targets.joined(separator: " ")) \(flags)"
      : !targets.isEmpty
        ? "$( ((cword == 2)) && echo \(targets.joined(separator: " "))) \(flags)"
        : ([flags] + operands(of: name)).filter { !$0.isEmpty }.joined(separator: " ")
    subcommandCases += "    \(name)) words=\"\(words)\" ;;\n"
  }
  return """
    # bash completion for wl-toast (wl-toast completions bash)
    _wl_toast() {
      local cur prev cword words
      cword=$COMP_CWORD
      cur=${COMP_WORDS[cword]}
      prev=${COMP_WORDS[cword-1]}
      case $prev in
    \(valueCases)  esac
      if ((cword == 1)) && [[ $cur != -* ]]; then
        COMPREPLY=($(compgen -W "\(subcommands.map(\.name).joined(separator: " "))" -- "$cur"))
        return
      fi
      case ${COMP_WORDS[1]} in
    \(subcommandCases)    *) words="\(toastWords(toastOptions))" ;;
      esac
      COMPREPLY=($(compgen -W "$words" -- "$cur"))
    }
    complete -F _wl_toast wl-toast

    """
}

/// A word in single quotes for zsh and fish.
private func quoted(_ text: String) -> String {
  "'" + text.replacing("'", with: "'\\''") + "'"
}

/// The words bash offers on a toast's command line: every option, and
/// `--follow=FORMAT` for each format.
private func toastWords(_ options: [Option]) -> String {
  var words: [String] = []
  for option in options {
    words.append(option.flagName)
    if case .optional = option.value {
      words += option.choices.map { option.flagName + "=" + $0 }
    }
  }
  return words.joined(separator: " ")
}

/// `option` as zsh's `_arguments` takes it: its flag, its summary, and what
/// its value completes to.
private func zshSpec(_ option: Option) -> String {
  let escaped = option.summary.replacing("[", with: "\\[").replacing("]", with: "\\]")
    .replacing(":", with: "\\:")
  var spec = "\(option.flagName)[\(escaped)]"
  let value = option.name
  switch option.valueCompletion {
  case .words(let words)?: spec += ":\(value):(\(words))"
  case .files?: spec += ":\(value):_files"
  case .presets?: spec += ":\(value):(${(f)\"$(wl-toast presets 2>/dev/null)\"})"
  case .anything?: spec += ":\(value): "
  case nil: break
  }
  return quoted(spec)
}

/// One `_arguments` call of the zsh script, a spec a line.
private func zshArguments(_ specs: [String]) -> String {
  "_arguments -s \\\n" + specs.map { "        " + $0 }.joined(separator: " \\\n")
}

private func zshScript() -> String {
  var cases = ""
  for (name, options) in subcommands {
    var specs = [quoted("1: :(\(name))")]
    let targets = targets(of: name)
    let combine = Subcommand.all.contains { $0.words[0] == name && $0.combinesTargets }
    if !targets.isEmpty {
      let words = targets.joined(separator: " ")
      specs.append(quoted(combine ? "*:target:(\(words))" : "2:target:(\(words))"))
    } else if !operands(of: name).isEmpty {
      specs.append(quoted("2:operand:(\(operands(of: name).joined(separator: " ")))"))
    }
    specs += options.map(zshSpec)
    cases += "    \(name))\n      \(zshArguments(specs)) ;;\n"
  }
  let toastSpecs = Option.all.filter(\.isToastOption).map(zshSpec) + [quoted("*:message: ")]
  return """
    #compdef wl-toast
    # zsh completion for wl-toast (wl-toast completions zsh)
    _wl-toast() {
      if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
        _values 'subcommand' \(subcommands.map(\.name).joined(separator: " "))
        return
      fi
      case $words[2] in
    \(cases)    *)
          \(zshArguments(toastSpecs)) ;;
      esac
    }
    _wl-toast "$@"

    """
}

private func fishScript() -> String {
  var lines = [
    "# fish completion for wl-toast (wl-toast completions fish)",
    "complete -c wl-toast -f",
    "complete -c wl-toast -n __fish_use_subcommand -a "
      + quoted(subcommands.map(\.name).joined(separator: " ")),
  ]
  for (name, _) in subcommands {
    let words = targets(of: name) + operands(of: name)
    if !words.isEmpty {
      lines.append(
        "complete -c wl-toast -n '__fish_seen_subcommand_from \(name)' -a "
          + quoted(words.joined(separator: " ")))
    }
  }
  for option in Option.all + nagCompletions {
    var line = "complete -c wl-toast -l \(option.name)"
    if let subcommand = option.subcommand {
      line += " -n '__fish_seen_subcommand_from \(subcommand.words[0])'"
    }
    switch option.valueCompletion {
    case .words(let words)?: line += " -x -a " + quoted(words)
    case .files?: line += " -r -F"
    case .presets?: line += " -x -a '(wl-toast presets 2>/dev/null)'"
    case .anything?: line += " -x"
    case nil: break
    }
    line += " -d " + quoted(option.summary)
    lines.append(line)
  }
  return lines.joined(separator: "\n") + "\n"
}
