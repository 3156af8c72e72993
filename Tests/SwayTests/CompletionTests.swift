import Glibc
import TestSupport
import Testing

/// The completion scripts, run by the real shells (bash, fish and zsh from
/// `make deps`) against the built command.
@Suite(.serialized)
struct CompletionTests {
  /// A directory with the command on PATH, a configuration file with two
  /// presets, and each shell's script as `wl-toast completions` prints it.
  final class Setup {
    let directory: String
    let environment: [String: String]

    init() throws {
      directory = try makeTemporaryDirectory(prefix: "wl-toast-completions")
      let command = builtProduct("wl-toast")
      let bin = String(command[..<(command.lastIndex(of: "/") ?? command.startIndex)])
      mkdir(directory + "/config", 0o700)
      mkdir(directory + "/config/wl-toast", 0o700)
      try writeFile(
        directory + "/config/wl-toast/config",
        "[preset volume]\ntag = volume\n[preset brightness]\ntag = brightness\n")
      var environment = currentEnvironment()
      environment["PATH"] = bin + ":/usr/bin:/bin"
      environment["XDG_CONFIG_HOME"] = directory + "/config"
      environment["HOME"] = directory
      self.environment = environment
      let runner = CommandRunner(environment: environment, directory: directory)
      for shell in ["bash", "zsh", "fish"] {
        let script = try runner.runToEnd(["completions", shell])
        #expect(script.status == 0)
        try writeFile(directory + "/" + shell, script.output)
      }
      mkdir(directory + "/functions", 0o700)
      try writeFile(
        directory + "/functions/_wl-toast",
        String(decoding: readFile(directory + "/zsh") ?? [], as: UTF8.self))
      try writeFile(directory + "/capture.zsh", Self.zshCapture)
    }

