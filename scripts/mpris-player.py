#!/usr/bin/python3
"""An MPRIS player for the tests of `wl-toast watch media` (run with Debian's
/usr/bin/python3: dbus-python and GLib). It owns org.mpris.MediaPlayer2.NAME
(argv[1], default "test") on the session bus and reads one JSON object a line
on its standard input; each becomes one PropertiesChanged of
org.mpris.MediaPlayer2.Player (Get and GetAll answer the same values):

  {"status": "Playing"}                        PlaybackStatus
  {"n": 1, "title": "T", "artist": "A", "artUrl": "file:///c.png"}
                                               Metadata (trackid /t/N, artist as `as`)
  {"properties": {"Metadata": ["a{sv}", {"xesam:artist": ["i", 7]}]}}
                                               any values, each [TYPE, VALUE]
  {"flood": 500}                               500 Metadata changes at once
  {"rename": 500}                              lets go of its name and takes it again, 500 times
  {"print": "ready"}                           prints the word once the line before is sent

It prints "ready" once it owns its name, and "GetAll" at each GetAll answered.
With "mute" as argv[2], it never answers GetAll (and prints "GetAll asked").

Typed values: s, o, i, u, x, b, d, as, a{sv} (values typed again), and
"huge-s" with a length: a string of that many letters."""
import json
import os
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
PLAYER = "org.mpris.MediaPlayer2.Player"


def typed(value):
    kind, item = value
    if kind == "s":
        return dbus.String(item)
    if kind == "huge-s":
        return dbus.String("x" * item)
    if kind == "o":
        return dbus.ObjectPath(item)
    if kind == "i":
        return dbus.Int32(item)
    if kind == "u":
        return dbus.UInt32(item)
    if kind == "x":
        return dbus.Int64(item)
    if kind == "b":
        return dbus.Boolean(item)
    if kind == "d":
        return dbus.Double(item)
    if kind == "as":
        return dbus.Array([dbus.String(s) for s in item], signature="s")
    if kind == "a{sv}":
        return dbus.Dictionary({k: typed(v) for k, v in item.items()}, signature="sv")
    raise ValueError("unknown type " + kind)


def metadata(command):
    fields = {
        "mpris:trackid": dbus.ObjectPath("/t/%d" % command.get("n", 0)),
        "xesam:title": dbus.String(command["title"]),
        "xesam:artist": dbus.Array([command.get("artist", "")], signature="s"),
    }
    if "artUrl" in command:
        fields["mpris:artUrl"] = dbus.String(command["artUrl"])
    return dbus.Dictionary(fields, signature="sv")


class Player(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/org/mpris/MediaPlayer2")
        self.properties = {
            PLAYER: {
                "CanControl": True, "CanPlay": True, "CanPause": True, "CanGoNext": True,
                "PlaybackStatus": "Stopped", "Metadata": dbus.Dictionary({}, signature="sv"),
            },
            "org.mpris.MediaPlayer2": {"Identity": "Test player"},
        }

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.properties[interface][name]

    @dbus.service.method(
        dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}",
        async_callbacks=("answer", "fail"))
    def GetAll(self, interface, answer, fail):
        if MUTE:
            print("GetAll asked", flush=True)
            return
        print("GetAll", flush=True)
        answer(dbus.Dictionary(self.properties.get(interface, {}), signature="sv"))

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def change(self, changed):
        self.properties[PLAYER].update(changed)
        self.PropertiesChanged(
            PLAYER, dbus.Dictionary(changed, signature="sv"), dbus.Array([], signature="s"))

    def apply(self, command):
        if "flood" in command:
            for n in range(command["flood"]):
                self.change({"Metadata": metadata({"n": 1000 + n, "title": "Flood %d" % n})})
            return
        if "rename" in command:
            for _ in range(command["rename"]):
                bus.release_name(NAME)
                bus.request_name(NAME)
            return
        if "print" in command:
            print(command["print"], flush=True)
            return
        changed = {}
        if "status" in command:
            changed["PlaybackStatus"] = dbus.String(command["status"])
        if "title" in command:
            changed["Metadata"] = metadata(command)
        for name, value in command.get("properties", {}).items():
            changed[name] = typed(value)
        self.change(changed)


MUTE = len(sys.argv) > 2 and sys.argv[2] == "mute"
NAME = "org.mpris.MediaPlayer2." + (sys.argv[1] if len(sys.argv) > 1 else "test")
bus = dbus.SessionBus()
name = dbus.service.BusName(NAME, bus)
player = Player(bus)
print("ready", flush=True)


pending = b""


def read_input(channel, condition):
    global pending
    data = os.read(0, 1 << 20)
    if not data:
        loop.quit()
        return False
    pending += data
    while b"\n" in pending:
        line, pending = pending.split(b"\n", 1)
        if line.strip():
            player.apply(json.loads(line))
    return True


GLib.io_add_watch(
    GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, read_input)
loop = GLib.MainLoop()
loop.run()
