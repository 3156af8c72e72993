import Glibc
import SystemSupport
import ToastModel
import ToastProtocol
import ToastRendering

/// `wl-toast --render-png`: draws `toast` as `request` asks into a PNG file,
/// with no compositor; returns the exit status. A toast the owner would
/// refuse is a usage error; an icon that cannot be shown is one line on
/// standard error, and the preview is drawn without it.
package func renderPreview(_ request: RenderRequest, _ toast: Toast) -> Int32 {
  let (path, scale, width, height) = (
    request.path, request.scale, request.outputWidth, request.outputHeight
  )
  if let problem = Owner.problem(with: toast) {
    printError("wl-toast: \(problem)")
    return ExitCode.usage
  }
  var shown = toast.normalized()
  // An icon that cannot be shown: one line, and the preview is drawn without it.
  if let problem = shown.iconProblem(scale: scale) {
    printError("wl-toast: \(problem)")
    shown.icon = nil
  }
  // At rest, as it appears: a countdown line full.
  let line = Countdown.line(of: nil, shown: shown.drawsCountdown, at: 0)
  let image = OffscreenImage.render(
    shown, outputWidth: width, outputHeight: height, scale: scale,
    appearance: Appearance(opacity: 1, slide: 1, countdown: line.remaining))
  guard image.writePNG(to: path) else {
    printError("wl-toast: cannot write \(path): \(Errno.current)")
    return ExitCode.error
  }
  return ExitCode.success
}
