#!/usr/bin/python3
"""A hostile PulseAudio server for the tests of `wl-toast watch audio`.

Usage: fake-pulse.py SOCKET MODE, MODE one of
  garbage    answers a client's first bytes with 4 KiB of random bytes
  hugeframe  answers with a frame header that announces 4 GiB
  stall      accepts, reads and never answers
It listens on the Unix socket SOCKET (clients: PULSE_SERVER=unix:SOCKET) and
prints one line, "connection N", for each connection it accepts.
"""
import os
import socket
import sys

path, mode = sys.argv[1], sys.argv[2]
if mode not in ("garbage", "hugeframe", "stall"):
    sys.exit("fake-pulse.py: unknown mode " + mode)
try:
    os.unlink(path)
except FileNotFoundError:
    pass
# The socket takes its name only once it listens: a client that finds the
# name can connect.
server = socket.socket(socket.AF_UNIX)
server.bind(path + ".binding")
server.listen(16)
os.rename(path + ".binding", path)
held = []
count = 0
while True:
    client, _ = server.accept()
    count += 1
    print("connection", count, flush=True)
    client.settimeout(2)
    try:
        client.recv(65536)
        if mode == "garbage":
            client.sendall(os.urandom(4096))
        elif mode == "hugeframe":
            client.sendall(b"\xff\xff\xff\xf0" + b"\0" * 16 + b"x" * 1000)
    except OSError:
        pass
    # Held open: the client finds the nonsense, or the silence, and leaves.
    held.append(client)
    held = held[-64:]
