import Glibc
import Testing
import ToastModel
import ToastNag
import ToastNagOptions

@testable import ToastCommand

/// The table of options (``Option/all``, ``ToastField/all``, ``Subcommand/all``)
/// against everything that lists options: the parser, `--help`, the
/// configuration keys, the JSON fields, the follow-line rules, the completion
/// scripts and the man pages.
@Suite("The option table")
struct OptionTableTests {
  /// The text of a file of the repository.
  static func repositoryFile(_ path: String) throws -> String {
    var root = #filePath
    for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
    let fd = open(root + "/" + path, O_RDONLY)
    try #require(fd >= 0, "\(path) opens")
    defer { close(fd) }
    var text: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while case let count = read(fd, &chunk, chunk.count), count > 0 { text += chunk[0..<count] }
    return String(decoding: text, as: UTF8.self)
  }

  /// The lines that follow `.TP` in a man page (each a term being defined),
  /// with roff's `\-` read as `-`.
  static func definedTerms(in page: String) -> [String] {
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
    return lines.indices.dropLast().filter { lines[$0] == ".TP" }.map {
      String(lines[$0 + 1]).replacing("\\-", with: "-")
    }
  }

  /// The long options (`--NAME`) in a text, without their dashes.
  static func longOptions(in text: String) -> Set<String> {
    var names: Set<String> = []
    var rest = Substring(text)
    while let range = rest.firstRange(of: "--") {
      let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
      if name.first?.isLetter == true { names.insert(String(name)) }
      rest = rest[range.upperBound...].dropFirst(name.count)
    }
    return names
  }

