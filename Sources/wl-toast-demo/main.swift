// wl-toast-demo: shows a surface on the user's compositor (WAYLAND_DISPLAY) or on
// an embedded headless sway, saves a screenshot and prints its path.
import Glibc
import TestSupport
import Wayland

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

do {
  let surface = try ColorSurface(
    socketPath: socket, width: 200, height: 100, argb: 0xffcc_3322, layer: .overlay)
  guard try surface.pump(until: { surface.isMapped }) else { fail("the surface was not mapped") }
  var cwd = [CChar](repeating: 0, count: Int(PATH_MAX))
  let directory = (getcwd(&cwd, cwd.count).map { String(cString: $0) } ?? "/tmp") + "/out"
  mkdir(directory, 0o755)
  let path = directory + "/demo.png"
  try Image.savePNG(socketPath: socket, to: path)
  print("Screenshot: \(path)")
  if headless == nil {
    // Leave it on screen for a moment, sleeping in the event loop.
    let loop = try EventLoop(display: surface.display)
    var done = false
    loop.addTimer(after: 3) { done = true }
    try loop.run(until: { done })
  }
  surface.unmap()
} catch {
  fail("\(error)")
}
headless?.stop()
