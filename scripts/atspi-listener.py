#!/usr/bin/python3
# A screen reader's ears without its voice: libatspi (Debian's python3-gi and
# gir1.2-atspi-2.0) registered for some events, writing one JSON line per event
# it hears. Run by the tests (Sources/TestSupport/AccessibilityBus.swift,
# AtspiListener, and Tests/SwayTests/ScreenReaderTests.swift) and by `make
# leaks` (scripts/leaks.sh).
#
#   /usr/bin/python3 scripts/atspi-listener.py OUTPUT EVENT...
#   /usr/bin/python3 scripts/atspi-listener.py --do-action APP NAME [ACTION]
#
# The first finds the accessibility bus as any libatspi client does (the
# session bus's org.a11y.Bus, or AT_SPI_BUS_ADDRESS), registers for each EVENT
# (such as object:announcement), writes {"type": "ready"} to OUTPUT once
# registered, and then, for each event, a line with its type, detail1, data,
# and its source's name, role and application as libatspi asks the sender for
# them ("unreadable: ..." when the sender does not answer), and t, the
# monotonic clock in nanoseconds when it heard it. It runs until it is killed.
#
# The second, as a screen reader's "press this button" command, walks the
# application named APP (its children, theirs, ...) for a push button named
# NAME, or with ACTION for any object named NAME (a notification), and does
# its first action (DoAction(0)), or the one named ACTION. It writes one JSON
# line to standard output with what libatspi read of the object on the way:
# its name, role, states, index in its parent, its parent's name and role and
# the names of the parent's children (read again, one by one), its actions
# (name, description, key binding) and whether the action was done ("done").
# It exits 0 when the action was done, 1 when no such object (or action) was
# found, 2 when the action failed.
import json, sys, time, warnings
import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi

# libatspi 2.46 deprecates get_action_name for a get_name that its
# introspection data does not offer (Accessible's get_name has the name).
warnings.filterwarnings("ignore", category=DeprecationWarning)

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

def children(node):
    return [node.get_child_at_index(i) for i in range(node.get_child_count())]

def find_object(app_name, name, any_role):
    """The push button (with `any_role`, the object) named `name` under the
    application named `app_name`, breadth first."""
    desktop = Atspi.get_desktop(0)
    for app in children(desktop):
        if app is None or app.get_name() != app_name:
            continue
        queue = [app]
        while queue:
            for child in children(queue.pop(0)):
                if child is None:
                    continue
                role_fits = any_role or child.get_role() == Atspi.Role.PUSH_BUTTON
                if role_fits and child.get_name() == name:
                    return child
                queue.append(child)
    return None

def do_action(app_name, name, action_name=None):
    button = find_object(app_name, name, any_role=action_name is not None)
    if button is None:
        print(json.dumps({"type": "action", "found": False}), flush=True)
        return 1
    parent = button.get_parent()
    # The Action interface, as the object says it has it (GetInterfaces).
    has_action = "Action" in button.get_interfaces()
    Action = Atspi.Action
    actions = [
        [Action.get_action_name(button, i), Action.get_action_description(button, i),
         Action.get_key_binding(button, i)]
        for i in range(Action.get_n_actions(button) if has_action else 0)]
    states = sorted(state.value_nick for state in button.get_state_set().get_states())
    fields = dict(
        type="action", found=True, name=button.get_name(), role=button.get_role_name(),
        states=states, index=button.get_index_in_parent(), parent=parent.get_name(),
        parent_role=parent.get_role_name(),
        siblings=[child.get_name() for child in children(parent)], actions=actions)
    names = [action[0] for action in actions]
    if action_name is not None and action_name not in names:
        fields["found"] = False
        print(json.dumps(fields, sort_keys=True), flush=True)
        return 1
    index = names.index(action_name) if action_name is not None else 0
    try:
        fields["done"] = bool(has_action and Action.do_action(button, index))
    except Exception as error:
        fields["done"] = False
        fields["error"] = str(error)
    print(json.dumps(fields, sort_keys=True), flush=True)
    return 0 if fields["done"] else 2

if len(sys.argv) in (4, 5) and sys.argv[1] == "--do-action":
    sys.exit(do_action(*sys.argv[2:]))

out = open(sys.argv[1], "a", buffering=1)

def write(**fields):
    out.write(json.dumps(fields, sort_keys=True) + "\n")

listener = Atspi.EventListener.new(heard)
for event in sys.argv[2:]:
    listener.register(event)
out.write('{"type": "ready"}\n')
Atspi.event_main()