    /// A zsh script that types `$2` and Tab into an interactive zsh (in a
    /// pseudo-terminal, `zsh/zpty`) whose `fpath` starts with `$1`, and
    /// prints the matches its completion adds, a line each: `compadd` is
    /// wrapped to print what it adds (marked by a byte no echo has), and the
    /// shell exits once completion ends.
    static let zshCapture = #"""
      zmodload zsh/zpty || exit 2
      zpty z zsh -f -i
      zpty -w z "PROMPT= RPROMPT=; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D"
      zpty -w z 'bindkey "^I" complete-word'
      zpty -w z 'compadd() {
        if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
        typeset -a hits; builtin compadd -A hits "$@"
        (( $#hits )) && print -rl -- $'"'"'\x01'"'"'${^hits}
      }'
      zpty -w z 'comppostfuncs=(ended); ended() { print -r -- $'"'"'\x02'"'"'; exit }'
      zpty -w z "$2"$'\t'
      local line
      while zpty -r z line; do
        [[ $line == *$'\x02'* ]] && break
        [[ $line == *$'\x01'* ]] && print -r -- "${${${line##*$'\x01'}%$'\n'}%$'\r'}"
      done
      zpty -d z
      """#

    deinit { removeTree(directory) }

    /// What bash completes for the words typed so far (the last is being typed).
    func bash(_ words: [String]) throws -> [String] {
      let array = words.map { "'\($0)'" }.joined(separator: " ")
      let result = try runCommand(
        [
          "bash", "-c",
          "source \(directory)/bash; COMP_WORDS=(wl-toast \(array)); COMP_CWORD=\(words.count);"
            + " _wl_toast; printf '%s\\n' \"${COMPREPLY[@]}\"",
        ], environment: environment)
      #expect(result.status == 0)
      return result.output.split(separator: "\n").map(String.init)
    }

    /// What zsh completes for a command line (the matches, without descriptions).
    func zsh(_ line: String) throws -> [String] {
      let result = try runCommand(
        ["timeout", "30", "zsh", "-f", directory + "/capture.zsh", directory + "/functions", line],
        environment: environment)
      #expect(result.status == 0, "zsh completing '\(line)': \(result.output)")
      return result.output.split(separator: "\n").map(String.init)
    }

    /// What fish completes for a command line (the words only, not the descriptions).
    func fish(_ line: String) throws -> [String] {
      let result = try runCommand(
        ["fish", "--no-config", "-c", "source \(directory)/fish; complete -C '\(line)'"],
        environment: environment)
      #expect(result.status == 0)
      return result.output.split(separator: "\n").map {
        String($0.prefix { $0 != "\t" })
      }
    }
  }

  @Test func bashCompletesOptionsValuesSubcommandsAndPresets() throws {
    let setup = try Setup()
    #expect(try setup.bash(["--pos"]) == ["--position"])
    #expect(try setup.bash(["--style", ""]) == ["hud", "banner", "bar", "card"])
    #expect(try setup.bash(["--position", "top-"]) == ["top-left", "top-right"])
    #expect(try setup.bash(["h"]) == ["hide"])
    #expect(try setup.bash(["hide", "--"]) == ["--tag", "--after"])
    #expect(try setup.bash(["completions", ""]) == ["bash", "zsh", "fish"])
    #expect(try setup.bash(["dnd", ""]) == ["on", "off", "toggle"])
    #expect(try setup.bash(["notifications", "d"]) == ["dismiss"])
    #expect(try setup.bash(["--preset", ""]) == ["brightness", "volume"], "from the config file")
    #expect(try setup.bash(["--timeout", "a"]) == ["auto"])
    // nag: swaynag's options and their values.
    #expect(
      try setup.bash(["nag", "--button-d"]).sorted() == [
        "--button-dismiss", "--button-dismiss-gap", "--button-dismiss-no-terminal",
      ])
    #expect(try setup.bash(["nag", "--edge", ""]) == ["top", "bottom"])
    #expect(try setup.bash(["nag", "--type", "w"]) == ["warning"])
  }

  @Test func fishCompletesLikewise() throws {
    let setup = try Setup()
    #expect(try setup.fish("wl-toast --pos") == ["--position"])
    #expect(try setup.fish("wl-toast --layer ") == ["background", "bottom", "overlay", "top"])
    #expect(try setup.fish("wl-toast --preset ") == ["brightness", "volume"])
    #expect(try setup.fish("wl-toast completions ").contains("zsh"))
    #expect(try setup.fish("wl-toast dnd ") == ["off", "on", "toggle"])
    #expect(
      try setup.fish("wl-toast nag --detailed-").sorted() == [
        "--detailed-button", "--detailed-message",
      ])
  }

  @Test func zshCompletesOptionsValuesSubcommandsAndTheirWords() throws {
    let setup = try Setup()
    #expect(try setup.zsh("wl-toast --pos") == ["--position"])
    #expect(try setup.zsh("wl-toast --style ") == ["hud", "banner", "bar", "card"])
    #expect(try setup.zsh("wl-toast --preset ").sorted() == ["brightness", "volume"])
    #expect(try setup.zsh("wl-toast noti") == ["notifications"])
    #expect(
      try setup.zsh("wl-toast notifications ").sorted() == [
        "dismiss", "focus", "history", "invoke", "list", "restore",
      ])
    #expect(try setup.zsh("wl-toast notifications dismiss --") == ["--all"])
    #expect(try setup.zsh("wl-toast hide --").sorted() == ["--after", "--tag"])
    #expect(try setup.zsh("wl-toast dnd ").sorted() == ["off", "on", "toggle"])
    #expect(try setup.zsh("wl-toast watch audio s") == ["sway"])
    #expect(try setup.zsh("wl-toast nag --edge ") == ["top", "bottom"])
  }

  @Test func zshLoadsTheFunctionWithoutError() throws {
    let setup = try Setup()
    let result = try runCommand(
      [
        "zsh", "-f", "-c",
        "fpath=(\(setup.directory)/functions $fpath); autoload -Uz compinit;"
          + " compinit -u -d \(setup.directory)/zcompdump 2>&1; print -r -- $_comps[wl-toast];"
          + " autoload -Uz +X _wl-toast 2>&1 && print loaded",
      ], environment: setup.environment)
    #expect(result.status == 0)
    #expect(result.output == "_wl-toast\nloaded\n")
  }
}
