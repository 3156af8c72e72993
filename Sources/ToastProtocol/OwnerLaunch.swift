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

/// A compositor to follow, and what to show of it (`wl-toast watch`).
package enum WatchRequest: Equatable, Sendable {
  /// sway's binding modes, through its IPC socket.
  case sway(SwayWatchOptions)
  /// river's modes and tags, through its status protocol.
  case river(RiverWatchOptions)
}

/// How the command starts `wl-toast-owner`, the program that links Wayland,
/// Pango and Cairo: its command line, written by the command (``arguments``)
/// and read back by the owner (``init(arguments:)``), which is not meant to
/// be run by hand.
///
///     wl-toast-owner serve LISTEN-FD INODE LINGER|resident LOCK-FD [notifications[-replace] RULES]
///     wl-toast-owner activated          (systemd socket activation: wl-toast@.socket)
///     wl-toast-owner watch sway [workspaces] [keyboard-layout]
///     wl-toast-owner watch river [focused-tags] [urgent] [N=NAME ...]
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
    case .watch(.sway(let options)):
      ["watch", "sway"] + (options.workspaces ? ["workspaces"] : [])
        + (options.keyboardLayout ? ["keyboard-layout"] : [])
    case .watch(.river(let options)):
      ["watch", "river"] + (options.focusedTags ? ["focused-tags"] : [])
        + (options.urgent ? ["urgent"] : [])
        + options.tagNames.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
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
    case ("watch", _) where rest.first == "sway":
      var options = SwayWatchOptions()
      for word in rest.dropFirst() {
        switch word {
        case "workspaces" where !options.workspaces: options.workspaces = true
        case "keyboard-layout" where !options.keyboardLayout: options.keyboardLayout = true
        default: throw OwnerLaunchError("watch sway: unexpected \(Toast.quoted(word))")
        }
      }
      self = .watch(.sway(options))
    case ("watch", _) where rest.first == "river":
      var options = RiverWatchOptions()
      for word in rest.dropFirst() {
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
      self = .watch(.river(options))
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
