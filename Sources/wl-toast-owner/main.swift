// wl-toast-owner: the background process that shows a display's toasts, started
// by `wl-toast` (which hands over its listening socket and a pipe back to it), and
// the `wl-toast watch sway` loop. Not meant to be run by hand.
//
//   wl-toast-owner serve LISTEN-FD INODE NOTIFY-FD TAG LINGER wait|nowait TOAST-JSON
//   wl-toast-owner watch sway [--workspaces]
import Glibc
import ToastCommand
import ToastModel
import ToastOwner

signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())

func refuse(_ reply: OwnerReply, notify: Int32) -> Never {
  let bytes = Array((reply.encoded + "\n").utf8)
  _ = write(notify, bytes, bytes.count)
  exit(ExitCode.error)
}

switch arguments.first {
case "serve" where arguments.count == 8:
  guard let listenFD = Int32(arguments[1]), let inode = UInt64(arguments[2]),
    let notify = Int32(arguments[3]), let linger = Double(arguments[5])
  else {
    printError("wl-toast-owner: bad arguments")
    exit(ExitCode.usage)
  }
  let listener = Rendezvous.Listener(fd: listenFD, inode: inode)
  let tag = arguments[4]
  var toast = Toast("")
  let rendezvous: Rendezvous
  do {
    rendezvous = try Rendezvous()
  } catch {
    refuse(.failed(error.description), notify: notify)
  }
  do {
    try toast.apply(try JSONValue.parse(arguments[7]))
  } catch {
    rendezvous.removeSocket(of: listener)
    refuse(.failed("bad toast: \(error)"), notify: notify)
  }
  if let problem = Owner.problem(with: toast) {
    rendezvous.removeSocket(of: listener)
    refuse(.refused(problem), notify: notify)
  }
  let owner: Owner
  do {
    owner = try Owner(rendezvous: rendezvous, listener: listener, linger: linger)
  } catch {
    rendezvous.removeSocket(of: listener)
    refuse(.failed(error.description), notify: notify)
  }
  owner.start(toast, tag: tag, notify: notify, wait: arguments[6] == "wait")
  exit(owner.run())
case "watch" where arguments.count >= 2 && arguments[1] == "sway":
  exit(runSwayWatch(workspaces: arguments.contains("--workspaces")))
default:
  printError("wl-toast-owner: started by wl-toast; see 'wl-toast --help'")
  exit(ExitCode.usage)
}
