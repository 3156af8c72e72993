#!/usr/bin/python3
# A test bed of backlight devices for `wl-toast watch backlight`: umockdev's
# Testbed (gir1.2-umockdev-1.0), run with LD_PRELOAD=libumockdev-preload.so.0
# so that its uevents reach the watcher. It prints "UMOCKDEV_DIR=DIR" once the
# bed is ready (the watcher runs with that UMOCKDEV_DIR and the same preload),
# then reads commands on standard input, one a line, and prints "done LINE"
# after each (or "error LINE: WHY"):
#   add NAME [ATTR VALUE]...   a backlight device with these attributes ("add" uevent)
#   set NAME ATTR VALUE        writes an attribute, then sends a "change" uevent
#   setonly NAME ATTR VALUE    writes an attribute, no uevent
#   burst NAME ATTR VALUE...   "set" with each value in turn, as fast as it goes
#   remove NAME                sends a "remove" uevent and removes the device
# The bed's directory goes when the script ends (at the end of its input).
import sys

import gi

gi.require_version('UMockdev', '1.0')
from gi.repository import GLib, UMockdev

bed = UMockdev.Testbed.new()
devices = {}


def add(name, attributes):
    devices[name] = bed.add_device('backlight', name, None, attributes, ['SUBSYSTEM', 'backlight'])


def run(words):
    if words[0] == 'add' and len(words) >= 2 and len(words) % 2 == 0:
        add(words[1], words[2:])
    elif words[0] == 'set' and len(words) == 4:
        bed.set_attribute(devices[words[1]], words[2], words[3])
        bed.uevent(devices[words[1]], 'change')
    elif words[0] == 'burst' and len(words) >= 4:
        for value in words[3:]:
            bed.set_attribute(devices[words[1]], words[2], value)
            bed.uevent(devices[words[1]], 'change')
    elif words[0] == 'setonly' and len(words) == 4:
        bed.set_attribute(devices[words[1]], words[2], words[3])
    elif words[0] == 'remove' and len(words) == 2:
        bed.uevent(devices[words[1]], 'remove')
        bed.remove_device(devices.pop(words[1]))
    else:
        raise ValueError('unknown command')


print('UMOCKDEV_DIR=' + bed.get_root_dir(), flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    try:
        run(words)
        print('done', line.strip(), flush=True)
    except (KeyError, ValueError, GLib.Error) as error:
        print('error', line.strip() + ':', error, flush=True)
# The bed's directory goes with it.
del bed
