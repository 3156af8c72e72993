// wl-toast-owner: the background process that shows a display's toasts, started
// by the first `wl-toast` for a display (which hands over the socket it won
// and then talks to the owner through it like every later command), and the
// `wl-toast watch sway` loop. Not meant to be run by hand.
//
//   wl-toast-owner serve LISTEN-FD INODE LINGER LOCK-FD
//   wl-toast-owner watch sway [--workspaces]
import Glibc
import ToastCommand
import ToastModel
import ToastOwner

signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())

switch arguments.first {
case "serve" where arguments.count == 5:
  guard let listenFD = Int32(arguments[1]), let inode = UInt64(arguments[2]),
    let linger = Double(arguments[3]), let lockFD = Int32(arguments[4])
  else {
    printError("wl-toast-owner: bad arguments")
    exit(ExitCode.usage)
  }
  let listener = Rendezvous.Listener(fd: listenFD, inode: inode, lockFD: lockFD)
  let rendezvous: Rendezvous
  do {
    rendezvous = try Rendezvous()
  } catch {
    refuseClients(of: listener) { _ in .failed(error.description) }
    close(listenFD)
    close(lockFD)
    exit(ExitCode.error)
  }
  do {
    let owner = try Owner(rendezvous: rendezvous, listener: listener, linger: linger)
    exit(owner.run())
  } catch {
    // No compositor, or one without layer-shell: every command waiting hears
    // why, unless its content was wrong in the first place (a usage error).
    refuseClients(of: listener) { text in
      if case .show(_, let toast, _, _)? = try? OwnerRequest(decoding: text),
        let problem = Owner.problem(with: toast)
      {
        return .refused(problem)
      }
      return .failed(error.description)
    }
    rendezvous.retire(listener)
    exit(ExitCode.error)
  }
case "watch" where arguments.count >= 2 && arguments[1] == "sway":
  exit(runSwayWatch(workspaces: arguments.contains("--workspaces")))
default:
  printError("wl-toast-owner: started by wl-toast; see 'wl-toast --help'")
  exit(ExitCode.usage)
}
