import ToastModel
import ToastProtocol

/// A feed that gives a watcher's toasts the looks of its preset (`[preset
/// volume]` and `[default]` of the configuration file, as the command read
/// them) before handing them on: the preset's settings apply over the
/// watcher's toast, then the watcher's own text, progress, icon, image and
/// do-not-disturb policy are put back, since they are what the toast says.
package final class PresetFeed: ToastFeed {
  private let next: any ToastFeed
  private let settings: JSONValue?

  /// A feed to `next` that applies `settings` (the socket protocol's JSON of
  /// a toast's fields; nil or empty: none).
  package init(_ next: any ToastFeed, settings: JSONValue?) {
    self.next = next
    self.settings = settings
  }

  /// Shows `toast`, styled, with `tag`.
  package func show(_ toast: Toast, tag: String) {
    next.show(styled(toast), tag: tag)
  }

  /// Hides the toast with `tag`.
  package func hide(tag: String) {
    next.hide(tag: tag)
  }

  /// `toast` with the preset's settings, its own content kept. Settings that
  /// do not apply (the command checked them) leave the toast as it was.
  package func styled(_ toast: Toast) -> Toast {
    guard let settings else { return toast }
    var styled = toast
    guard (try? styled.apply(settings)) != nil else { return toast }
    styled.text = toast.text
    styled.isMarkup = toast.isMarkup
    styled.progress = toast.progress
    styled.showsSpinner = toast.showsSpinner
    styled.icon = toast.icon
    styled.image = toast.image
    styled.accessibleText = toast.accessibleText
    styled.doNotDisturb = toast.doNotDisturb
    if toast.timeout == .untilDismissed { styled.timeout = .untilDismissed }
    return styled
  }
}
