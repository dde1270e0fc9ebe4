#!/usr/bin/env bash
# The Debian packages some tests use: poppler-utils (PDF text and pictures), xvfb and
# Qt's xcb libraries (the real-X-server test), desktop-file-utils and appstream (the
# desktop files). `make test` runs this: as root with apt-get it installs what is
# missing; otherwise it says what to install (the tests that need them fail with a
# message naming the package).
set -u
need=()
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb xauth)
command -v desktop-file-validate >/dev/null 2>&1 || need+=(desktop-file-utils)
command -v appstreamcli >/dev/null 2>&1 || need+=(appstream)
if ! ldconfig -p 2>/dev/null | grep -q libxcb-cursor.so.0; then
    need+=(libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxcb-shape0 libxcb-randr0
           libxcb-render-util0 libxcb-xinerama0 libxcb-xkb1 libxkbcommon-x11-0 libegl1 libgl1
           libfontconfig1 libdbus-1-3)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing the Debian packages the tests use: ${need[*]}"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}") >/dev/null 2>&1 \
        || echo "warning: could not install ${need[*]}" >&2
else
    echo "note: some tests need these Debian packages: ${need[*]} (sudo apt-get install ${need[*]})" >&2
fi
exit 0
