import Glibc
import Testing

@testable import ToastCommand

/// Which configuration file a command line reads, and what a missing or
/// unreadable one does: nothing for the standard file, a usage error for `--config`'s.
struct ConfigLoadingTests {
  /// The file `arguments` read (`PATH named` for `--config`'s, `PATH standard`), nil for none.
  func file(_ arguments: [String], standard: String? = "/std") -> String? {
    configFile(for: arguments, standardPath: standard).map {
      $0.path + ($0.named ? " named" : " standard")
    }
  }

  @Test func theFileIsConfigsOrTheStandardOne() {
    #expect(file(["Hi"]) == "/std standard")
    #expect(file(["--config", "/x", "Hi"]) == "/x named")
    #expect(file(["--config=/x", "Hi"], standard: nil) == "/x named")
    #expect(file([]) == "/std standard")
  }

  @Test func noFileForNoConfigNoStandardPathOrASubcommand() {
    #expect(file(["--no-config", "Hi"]) == nil)
    #expect(file(["--config", "/x", "--no-config", "Hi"]) == nil)
    #expect(file(["Hi"], standard: nil) == nil)
    for subcommand in ["hide", "status", "dnd", "nag", "completions"] {
      #expect(file([subcommand]) == nil, "\(subcommand)")
      #expect(
        file([subcommand, "--config", "/x"]) == nil,
        "\(subcommand)")
    }
    #expect(file(["--", "hide"]) == "/std standard")
  }

  @Test func watchAndTheNotificationServerReadTheStandardFileOnly() {
    #expect(file(["watch", "audio"]) == "/std standard")
    #expect(file(["watch", "audio", "--config", "/x"]) == "/std standard")
    #expect(file(["daemon", "--notifications"]) == "/std standard")
    #expect(file(["watch", "sway"], standard: nil) == nil)
  }

  @Test func theStandardPathIsLookedUpOnlyWhenItIsRead() {
    var lookedUp = 0
    func standard() -> String? {
      lookedUp += 1
      return "/std"
    }
    _ = configFile(for: ["--config", "/x", "Hi"], standardPath: standard())
    _ = configFile(for: ["--no-config", "Hi"], standardPath: standard())
    _ = configFile(for: ["hide"], standardPath: standard())
    #expect(lookedUp == 0)
    _ = configFile(for: ["Hi"], standardPath: standard())
    #expect(lookedUp == 1)
  }

  @Test func aMissingStandardFileIsNoFileAndAMissingNamedOneAnError() throws {
    let missing = "/nonexistent/wl-toast/config"
    #expect(try loadConfig(for: ["Hi"], standardPath: missing) == nil)
    #expect(throws: ConfigError(path: missing, reason: "No such file or directory")) {
      try loadConfig(for: ["--config", missing, "Hi"], standardPath: nil)
    }
  }

  @Test func anUnreadableNamedFileIsAnErrorAndAStandardOneIsSkipped() throws {
    let unreadable = "/proc/self/mem"
    do {
      _ = try loadConfig(for: ["--config", unreadable, "Hi"], standardPath: nil)
      Issue.record("read \(unreadable)")
    } catch {
      #expect(error.description.hasPrefix("cannot read \(unreadable): "))
    }
    #expect(try loadConfig(for: ["Hi"], standardPath: unreadable) == nil)
  }

  @Test func aReadableFileIsLoadedWithItsGoodLinesChecked() throws {
    var template = Array("/tmp/wl-toast-config-XXXXXX".utf8CString)
    let directory = String(cString: try #require(mkdtemp(&template)))
    let path = directory + "/config"
    defer {
      unlink(path)
      rmdir(directory)
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    try #require(fd >= 0)
    let text = Array("[default]\ntimeout = 3\nnot-an-option = 1\n".utf8)
    #expect(write(fd, text, text.count) == text.count)
    close(fd)
    let config = try #require(try loadConfig(for: ["--config", path, "Hi"], standardPath: nil))
    #expect(config.defaults.map(\.key) == ["timeout"])
    #expect(config.problems.count == 1)
    let standard = try #require(try loadConfig(for: ["Hi"], standardPath: path))
    #expect(standard == config)
  }
}
