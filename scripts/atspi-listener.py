#!/usr/bin/python3
# A screen reader's ears without its voice: libatspi (Debian's python3-gi and
# gir1.2-atspi-2.0) registered for some events, writing one JSON line per event
# it hears. Run by the tests (Sources/TestSupport/AccessibilityBus.swift,
# AtspiListener) and by `make leaks` (scripts/leaks.sh).
#
#   /usr/bin/python3 scripts/atspi-listener.py OUTPUT EVENT...
#
# It finds the accessibility bus as any libatspi client does (the session bus's
# org.a11y.Bus, or AT_SPI_BUS_ADDRESS), registers for each EVENT (such as
# object:announcement), writes {"type": "ready"} to OUTPUT once registered, and
# then, for each event, a line with its type, detail1, data, and its source's
# name, role and application as libatspi asks the sender for them ("unreadable:
# ..." when the sender does not answer), and t, the monotonic clock in
# nanoseconds when it heard it. It runs until it is killed.
import json, sys, time
import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi

out = open(sys.argv[1], "a", buffering=1)

def write(**fields):
    out.write(json.dumps(fields, sort_keys=True) + "\n")

def heard(event):
    heard_at = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    try:
        source = event.source
        name, role = source.get_name(), source.get_role_name()
        app = source.get_application().get_name()
    except Exception as error:
        name = role = app = "unreadable: %s" % error
    data = event.any_data
    if not isinstance(data, (str, int, float, bool, type(None))):
        data = str(data)
    write(type=event.type, detail1=event.detail1, data=data, name=name, role=role, app=app,
          t=heard_at)

listener = Atspi.EventListener.new(heard)
for event in sys.argv[2:]:
    listener.register(event)
out.write('{"type": "ready"}\n')
Atspi.event_main()
