import ToastModel

/// The help of `wl-toast nag` (`-h`): swaynag's usage, its program name
/// changed and its lines wrapped at 80 columns, then wl-toast's own options.
public let nagUsage = """
  Usage: wl-toast nag [options...]

    -b, --button <text> <action>    Create a button with text that executes
                                    action in a terminal when pressed. Multiple
                                    buttons can be defined.
    -B, --button-no-terminal <text> <action>
                                    Like --button, but does not run the action
                                    in a terminal.
    -z, --button-dismiss <text> <action>
                                    Create a button with text that dismisses
                                    the bar, and executes action in a terminal
                                    when pressed. Multiple buttons can be
                                    defined.
    -Z, --button-dismiss-no-terminal <text> <action>
                                    Like --button-dismiss, but does not run the
                                    action in a terminal.
    -c, --config <path>             Path to config file.
    -d, --debug                     Enable debugging.
    -e, --edge top|bottom           Set the edge to use.
    -y, --layer overlay|top|bottom|background
                                    Set the layer to use.
    -f, --font <font>               Set the font to use.
    -h, --help                      Show help message and quit.
    -l, --detailed-message          Read a detailed message from stdin.
    -L, --detailed-button <text>    Set the text of the detail button.
    -m, --message <msg>             Set the message text.
    -o, --output <output>           Set the output to use.
    -s, --dismiss-button <text>     Set the dismiss button text.
    -t, --type <type>               Set the message type.
    -v, --version                   Show the version number and quit.

  The following appearance options can also be given:
    --background RRGGBB[AA]         Background color.
    --border RRGGBB[AA]             Border color.
    --border-bottom RRGGBB[AA]      Bottom border color.
    --button-background RRGGBB[AA]  Button background color.
    --text RRGGBB[AA]               Text color.
    --button-text RRGGBB[AA]        Button text color.
    --border-bottom-size size       Thickness of the bar border.
    --message-padding padding       Padding for the message.
    --details-border-size size      Thickness for the details border.
    --details-background RRGGBB[AA] Details background color.
    --button-border-size size       Thickness for the button border.
    --button-gap gap                Size of the gap between buttons.
    --button-dismiss-gap gap        Size of the gap for dismiss button.
    --button-margin-right margin    Margin from dismiss button to edge.
    --button-padding padding        Padding for the button text.

  wl-toast's own options come before swaynag's:
    --keyboard exclusive|on-demand|none
                                    How the bar takes the keyboard (default
                                    on-demand).
    --no-animation                  Show and hide at once.
    --render-png <file>             Draw the bar into a PNG file and exit.
    --scale <n>                     With --render-png: pixels per logical
                                    pixel, 1 to 4.

  """

/// The line `wl-toast nag -v` prints, after swaynag's `swaynag version X`.
public let nagVersion = "wl-toast nag version \(Toast.version)"
