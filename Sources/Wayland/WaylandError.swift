import CWaylandClient
import Glibc
import SystemSupport

/// What can go wrong while talking to a Wayland compositor.
///
/// Each case's `description` is one line a user can act on.
public enum WaylandError: Error, Equatable, CustomStringConvertible {
  /// No compositor answered at the named display: its name, the socket path
  /// tried (nil when none could be formed), and why.
  case cannotConnect(display: String, path: String?, reason: String)
  /// `WAYLAND_SOCKET` (as written) names no socket descriptor.
  case notASocket(String)
  /// The compositor does not offer a global the program needs.
  case missingGlobal(interface: String)
  /// The compositor reported a protocol error on one of our objects.
  case protocolError(interface: String, objectID: UInt32, code: UInt32)
  /// The connection broke (the compositor exited or closed it).
  case connectionLost(reason: String)
  /// The compositor at the named display accepted the connection but did not
  /// answer a roundtrip within the limit (a stopped or hung compositor).
  case noAnswer(display: String, within: Duration)
  /// The compositor took our requests more slowly than they came, and
  /// libwayland gave the connection up when its queue of them was full.
  case requestsNotTaken
  /// A request newer than the object's bound version was called.
  case unsupportedVersion(interface: String, request: String, since: UInt32, bound: UInt32)
  /// A system call failed.
  case system(call: String, errno: Int32)
  /// A buffer of this size (in pixels) cannot be shared: empty, or more bytes
  /// than a wl_shm pool holds.
  case bufferTooLarge(width: Int, height: Int)

  /// The error as one line a user can act on.
  public var description: String {
    switch self {
    case .cannotConnect(let display, let path, let reason):
      let place = path.map { $0 == display ? "" : " (\($0))" } ?? ""
      return
        "cannot connect to Wayland display '\(display)'\(place): \(reason); is a compositor running and WAYLAND_DISPLAY set?"
    case .notASocket(let written):
      return
        "WAYLAND_SOCKET is \(written.isEmpty ? "empty" : "'\(written)'"), not the descriptor of a"
        + " socket (a compositor that starts the program sets it)"
    case .missingGlobal(let interface):
      return "the compositor does not offer \(interface)\(Self.hint(for: interface))"
    case .protocolError(let interface, let objectID, let code):
      return "the compositor reported protocol error \(code) on \(interface)#\(objectID)"
    case .connectionLost(let reason):
      return "lost the connection to the Wayland compositor: \(reason)"
    case .noAnswer(let display, let limit):
      return
        "the Wayland compositor at '\(display)' did not answer in \(limit.components.seconds) s; is it stopped or hung?"
    case .requestsNotTaken:
      return "the Wayland compositor did not take the requests as fast as they came"
        + " (the connection's queue was full)"
    case .unsupportedVersion(let interface, let request, let since, let bound):
      return "\(interface).\(request) needs version \(since), but the object has version \(bound)"
    case .system(let call, let code):
      return "\(call) failed: \(Errno(rawValue: code))"
    case .bufferTooLarge(let width, let height):
      return "cannot share a \(width)x\(height) pixel buffer with the compositor"
    }
  }

  static func hint(for interface: String) -> String {
    switch interface {
    case "zwlr_layer_shell_v1":
      return
        " (wlr-layer-shell): sway, river, Hyprland, labwc, wayfire, KDE Plasma and phosh have it; GNOME and weston do not"
    case "zwlr_virtual_pointer_manager_v1", "zwp_virtual_keyboard_manager_v1":
      return " (virtual input): wlroots compositors such as sway have it"
    case "wp_viewporter", "wp_fractional_scale_manager_v1":
      return " (optional scaling support)"
    default:
      return ""
    }
  }
}
