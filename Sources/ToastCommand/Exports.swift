// The socket protocol (messages, a toast's JSON, the rendezvous, the owner's
// command line) lives in ToastProtocol, which the owner links without the
// command's option table; users of the command's library get it from here.
@_exported import ToastProtocol
