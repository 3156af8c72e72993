#!/usr/bin/python3
"""A session bus that never answers, for the tests of wl-toast's bus deadline.

Usage: silent-bus.py SOCKET MODE, MODE one of
  silent  accepts a client, reads what it sends and never answers
  auth    answers the authentication (OK and a GUID) and nothing after it:
          the client's Hello waits forever
It listens on the Unix socket SOCKET (clients:
DBUS_SESSION_BUS_ADDRESS=unix:path=SOCKET) and prints one line,
"connection N", for each connection it accepts, and "closed N" when the
client closes it.
"""
import selectors
import socket
import sys

path, mode = sys.argv[1], sys.argv[2]
if mode not in ("silent", "auth"):
    sys.exit("silent-bus.py: unknown mode " + mode)
# The socket's directory is new: nothing to remove first.
server = socket.socket(socket.AF_UNIX)
server.bind(path)
server.listen(16)
selector = selectors.DefaultSelector()
selector.register(server, selectors.EVENT_READ)
received = {}
numbers = {}
count = 0
while True:
    for key, _ in selector.select():
        if key.fileobj is server:
            client, _ = server.accept()
            count += 1
            numbers[client] = count
            received[client] = b""
            selector.register(client, selectors.EVENT_READ)
            print("connection", count, flush=True)
            continue
        client = key.fileobj
        try:
            data = client.recv(65536)
        except OSError:
            data = b""
        if not data:
            selector.unregister(client)
            print("closed", numbers.pop(client), flush=True)
            del received[client]
            client.close()
            continue
        before = received[client]
        received[client] = before + data
        # The first line (NUL, then AUTH EXTERNAL …) answered once, in mode auth.
        if mode == "auth" and b"\r\n" not in before and b"\r\n" in received[client]:
            client.sendall(b"OK 0123456789abcdef0123456789abcdef\r\n")
