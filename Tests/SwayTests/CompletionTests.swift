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
    }

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
    #expect(
      try setup.fish("wl-toast nag --detailed-").sorted() == [
        "--detailed-button", "--detailed-message",
      ])
  }

  @Test func zshLoadsTheFunctionWithoutError() throws {
    let setup = try Setup()
    mkdir(setup.directory + "/functions", 0o700)
    try writeFile(
      setup.directory + "/functions/_wl-toast",
      String(decoding: readFile(setup.directory + "/zsh") ?? [], as: UTF8.self))
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
