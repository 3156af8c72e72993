import Glibc
import SystemSupport
import ToastModel

/// A preview drawn into a PNG file without a compositor (`--render-png`).
package struct RenderRequest: Equatable, Sendable {
  /// The PNG file to write.
  package var path: String
  /// Pixels per logical pixel (`--scale`, 1 to 4, fractions allowed).
  package var scale: Double
  /// The logical size of the output the toast is laid out for (`--size`).
  package var outputWidth: Int
  /// The logical size of the output the toast is laid out for (`--size`).
  package var outputHeight: Int

  /// A request with the defaults: scale 1, a 1280x720 output.
  package init(path: String, scale: Double = 1, outputWidth: Int = 1280, outputHeight: Int = 720) {
    self.path = path
    self.scale = scale
    self.outputWidth = outputWidth
    self.outputHeight = outputHeight
  }

  /// The scales a preview may be drawn at.
  package static let scales: ClosedRange<Double> = 1...4
  /// The output sizes a preview may be laid out for, each side.
  package static let sizes: ClosedRange<Int> = 64...16_384
}

/// What `wl-toast watch sway` shows besides binding modes.
package struct SwayWatchOptions: Equatable, Sendable {
  /// Whether to show a toast ("Workspace 3") when the focus moves to another workspace.
  package var workspaces: Bool = false
  /// Whether to show a toast naming the keyboard layout ("German") when it changes.
  package var keyboardLayout: Bool = false

  /// Creates options; by default only binding modes are shown.
  package init(workspaces: Bool = false, keyboardLayout: Bool = false) {
    self.workspaces = workspaces
    self.keyboardLayout = keyboardLayout
  }
}

/// What `wl-toast watch river` shows besides modes.
package struct RiverWatchOptions: Equatable, Sendable {
  /// Whether to show a toast ("Tag 2") when an output's focused tags change.
  package var focusedTags: Bool
  /// Whether to show a toast when a view on some tag becomes urgent.
  package var urgent: Bool
  /// Names for tags, by tag number (``tagNumbers``), used instead of the number.
  package var tagNames: [Int: String]

  /// Creates options; by default only modes are shown and tags go by number.
  package init(focusedTags: Bool = false, urgent: Bool = false, tagNames: [Int: String] = [:]) {
    self.focusedTags = focusedTags
    self.urgent = urgent
    self.tagNames = tagNames
  }

  /// The numbers of river's tags.
  package static let tagNumbers: ClosedRange<Int> = 1...32
  /// The most characters (Unicode scalars) a tag's name may have.
  package static let tagNameLength = 64

  /// Whether `name` may name a tag: 1 to ``tagNameLength`` characters, no
  /// control characters and no comma (which separates the names of `--tag-names`).
  package static func isTagName(_ name: String) -> Bool {
    !name.isEmpty && name.unicodeScalars.count <= tagNameLength && !name.contains(",")
      && !name.unicodeScalars.contains(where: Toast.isControl)
  }
}

/// One source that `wl-toast watch` follows, and what to show of it.
package enum WatchTarget: Equatable, Sendable {
  /// sway's binding modes, through its IPC socket.
  case sway(SwayWatchOptions)
  /// river's modes and tags, through its status protocol.
  case river(RiverWatchOptions)
  /// The sound server's default output and input (volume, mute, device), through libpulse.
  case audio
  /// MPRIS media players on the session bus: track changes, play and pause.
  case media
  /// The backlight's brightness, through udev.
  case backlight

  /// Its word on the command line (`sway`), which also names it in messages (`watch sway`).
  package var word: String {
    switch self {
    case .sway: "sway"
    case .river: "river"
    case .audio: "audio"
    case .media: "media"
    case .backlight: "backlight"
    }
  }

  /// The preset (`[preset NAME]` of the configuration file) whose looks its toasts take.
  package var presetName: String {
    switch self {
    case .sway: "sway-mode"
    case .river: "river-mode"
    case .audio: "volume"
    case .media: "media"
    case .backlight: "brightness"
    }
  }

  /// The words of every target, in the order `--help` lists them.
  package static let words = ["audio", "media", "backlight", "sway", "river"]
}

