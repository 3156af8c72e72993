// wl-toast-demo: shows a HUD and a banner on the user's compositor (WAYLAND_DISPLAY)
// or on an embedded headless sway, saves a screenshot of each and prints the paths.
import Glibc
import TestSupport
import ToastKit

nonisolated(unsafe) var headless: HeadlessSway?

func fail(_ message: String) -> Never {
  headless?.stop()
  let line = Array("wl-toast-demo: \(message)\n".utf8)
  _ = write(2, line, line.count)
  exit(1)
}

let socket: String
if let name = getenv("WAYLAND_DISPLAY").map({ String(cString: $0) }), !name.isEmpty {
  socket = name
  print("Showing the demo on your compositor (WAYLAND_DISPLAY=\(name)).")
} else {
  do {
    headless = try HeadlessSway()
  } catch {
    fail("cannot start a headless sway: \(error)")
  }
  socket = headless!.socketPath
  print("No WAYLAND_DISPLAY: showing the demo on an embedded headless sway.")
}

var cwd = [CChar](repeating: 0, count: Int(PATH_MAX))
let directory = (getcwd(&cwd, cwd.count).map { String(cString: $0) } ?? "/tmp") + "/out"
mkdir(directory, 0o755)

/// Runs the presenter's loop for `delay` (animations keep running meanwhile).
func wait(_ presenter: ToastPresenter, _ delay: Duration) throws {
  var done = false
  presenter.eventLoop.addTimer(after: delay) { done = true }
  while !done { try presenter.dispatch() }
}

do {
  let presenter = try ToastPresenter(display: socket)
  var hud = Toast("Copying photos…", timeout: 0, showsSpinner: true)
  hud.progress = 0.4
  presenter.show(hud)
  try wait(presenter, .milliseconds(500))
  presenter.update { $0.progress = 0.7 }
  try wait(presenter, .milliseconds(200))
  let hudPath = directory + "/hud.png"
  try Image.savePNG(socketPath: socket, to: hudPath)
  print("HUD screenshot: \(hudPath)")
  if headless == nil { try wait(presenter, .milliseconds(2000)) }

  presenter.show(Toast("Saved to ~/Photos", style: .banner, timeout: 0))
  try wait(presenter, .milliseconds(1000))
  let bannerPath = directory + "/banner.png"
  try Image.savePNG(socketPath: socket, to: bannerPath)
  print("Banner screenshot: \(bannerPath)")
  if headless == nil { try wait(presenter, .milliseconds(2000)) }
  presenter.hide()
  _ = try presenter.runUntilHidden()
} catch {
  fail("\(error)")
}
headless?.stop()
