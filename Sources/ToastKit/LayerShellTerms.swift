import ToastModel
import Wayland

extension Toast.Layer {
  /// The layer-shell layer.
  var shellLayer: ZwlrLayerShellV1.Layer {
    switch self {
    case .overlay: .overlay
    case .top: .top
    case .bottom: .bottom
    case .background: .background
    }
  }
}

extension Toast.Keyboard {
  /// The layer surface's keyboard interactivity, where the compositor's
  /// layer-shell has `layerShellVersion`: before version 4 it has no
  /// on-demand focus, so no keyboard there.
  func interactivity(layerShellVersion: UInt32) -> ZwlrLayerSurfaceV1.KeyboardInteractivity {
    switch self {
    case .exclusive: .exclusive
    case .onDemand: layerShellVersion >= 4 ? .onDemand : .none
    case .never: .none
    }
  }
}

/// Who decides whether a toast's surface has the keyboard.
enum KeyboardHold: Equatable {
  /// The toast's own mode (``ToastModel/Toast/keyboard``).
  case toastsOwn
  /// The keyboard was given to it (``ToastPresenter/focus(tag:)``).
  case held
  /// Given back as the toast ends.
  case givenBack

  /// The layer surface's keyboard interactivity for a toast whose own mode
  /// is `keyboard`: held, exclusive (the one mode of every layer-shell
  /// version that makes the compositor hand the keyboard over at once; on
  /// demand waits for a click on sway); given back, none.
  func interactivity(of keyboard: Toast.Keyboard, layerShellVersion: UInt32)
    -> ZwlrLayerSurfaceV1.KeyboardInteractivity
  {
    switch self {
    case .toastsOwn: keyboard.interactivity(layerShellVersion: layerShellVersion)
    case .held: .exclusive
    case .givenBack: .none
    }
  }
}
