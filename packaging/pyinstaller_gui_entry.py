"""Entry point of the window's executable in the Windows and macOS builds (``shipsheet-gui``:
no console window; subcommands stay with the ``shipsheet`` executable beside it)."""

import sys

from shipsheet.cli import gui_main

if __name__ == "__main__":
    sys.exit(gui_main())
