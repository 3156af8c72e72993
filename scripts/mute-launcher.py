#!/usr/bin/python3
"""An accessibility bus launcher that never gives the bus's address, for the
tests of wl-toast's limits on peers (run with Debian's /usr/bin/python3:
dbus-python and GLib).

It owns org.a11y.Bus on the session bus (DBUS_SESSION_BUS_ADDRESS) and says
a screen reader is on: org.a11y.Status's IsEnabled and ScreenReaderEnabled
are true (GetAll, Get). It never answers org.a11y.Bus.GetAddress, and prints
"GetAddress" each time it is asked, and "GetAll" each time it is asked for
its status. With "mute-status" as argv[1], it never answers GetAll either.

On SIGUSR1 it lets go of org.a11y.Bus and stays connected ("released"); on
SIGUSR2 it sends PropertiesChanged of org.a11y.Status with the flags
("changed"); on SIGHUP, 1,000 of them that invalidate IsEnabled ("flooded").
It prints "ready" once it owns its name.
"""
import signal
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
STATUS = "org.a11y.Status"
FLAGS = {"IsEnabled": dbus.Boolean(True), "ScreenReaderEnabled": dbus.Boolean(True)}
MUTE_STATUS = len(sys.argv) > 1 and sys.argv[1] == "mute-status"


class Launcher(dbus.service.Object):
    @dbus.service.method(
        "org.a11y.Bus", in_signature="", out_signature="s", async_callbacks=("answer", "fail"))
    def GetAddress(self, answer, fail):
        print("GetAddress", flush=True)

    @dbus.service.method(
        dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}",
        async_callbacks=("answer", "fail"))
    def GetAll(self, interface, answer, fail):
        print("GetAll", flush=True)
        if not MUTE_STATUS:
            answer(dbus.Dictionary(FLAGS if interface == STATUS else {}, signature="sv"))

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return FLAGS[name]

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


bus = dbus.SessionBus()
launcher = Launcher(bus, "/org/a11y/bus")
name = dbus.service.BusName("org.a11y.Bus", bus)


def release():
    bus.release_name("org.a11y.Bus")
    print("released", flush=True)
    return GLib.SOURCE_CONTINUE


def changed():
    launcher.PropertiesChanged(
        STATUS, dbus.Dictionary(FLAGS, signature="sv"), dbus.Array([], signature="s"))
    print("changed", flush=True)
    return GLib.SOURCE_CONTINUE


def flooded():
    for _ in range(1000):
        launcher.PropertiesChanged(
            STATUS, dbus.Dictionary({}, signature="sv"), dbus.Array(["IsEnabled"], signature="s"))
    print("flooded", flush=True)
    return GLib.SOURCE_CONTINUE


GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGHUP, flooded)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, release)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR2, changed)
print("ready", flush=True)
GLib.MainLoop().run()
