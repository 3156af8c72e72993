#!/usr/bin/python3
"""A session bus that stops answering, for the tests of wl-toast's bus limits.

Usage: silent-bus.py SOCKET MODE, MODE one of
  silent  accepts a client, reads what it sends and never answers
  auth    answers the authentication (OK and a GUID) and nothing after it:
          the client's Hello waits forever
  hello   answers the authentication and Hello (the unique name :1.1), and
          no call after it (RequestName, ListNames… wait forever)
  close   closes the connection as soon as the client has sent something
          (the bus lost during the handshake)
It listens on the Unix socket SOCKET (clients:
DBUS_SESSION_BUS_ADDRESS=unix:path=SOCKET) and prints one line,
"connection N", for each connection it accepts, and "closed N" when the
client closes it ("dropped N" when it closes it itself).
"""
import os
import selectors
import socket
import sys

from gi.repository import Gio, GLib

path, mode = sys.argv[1], sys.argv[2]
if mode not in ("silent", "auth", "hello", "close"):
    sys.exit("silent-bus.py: unknown mode " + mode)
# The socket's directory is new: nothing to remove first. The socket takes
# its name only once it listens: a client that finds the name can connect.
server = socket.socket(socket.AF_UNIX)
server.bind(path + ".binding")
server.listen(16)
os.rename(path + ".binding", path)
selector = selectors.DefaultSelector()
selector.register(server, selectors.EVENT_READ)


class Client:
    def __init__(self, number):
        self.number = number
        self.received = b""
        self.authenticated = False
        self.greeted = False

    def read(self, data, connection):
        """Answers what this mode answers of what has arrived."""
        self.received += data
        if mode == "silent":
            return
        if not self.authenticated:
            if b"\r\n" not in self.received:
                return
            # The first line (NUL, then AUTH EXTERNAL …).
            self.authenticated = True
            connection.sendall(b"OK 0123456789abcdef0123456789abcdef\r\n")
        if mode != "hello" or self.greeted:
            return
        begin = self.received.find(b"BEGIN\r\n")
        if begin < 0:
            return
        message = self.received[begin + 7:]
        if len(message) < 16 or len(message) < Gio.DBusMessage.bytes_needed(message[:16]):
            return
        call = Gio.DBusMessage.new_from_blob(message, Gio.DBusCapabilityFlags.NONE)
        self.greeted = True
        reply = call.new_method_reply()
        reply.set_sender("org.freedesktop.DBus")
        reply.set_body(GLib.Variant("(s)", (":1.1",)))
        reply.set_serial(1)
        connection.sendall(reply.to_blob(Gio.DBusCapabilityFlags.NONE))


clients = {}
count = 0
while True:
    for key, _ in selector.select():
        if key.fileobj is server:
            connection, _ = server.accept()
            count += 1
            clients[connection] = Client(count)
            selector.register(connection, selectors.EVENT_READ)
            print("connection", count, flush=True)
            continue
        connection = key.fileobj
        try:
            data = connection.recv(65536)
        except OSError:
            data = b""
        if mode == "close" and data:
            selector.unregister(connection)
            print("dropped", clients.pop(connection).number, flush=True)
            connection.close()
            continue
        if not data:
            selector.unregister(connection)
            print("closed", clients.pop(connection).number, flush=True)
            connection.close()
            continue
        clients[connection].read(data, connection)