  @Test func namesAreUniqueAndEachOptionHasItsParts() {
    #expect(Set(Option.all.map(\.name)).count == Option.all.count)
    #expect(Set(ToastField.all.map(\.name)).count == ToastField.all.count)
    for option in Option.all {
      #expect(!option.summary.isEmpty, "\(option.name)")
      #expect(!option.scope.isEmpty, "\(option.name)")
      #expect(
        option.scope.contains(.show) || Subcommand.owning(option) != nil,
        "\(option.name) can be given somewhere")
    }
    // Every setting of a toast but the message is an option of a toast and a key.
    for field in ToastField.all where field.isOption {
      let option = Option.named(field.name)
      #expect(option?.scope.contains(.show) == true && configKeys.contains(field.name))
    }
  }

  @Test func helpListsEveryOptionOfAToastAndEachSubcommandsOptions() {
    let help = usageText
    for option in Option.all {
      if option.scope.contains(.show) {
        #expect(help.contains("\n  " + (option.letter.map { "-\($0), " } ?? "") + option.flagName))
        for line in (option.help ?? "").split(separator: "\n") {
          let firstWords = line.split(separator: " ").prefix(3).joined(separator: " ")
          #expect(help.contains(firstWords), "\(option.name): \(firstWords)")
        }
      } else {
        let subcommand = Subcommand.owning(option)
        let synopsis = help.split(separator: "\n").first {
          $0.contains("wl-toast " + (subcommand?.name ?? "?"))
        }
        #expect(synopsis?.contains("[" + option.flagName) == true, "\(option.name)")
      }
    }
    for subcommand in Subcommand.all {
      #expect(help.contains("wl-toast " + subcommand.synopsis))
    }
  }

  @Test func helpSaysWhatAFollowLineMaySet() throws {
    let help = usageText
    let start = try #require(help.firstRange(of: "json: an object setting"))
    let end = try #require(help[start.upperBound...].firstRange(of: "\n  --"))
    let said = help[start.upperBound..<end.lowerBound].split(whereSeparator: { " ,\n".contains($0) }
    )
    .filter { $0 != "or" }.map(String.init)
    #expect(Set(said) == Toast.followFields)
    #expect(Toast.followFields == ["text", "say", "progress", "spinner", "style", "timeout"])
  }

  @Test func everySettingWithAValueNamesItsLimit() {
    // Each field's InvalidValue.Setting is looked up by name when a value is
    // bad, not when the table is built: every name must have one.
    for field in ToastField.all where field.takesValue && field.isOption {
      #expect(Toast.InvalidValue.Setting(rawValue: field.name) != nil, "\(field.name)")
    }
  }

  @Test func everyFieldIsInTheJSONOfAToastAndComesBack() throws {
    var toast = Toast("Volume")
    toast.progress = 0.4
    toast.isAnimated = false
    toast.icon = "audio-volume-high-symbolic"
    guard case .object(let fields) = toast.json else {
      Issue.record("a toast's JSON is an object")
      return
    }
    // Every field but those a toast without them leaves out (newer than the
    // protocol's first version), which it carries once set.
    #expect(
      Set(fields.keys) == Set(ToastField.all.filter { !$0.isOmittedWhenDefault }.map(\.name)))
    #expect(fields["no-animation"] == .bool(true), "the field is named as the option")
    var asking = toast
    asking.buttons = ["OK"]
    asking.keyboard = .exclusive
    asking.urgency = .critical
    asking.fullscreen = .delay
    asking.doNotDisturb = .show
    asking.sound = "dialog-warning"
    asking.soundOnUpdate = true
    asking.showsCountdown = true
    asking.idleThreshold = 30
    guard case .object(let all) = asking.json else {
      Issue.record("a toast's JSON is an object")
      return
    }
    #expect(Set(all.keys) == Set(ToastField.all.map(\.name)))
    var decoded = Toast("")
    try decoded.apply(try JSONValue.parse(toast.json.serialized))
    #expect(decoded == toast)
  }

  @Test func optionsOfASubcommandBelongToItAndNowhereElse() {
    for option in Option.all where !option.scope.contains(.show) {
      let subcommand = Subcommand.owning(option)!
      let arguments = [option.flagName] + (option.takesValue ? ["1"] : []) + ["Hi"]
      guard case .failure(let error) = parseArguments(arguments) else {
        Issue.record("\(option.name) on a toast's command line")
        continue
      }
      #expect(error == .misplacedOption(option.flagName, belongsTo: "wl-toast " + subcommand.name))
      #expect(!configKeys.contains(option.name) || option.scope.contains(.notificationsConfig))
    }
    // `nag` hands every word over to swaynag's reading (ToastNagTests).
    for subcommand in Subcommand.all where !subcommand.passesArguments {
      for option in Option.all where !option.scope.contains(.everyCommand) {
        guard !option.scope.contains(subcommand.scope) else { continue }
        let arguments =
          subcommand.words + [option.flagName] + (option.takesValue ? ["x"] : [])
        // A word that is the same subcommand's target would come first.
        let result = parseArguments(arguments)
        if case .failure(.notApplicable(let name, _)) = result {
          #expect(name == option.flagName)
        } else {
          Issue.record("\(subcommand.name) took \(option.flagName): \(result)")
        }
      }
    }
  }

  @Test func nagHandsEveryWordOverUnread() {
    for words in [["-h"], ["--help"], ["-v"], ["--style", "x"], ["-m", "hi", "--", "-V"], []] {
      #expect(parseArguments(["nag"] + words) == .success(.nag(words)))
    }
    #expect(usageText.contains("wl-toast nag [SWAYNAG-OPTIONS...]"))
  }

  @Test func everyFlagOfTheFileTakesYesOrNo() {
    for key in configKeys {
      guard let option = Option.forKey(key, notifications: true), option.value == .none else {
        continue
      }
      // A toast's flag in [default]; the server's (history) in [notifications].
      let section = option.scope.contains(.config) ? "[default]" : "[notifications]"
      let config = Config(text: "\(section)\n\(key) = maybe\n\(key) = no\n", path: "c").checked()
      #expect(config.problems == ["c:2: \(key): expected true or false, got 'maybe'"])
      let kept = config.defaults + config.notificationSections.flatMap(\.entries)
      #expect(kept.map(\.value) == ["no"], "\(key)")
    }
  }

  @Test func completionsOfferEveryOption() {
    let bash = completionScript(for: .bash)
    let fish = completionScript(for: .fish)
    let zsh = completionScript(for: .zsh)
    for option in Option.all {
      #expect(bash.contains(option.flagName), "bash: \(option.name)")
      #expect(fish.contains("-l \(option.name) "), "fish: \(option.name)")
      if option.scope.contains(.show) {
        #expect(zsh.contains("'\(option.flagName)["), "zsh: \(option.name)")
      }
      for choice in option.choices where option.takesValue {
        #expect(bash.contains(choice) && fish.contains(choice) && zsh.contains(choice))
      }
    }
    for subcommand in Subcommand.all {
      #expect(bash.contains(subcommand.words[0]) && fish.contains(subcommand.words[0]))
    }
  }

  @Test func manualPageOneDocumentsEveryOptionAndNoOther() throws {
    let page = try Self.repositoryFile("man/wl-toast.1")
    var documented: Set<String> = []
    for term in Self.definedTerms(in: page) { documented.formUnion(Self.longOptions(in: term)) }
    let options = Set(Option.all.map(\.name))
    #expect(options.subtracting(documented).sorted() == [], "options the page does not document")
    #expect(documented.subtracting(options).sorted() == [], "options the page makes up")
  }

  @Test func nagsManualPageDocumentsEveryOptionAndNoOther() throws {
    let page = try Self.repositoryFile("man/wl-toast-nag.1").replacing("\\-", with: "-")
    // `--key = value` in the file's description names no option.
    let documented = Self.longOptions(in: page).subtracting(["key"])
    let options = Set(nagOptions.map(\.name))
    #expect(options.subtracting(documented).sorted() == [], "options the page does not document")
    #expect(documented.subtracting(options).sorted() == [], "options the page makes up")
    for option in nagOptions where option.letter != nil {
      #expect(page.contains("-\(option.letter!) \", \" --\(option.name)"), "-\(option.letter!)")
    }
  }

  @Test func manualPageFiveDocumentsEveryKeyAndNoOther() throws {
    let page = try Self.repositoryFile("man/wl-toast.5")
    var documented: Set<String> = []
    for term in Self.definedTerms(in: page) where term.hasPrefix(".BR ") {
      let words = term.dropFirst(4).split(separator: " ", maxSplits: 1)
      if words.count == 2, words[1].hasPrefix("\" = ") { documented.insert(String(words[0])) }
    }
    let keys = Set(configKeys)
    #expect(keys.subtracting(documented).sorted() == [], "keys the page does not document")
    #expect(documented.subtracting(keys).sorted() == [], "keys the page makes up")
  }
}