/// What `wl-toast watch` follows (one or several sources, each once, in one
/// process and one event loop) and the looks of its toasts.
package struct WatchRequest: Equatable, Sendable {
  /// The sources, each at most once, in the order given.
  package var targets: [WatchTarget]
  /// The settings of each target's toasts by preset name (``WatchTarget/presetName``),
  /// as the socket protocol's JSON (only the fields the configuration sets);
  /// the watcher's text, progress, icon, tag and do-not-disturb policy win.
  package var presets: [String: JSONValue]

  /// A request for `targets`, with `presets`.
  package init(targets: [WatchTarget], presets: [String: JSONValue] = [:]) {
    self.targets = targets
    self.presets = presets
  }

  /// A request to follow sway alone.
  package static func sway(_ options: SwayWatchOptions) -> WatchRequest {
    WatchRequest(targets: [.sway(options)])
  }

  /// A request to follow river alone.
  package static func river(_ options: RiverWatchOptions) -> WatchRequest {
    WatchRequest(targets: [.river(options)])
  }
}

/// How the command starts `wl-toast-owner`, the program that links Wayland,
/// Pango and Cairo: its command line, written by the command (``arguments``)
/// and read back by the owner (``init(arguments:)``), which is not meant to
/// be run by hand.
///
///     wl-toast-owner serve LISTEN-FD INODE LINGER|resident LOCK-FD [notifications[-replace] RULES]
///     wl-toast-owner activated          (systemd socket activation: wl-toast@.socket)
///     wl-toast-owner watch TARGET... [presets PRESETS-JSON], each TARGET one of
///         sway [workspaces] [keyboard-layout] | river [focused-tags] [urgent] [N=NAME ...]
///         | audio | media | backlight
///     wl-toast-owner render PATH SCALE WIDTH HEIGHT TOAST-JSON
///     wl-toast-owner nag [SWAYNAG-OPTIONS...]
package enum OwnerLaunch: Equatable, Sendable {
  /// Serve toasts on a listener won in the election (its descriptors, which
  /// the owner program adopts), until `linger` seconds after the last one
  /// (nil: a resident owner, which never lingers out); with `notifications`
  /// (a ``NotificationsRequest/serve(replace:rules:)``), also serve
  /// `org.freedesktop.Notifications` (`wl-toast daemon --notifications`).
  case serve(
    Rendezvous.Listener.Numbers, linger: Double?, notifications: NotificationsRequest? = nil)
  /// Serve toasts on the listening socket systemd passes.
  case activated
  /// Follow a compositor and show what it reports.
  case watch(WatchRequest)
  /// Draw a toast into a PNG file, with no compositor.
  case render(RenderRequest, Toast)
  /// Show swaynag's bar, its command line as given to `wl-toast nag`
  /// (ToastNag reads it), in this process: no socket, no tag.
  case nag([String])

  /// The linger `serve` takes for an owner that stays after its last toast.
  package static let resident = "resident"

  /// `seconds` as a plain decimal number, as the command's rule reads it
  /// (`0.00001`, never `1e-05`), to the nanosecond.
  static func plainDecimal(_ seconds: Double) -> String {
    let nanoseconds = Int64((seconds * 1e9).rounded())
    let fraction = String(nanoseconds % 1_000_000_000)
    return "\(nanoseconds / 1_000_000_000)."
      + String(repeating: "0", count: 9 - fraction.count) + fraction
  }

  /// The words that ask an owner to serve notifications: `notifications`
  /// (or `notifications-replace`) and the rules as JSON; none for nil.
  private static func notificationArguments(_ request: NotificationsRequest?) -> [String] {
    guard case .serve(let replace, let rules)? = request else { return [] }
    return [replace ? "notifications-replace" : "notifications", rules.serialized]
  }

  /// The request ``notificationArguments(_:)`` wrote; nil for no words.
  private static func notifications(in words: ArraySlice<String>) throws(OwnerLaunchError)
    -> NotificationsRequest?
  {
    guard let word = words.first, let rules = words.last else { return nil }
    guard word == "notifications" || word == "notifications-replace",
      let value = try? JSONValue.parse(rules), case .array = value
    else { throw OwnerLaunchError("serve: expected notifications[-replace] RULES-JSON") }
    return .serve(replace: word == "notifications-replace", rules: value)
  }

  /// A watch target's words on the owner's command line: `sway workspaces`.
  private static func words(_ target: WatchTarget) -> [String] {
    switch target {
    case .sway(let options):
      ["sway"] + (options.workspaces ? ["workspaces"] : [])
        + (options.keyboardLayout ? ["keyboard-layout"] : [])
    case .river(let options):
      ["river"] + (options.focusedTags ? ["focused-tags"] : [])
        + (options.urgent ? ["urgent"] : [])
        + options.tagNames.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    case .audio, .media, .backlight:
      [target.word]
    }
  }

  /// The request ``words(_:)`` wrote for each target (the words after `watch`),
  /// then `presets` and their JSON.
  private static func watchRequest(_ words: [String]) throws(OwnerLaunchError) -> WatchRequest {
    var request = WatchRequest(targets: [])
    var rest = words[...]
    while let word = rest.popFirst() {
      if word == "presets", rest.count == 1, !request.targets.isEmpty {
        guard let value = try? JSONValue.parse(rest[rest.startIndex]),
          case .object(let presets) = value,
          presets.values.allSatisfy({ if case .object = $0 { true } else { false } })
        else { throw OwnerLaunchError("watch: expected presets PRESETS-JSON") }
        request.presets = presets
        break
      }
      let target: WatchTarget
      switch word {
      case "sway": target = .sway(try swayOptions(&rest))
      case "river": target = .river(try riverOptions(&rest))
      case "audio": target = .audio
      case "media": target = .media
      case "backlight": target = .backlight
      default:
        throw OwnerLaunchError(
          request.targets.isEmpty
            ? "started by wl-toast; see 'wl-toast --help'"
            : "watch: unexpected \(Toast.quoted(word))")
      }
      guard !request.targets.contains(where: { $0.word == target.word }) else {
        throw OwnerLaunchError("watch: \(word) given twice")
      }
      request.targets.append(target)
    }
    return request
  }

  /// `watch sway`'s words, up to the next target.
  private static func swayOptions(_ rest: inout ArraySlice<String>) throws(OwnerLaunchError)
    -> SwayWatchOptions
  {
    var options = SwayWatchOptions()
    while let word = rest.first, !isWatchTargetStart(word) {
      rest.removeFirst()
      switch word {
      case "workspaces" where !options.workspaces: options.workspaces = true
      case "keyboard-layout" where !options.keyboardLayout: options.keyboardLayout = true
      default: throw OwnerLaunchError("watch sway: unexpected \(Toast.quoted(word))")
      }
    }
    return options
  }

  /// `watch river`'s words, up to the next target.
  private static func riverOptions(_ rest: inout ArraySlice<String>) throws(OwnerLaunchError)
    -> RiverWatchOptions
  {
    var options = RiverWatchOptions()
    while let word = rest.first, !isWatchTargetStart(word) {
      rest.removeFirst()
      if word == "focused-tags" && !options.focusedTags {
        options.focusedTags = true
      } else if word == "urgent" && !options.urgent {
        options.urgent = true
      } else if let equals = word.firstIndex(of: "="),
        let number = Int(word[..<equals]), RiverWatchOptions.tagNumbers.contains(number),
        options.tagNames[number] == nil,
        case let name = String(word[word.index(after: equals)...]),
        RiverWatchOptions.isTagName(name)
      {
        options.tagNames[number] = name
      } else {
        throw OwnerLaunchError("watch river: unexpected \(Toast.quoted(word))")
      }
    }
    return options
  }

  /// Whether `word` starts the next target (or the presets) on a watch's line:
  /// no option word nor river's `N=NAME` is a target's word.
  private static func isWatchTargetStart(_ word: String) -> Bool {
    word == "presets" || WatchTarget.words.contains(word)
  }

  /// The owner program's arguments (without its path).
  package var arguments: [String] {
    switch self {
    case .serve(let listener, let linger, let notifications):
      [
        "serve", String(listener.fd), String(listener.inode),
        linger.map(Self.plainDecimal) ?? Self.resident, listener.lockFD.map { String($0) } ?? "-1",
      ] + Self.notificationArguments(notifications)
    case .activated:
      ["activated"]
    case .watch(let request):
      ["watch"] + request.targets.flatMap(Self.words)
        + (request.presets.isEmpty
          ? [] : ["presets", JSONValue.object(request.presets).serialized])
    case .render(let request, let toast):
      [
        "render", request.path, String(request.scale), String(request.outputWidth),
        String(request.outputHeight), toast.json.serialized,
      ]
    case .nag(let arguments):
      ["nag"] + arguments
    }
  }

  /// Reads the owner program's arguments, by the rules the command checked
  /// them with; the error is one line (without the program's name).
  package init(arguments: [String]) throws(OwnerLaunchError) {
    let rest = Array(arguments.dropFirst())
    switch (arguments.first, rest.count) {
    case ("serve", 4), ("serve", 6):
      let linger: Double?
      if rest[2] == Self.resident {
        linger = nil
      } else {
        do {
          linger = try Toast.checkedSeconds(decimal(rest[2]), of: .linger, written: rest[2])
        } catch {
          throw OwnerLaunchError("serve: --linger: \(error.reason)")
        }
      }
      guard let fd = Int32(rest[0]), fd >= 0, let inode = UInt64(rest[1]),
        let lockFD = Int32(rest[3])
      else { throw OwnerLaunchError("serve: expected LISTEN-FD INODE LINGER|resident LOCK-FD") }
      // -1: no election lock (none is written by the command; kept for the shell).
      self = .serve(
        Rendezvous.Listener.Numbers(fd: fd, inode: inode, lockFD: lockFD >= 0 ? lockFD : nil),
        linger: linger, notifications: try Self.notifications(in: rest.dropFirst(4)))
    case ("activated", 0):
      self = .activated
    case ("watch", 1...):
      self = .watch(try Self.watchRequest(rest))
    case ("render", 5):
      guard let scale = Double(rest[1]), RenderRequest.scales.contains(scale),
        let width = Int(rest[2]), RenderRequest.sizes.contains(width),
        let height = Int(rest[3]), RenderRequest.sizes.contains(height), !rest[0].isEmpty
      else { throw OwnerLaunchError("render: expected PATH SCALE WIDTH HEIGHT TOAST-JSON") }
      var toast = Toast("")
      do {
        try toast.apply(try JSONValue.parse(rest[4]))
      } catch {
        throw OwnerLaunchError("render: bad toast: \(error)")
      }
      self = .render(
        RenderRequest(path: rest[0], scale: scale, outputWidth: width, outputHeight: height),
        toast)
    case ("nag", _):
      self = .nag(rest)
    default:
      throw OwnerLaunchError("started by wl-toast; see 'wl-toast --help'")
    }
  }
}

/// An owner command line that ``OwnerLaunch`` cannot read: one line, always
/// ``ExitCode/usage``.
package struct OwnerLaunchError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, without the program's name.
  package var description: String

  init(_ description: String) { self.description = description }
}

/// The path of `wl-toast-owner`: beside this program (as installed and as built).
///
/// Installed (the package, the tarball, `make install`) it is
/// `PREFIX/libexec/wl-toast/wl-toast-owner` beside `PREFIX/bin/wl-toast`; as
/// built, beside the command.
package func ownerProgram() -> String {
  let installed = programBesideExecutable("../libexec/wl-toast/wl-toast-owner")
  return access(installed, X_OK) == 0 ? installed : programBesideExecutable("wl-toast-owner")
}
