import SystemSupport
import Wayland

/// Activation tokens (xdg_activation_v1): what a program answered through a
/// toast's button passes on, so that its window may come to the front as the
/// compositor allows.
///
/// Nothing is bound until the first token is asked for: toasts cost nothing
/// for it. A token arrives in the event loop (`done`), never by waiting for it.
final class ActivationTokens {
  /// A token on its way: its object, the timer that gives up on it, and
  /// what to call.
  private struct Waiting {
    let token: XdgActivationTokenV1
    let timer: EventLoop.Token
    let completion: (String?) -> Void
  }

  private let registry: Registry
  private let loop: EventLoop
  private var activation: XdgActivationV1?
  private var waiting: [ObjectIdentifier: Waiting] = [:]

  /// How long a token may take before its request ends without one (a
  /// compositor that never answers); wlroots and KWin answer in the commit's
  /// own round trip, which a loaded machine (KWin drawing on llvmpipe) can
  /// make last a second or more.
  static let patience: Duration = .seconds(5)

  init(registry: Registry, loop: EventLoop) {
    self.registry = registry
    self.loop = loop
  }

  /// Asks for a token for the input `press` (its serial and seat; nil: none
  /// known) on behalf of `surface` (nil: none named), binding
  /// xdg_activation_v1 first when not yet done. `completion` gets the token
  /// from the event loop, or nil when none came within ``patience``.
  ///
  /// - Returns: false, and nothing is asked (`completion` is never called),
  ///   when the compositor offers no xdg_activation_v1.
  func request(
    press: InputPress?, surface: WlSurface?, completion: @escaping (String?) -> Void
  ) -> Bool {
    guard let activation = bound() else { return false }
    let token = activation.getActivationToken()
    if let press { token.setSerial(press.serial, seat: press.seat) }
    if let surface { token.setSurface(surface) }
    let id = ObjectIdentifier(token)
    token.onEvent = { [unowned self] event in
      guard case .done(let value) = event else { return }
      finish(id, token: value)
    }
    token.commit()
    let timer = loop.addTimer(after: Self.patience) { [weak self] in
      self?.finish(id, token: nil)
    }
    waiting[id] = Waiting(token: token, timer: timer, completion: completion)
    return true
  }

  /// xdg_activation_v1, bound at the first call; nil when not offered.
  private func bound() -> XdgActivationV1? {
    if let activation { return activation }
    guard let global = registry.globals(of: XdgActivationV1.self).first else { return nil }
    let activation = registry.bind(global, as: XdgActivationV1.self)
    self.activation = activation
    return activation
  }

  /// The token `id` came (or was given up on): its object goes, then its
  /// completion is called.
  private func finish(_ id: ObjectIdentifier, token: String?) {
    guard let entry = waiting.removeValue(forKey: id) else { return }
    loop.remove(entry.timer)
    entry.token.destroy()
    entry.completion(token)
  }
}
