import ToastModel

/// A shell that `wl-toast completions` writes a script for.
public enum Shell: String, Equatable, Sendable, CaseIterable {
  /// GNU bash (bash-completion's directory, or `source` it).
  case bash
  /// zsh (a `#compdef` function for `$fpath`).
  case zsh
  /// fish (a file for `vendor_completions.d`).
  case fish
}

extension Option {
  /// One line on what the option does, for completion menus.
  var summary: String {
    switch self {
    case .style: "a box in the middle or a pill at the top"
    case .timeout: "hide after SECONDS (0: until dismissed; auto: by length)"
    case .spinner: "an activity indicator above the text"
    case .progress: "a progress bar filled to PERCENT (0 to 200)"
    case .offset: "move the HUD by X,Y pixels"
    case .dismiss: "tap: a click, touch or Escape dismisses it"
    case .modal: "cover the screen and take all input"
    case .dim: "darken the screen behind a modal toast"
    case .markup: "the message is Pango markup"
    case .noAnimation: "show and hide at once"
    case .font: "the Pango font"
    case .background: "the colour of the box"
    case .foreground: "the colour of the text"
    case .output: "the output to show on, or all"
    case .position: "where the toast rests"
    case .margin: "distance to the output's edges"
    case .layer: "overlay (above fullscreen) or top"
    case .icon: "an icon name or a PNG or SVG file"
    case .iconTheme: "the icon theme for icon names"
    case .grace: "appear only if still wanted after SECONDS"
    case .minimumShow: "once shown, stay at least SECONDS"
    case .accessibility: "screen readers hear it: auto, on or off"
    case .say: "what a screen reader says instead of the message"
    case .tag: "one toast per tag, updated in place"
    case .preset: "a preset of the configuration file"
    case .config: "read this configuration file"
    case .noConfig: "read no configuration file"
    case .renderPNG: "draw the toast into a PNG file"
    case .scale: "with --render-png: pixels per logical pixel"
    case .size: "with --render-png: the output's size WxH"
    case .wait: "stay until the toast is gone"
    case .printOutcome: "print how the toast ended"
    case .follow: "each line of standard input updates the toast"
    case .linger: "keep the owner this long after its last toast"
    case .after: "hide after SECONDS"
    case .workspaces: "also show workspace changes"
    case .focusedTags: "also show the tags focused after each change"
    case .urgent: "also show tags that get an urgent window"
    case .tagNames: "names for tags: 1=web,2=code"
    case .help: "print the help"
    case .version: "print the version"
    }
  }

  /// The values the option takes, when they are a short list.
  var choices: [String]? {
    switch self {
    case .style: Toast.Style.allCases.map(\.rawValue)
    case .dismiss: Toast.Dismissal.allCases.map(\.rawValue)
    case .position: Toast.Position.allCases.map(\.rawValue)
    case .layer: Toast.Layer.allCases.map(\.rawValue)
    case .accessibility: Toast.Accessibility.allCases.map(\.rawValue)
    case .timeout: ["auto"]
    case .output: ["all"]
    default: nil
    }
  }

  /// Whether the value is a file's path.
  var takesPath: Bool { self == .config || self == .icon || self == .renderPNG }

  /// Whether the option belongs to showing a toast (not to a subcommand).
  var isToastOption: Bool { self != .after && !isWatchOption }

  /// Whether the option belongs to `wl-toast watch`.
  var isWatchOption: Bool { [.workspaces, .focusedTags, .urgent, .tagNames].contains(self) }

  /// The option's name without its dashes.
  var name: String { String(rawValue.dropFirst(2)) }
}

/// The subcommands and the options each takes.
private let subcommands: [(name: String, options: [Option])] = [
  ("hide", [.tag, .after]), ("status", [.tag]),
  ("watch", [.workspaces, .focusedTags, .urgent, .tagNames]), ("daemon", []),
  ("completions", []),
]

/// The completion script of `wl-toast` for `shell`, made from the options the
/// parser knows: every option, the values of those with a short list, file
/// names for paths, the presets of the configuration file (asked of
/// `wl-toast presets` as the user types) and the subcommands.
public func completionScript(for shell: Shell) -> String {
  switch shell {
  case .bash: bashScript()
  case .zsh: zshScript()
  case .fish: fishScript()
  }
}

private func bashScript() -> String {
  let toastOptions = Option.allCases.filter(\.isToastOption)
  var valueCases = ""
  for option in Option.allCases where option.valueName != nil {
    let reply: String
    if let choices = option.choices {
      reply = "COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\"))"
    } else if option.takesPath {
      reply = "COMPREPLY=($(compgen -f -- \"$cur\"))"
    } else if option == .preset {
      reply = "COMPREPLY=($(compgen -W \"$(wl-toast presets 2>/dev/null)\" -- \"$cur\"))"
    } else {
      reply = "COMPREPLY=()"
    }
    valueCases += "    \(option.rawValue)) \(reply); return ;;\n"
  }
  var subcommandCases = ""
  for (name, options) in subcommands {
    let words =
      name == "watch"
      ? "$( ((cword == 2)) && echo sway river) \(options.map(\.rawValue).joined(separator: " "))"
      : name == "completions"
        ? ((Shell.allCases.map(\.rawValue)).joined(separator: " "))
        : options.map(\.rawValue).joined(separator: " ")
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
    \(subcommandCases)    *) words="\(toastOptions.map(\.rawValue).joined(separator: " ")) --follow=text --follow=json" ;;
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

private func zshScript() -> String {
  var specs: [String] = []
  for option in Option.allCases where option.isToastOption {
    let escaped = option.summary.replacing("[", with: "\\[").replacing("]", with: "\\]")
      .replacing(":", with: "\\:")
    var spec = "\(option.rawValue)[\(escaped)]"
    if option.valueName != nil {
      let value = option.name
      if let choices = option.choices {
        spec += ":\(value):(\(choices.joined(separator: " ")))"
      } else if option.takesPath {
        spec += ":\(value):_files"
      } else if option == .preset {
        spec += ":\(value):(${(f)\"$(wl-toast presets 2>/dev/null)\"})"
      } else {
        spec += ":\(value): "
      }
    }
    specs.append("    " + quoted(spec) + " \\")
  }
  return """
    #compdef wl-toast
    # zsh completion for wl-toast (wl-toast completions zsh)
    _wl-toast() {
      if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
        _values 'subcommand' \(subcommands.map(\.name).joined(separator: " "))
        return
      fi
      _arguments -s \\
    \(specs.joined(separator: "\n"))
        '*:message: '
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
    "complete -c wl-toast -n '__fish_seen_subcommand_from completions' -a "
      + quoted(Shell.allCases.map(\.rawValue).joined(separator: " ")),
    "complete -c wl-toast -n '__fish_seen_subcommand_from watch' -a 'sway river'",
  ]
  for option in Option.allCases {
    var line = "complete -c wl-toast -l \(option.name)"
    if option == .after {
      line += " -n '__fish_seen_subcommand_from hide'"
    } else if option.isWatchOption {
      line += " -n '__fish_seen_subcommand_from watch'"
    }
    if option.valueName != nil {
      if let choices = option.choices {
        line += " -x -a " + quoted(choices.joined(separator: " "))
      } else if option.takesPath {
        line += " -r -F"
      } else if option == .preset {
        line += " -x -a '(wl-toast presets 2>/dev/null)'"
      } else {
        line += " -x"
      }
    }
    line += " -d " + quoted(option.summary)
    lines.append(line)
  }
  return lines.joined(separator: "\n") + "\n"
}
