"""The play-by-e-mail desk: player files out, orders in, turn reports out, dice anyone can
verify. No Qt here (see DESK.md beside this file)."""
