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
