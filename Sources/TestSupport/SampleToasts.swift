import ToastModel

extension Toast {
  /// A toast with every field set to a value other than its default, as
  /// `wl-toast` would make it from a command line giving every option.
  package static var everyOption: Toast {
    var toast = Toast("Copying “photos” 📷", style: .banner, timeout: 3, showsSpinner: true)
    toast.progress = 0.42
    toast.offset = .init(x: -20, y: 35)
    toast.dismissal = .tap
    toast.isModal = true
    toast.dimsBackground = true
    toast.isAnimated = false
    toast.isMarkup = true
    toast.font = "Sans Bold 13"
    toast.background = Toast.Color(hex: "#102030c0")
    toast.foreground = Toast.Color(hex: "#ffeeddff")
    toast.position = .bottomLeft
    toast.margin = 24
    toast.output = .named("DP-1")
    toast.layer = .top
    toast.icon = "audio-volume-high-symbolic"
    toast.iconTheme = "Adwaita"
    toast.sound = "message-new-instant"
    toast.soundOnUpdate = true
    toast.grace = 0.3
    toast.minimumShow = 1
    toast.idleThreshold = 30
    toast.accessibility = .on
    toast.accessibleText = "Copying photos"
    toast.buttons = ["Undo", "Keep “this”"]
    toast.keyboard = .exclusive
    return toast
  }
}
