"""Entry point of the PyInstaller build (the same as the ``shipsheet`` command)."""

import sys

from shipsheet.cli import main

if __name__ == "__main__":
    sys.exit(main())
