import Wayland
