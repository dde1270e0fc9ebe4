"""The main window: roster, sheet, game actions, log, turn and phase."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QSize, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
# QMessageBox, QFileDialog and QInputDialog are imported where used: each Qt class costs
# start-up time the first time Python touches it.
from PySide6.QtWidgets import (QApplication, QDockWidget, QLabel, QMainWindow, QSizePolicy,
                               QStackedWidget, QToolBar, QWidget)

from ..model import (GAME_TITLES, RemoveShip, RenameShip, RuleViolation, Session,
                     SessionFileError, SetSide, get_class, load_session, new_ship)
from ..model.actions import AddShip, NextPhase, NextTurn
from ..model.autosave import AutosaveStore
from ..model.paths import resources_dir
from ..model.words import possessive
from . import collector
from .document import SessionDocument
from .first_paint import after_first_paint
from .layouts import available_area, fit_to_screen, frame_margins, keep_on_screen
from .log_view import LogView
from .games import make_panel
from .qactions import make_action
from .roster import RosterView
from .settings import add_recent_file, get_setting, recent_files, set_setting
from .sheet_view import SheetView

FILE_FILTER = "ShipSheet sessions (*.shipsheet);;All files (*)"
#: Orders files of the play-by-e-mail desk (``pbem_desk.ORDERS_SUFFIX``): imported when dropped.
ORDERS_SUFFIX = ".orders.json"


def sample_path(game: str) -> Path:
    return resources_dir() / "samples" / f"{game}.shipsheet"


class MainWindow(QMainWindow):
    """One window, one session (or the welcome view when none is open)."""

    new_window_requested = Signal()

    def __init__(self, autosave: AutosaveStore | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.autosave_store = autosave if autosave is not None else AutosaveStore()
        self.doc: SessionDocument | None = None
        #: Work that waits until the window has first been painted (None once it has).
        #: The icon, for one: Qt's SVG icon engine (a plug-in and a library) loads for it,
        #: and on X11 draws it at several sizes: about 2 % of start-up under Xvfb.
        self._when_painted: list | None = [self._set_icon]
        after_first_paint(self, self._painted)
        self.setAcceptDrops(True)
        fit_to_screen(self, 1280, 860, keep=False)  # kept on screen as it shows: showEvent
        self._placed = False

        self.stack = QStackedWidget()
        self.stack.currentChanged.connect(self._page_changed)
        # The sheet's pane keeps a useful width beside the docks (the sheet zooms to fit it);
        # its height follows the page shown (_page_changed).
        self.stack.setMinimumWidth(300)
        self.setCentralWidget(self.stack)
        self._welcome = None  # made when first shown: a window opened on a file never needs it
        self.empty_hint: QLabel | None = None  # made when a session with no ship is shown
        self.sheet_view: SheetView | None = None
        self.roster: RosterView | None = None
        self.log_view: LogView | None = None
        self.panel: QWidget | None = None

        self.turn_label = QLabel()
        self.turn_label.setAccessibleName("Turn and phase")
        self._autosave_warning = QLabel()
        self._autosave_warning.setAccessibleName("Autosave failed")
        self._autosave_warning.hide()
        self.statusBar().addPermanentWidget(self._autosave_warning)
        self.statusBar().addPermanentWidget(self.turn_label)
        self._docks: list[QDockWidget] = []
        # Table Link (shipsheet/ui/table_share.py): made on first Share with the Table…
        self.table_link = None
        self.share_dialog = None
        self.share_indicator = None
        self._make_actions()
        self._make_menus()
        self._update_actions()
        self._update_title()

    def _set_icon(self) -> None:
        from PySide6.QtGui import QIcon
        self.setWindowIcon(QIcon(str(resources_dir() / "icons" / "shipsheet.svg")))

    def _painted(self) -> None:
        jobs, self._when_painted = self._when_painted, None
        for job in jobs:
            job()

    def _once_shown(self, job) -> None:
        """``job`` now when the window shows, else once it has first been painted."""
        if self._when_painted is None or self.isVisible():
            job()
        else:
            self._when_painted.append(job)

    def showEvent(self, event) -> None:
        if self.doc is None and self.stack.currentWidget() is None:
            self.stack.setCurrentWidget(self.welcome)  # shown with no session: welcome
        if not event.spontaneous():
            self._place()
        super().showEvent(event)

    def _page_changed(self, _index: int) -> None:
        """Only the page shown asks for room: the welcome view's buttons, hidden behind a
        session, made the window taller than a 768-pixel screen at 150 % allows."""
        shown = self.stack.currentWidget()
        for i in range(self.stack.count()):
            page = self.stack.widget(i)
            policy = QSizePolicy.Policy.Preferred if page is shown else QSizePolicy.Policy.Ignored
            page.setSizePolicy(policy, policy)

    #: How far a new window opens down and right of the window it was opened from.
    CASCADE = 32

    def _place(self) -> None:
        """Keep the window, frame and title bar included, within its screen's available area
        each time it shows. The first time, a window opened beside others (File ▸ New Window)
        is placed by us, down and right of the newest one, and made smaller if it would
        reach past the area from there: left to the window manager, it was cascaded to y = 63
        at the full height of a 768-pixel screen, and its bottom was off the screen."""
        at = None
        if not self._placed:
            self._placed = True
            others = [w for w in QApplication.topLevelWidgets()
                      if isinstance(w, MainWindow) and w is not self and w.isVisible()]
            if others:
                corner = others[-1].frameGeometry().topLeft()
                at = corner + QPoint(self.CASCADE, self.CASCADE)
                area = available_area(self)
                if area is not None:  # room from there: smaller rather than off the screen
                    left, top, right, bottom = frame_margins(self)
                    room = QSize(area.right() + 1 - at.x() - left - right,
                                 area.bottom() + 1 - at.y() - top - bottom)
                    minimum = self.minimumSizeHint()
                    self.resize(max(min(self.width(), room.width()), minimum.width()),
                                max(min(self.height(), room.height()), minimum.height()))
        keep_on_screen(self, at)

    @property
    def welcome(self):
        """The welcome view (New Ship, New Session, Open, samples, recent files)."""
        if self._welcome is None:
            from .welcome import WelcomeView
            self._welcome = w = WelcomeView()
            w.new_ship.connect(self.new_ship)
            w.new_session.connect(self.new_session)
            w.open_file.connect(self.open_dialog)
            w.open_sample.connect(self.open_sample)
            w.open_recent.connect(self.open_path)
            w.new_class.connect(self.open_designer)
            self.stack.insertWidget(0, w)
        return self._welcome

    # -- actions and menus -----------------------------------------------------
    def _act(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        return make_action(self, text, slot, shortcut, tip)

    def _make_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.act_new_ship = self._act("New &Ship…", self.new_ship, K.New, "Start with one ship from the library")
        self.act_new_session = self._act("New Se&ssion…", self.new_session, "Ctrl+Shift+N",
                                         "An empty session of one game")
        self.act_new_window = self._act("New &Window", self.new_window_requested.emit, "Ctrl+Alt+N",
                                        "Another window with its own session and undo")
        self.act_open = self._act("&Open…", self.open_dialog, K.Open)
        self.act_save = self._act("&Save", self.save, K.Save)
        self.act_save_as = self._act("Save &As…", self.save_as, K.SaveAs)
        self.act_close = self._act("&Close Window", self.close, K.Close)
        self.act_quit = self._act("&Quit", QApplication.closeAllWindows, K.Quit)
        self.act_undo = self._act("&Undo", self.undo, K.Undo)
        self.act_redo = self._act("&Redo", self.redo, K.Redo)
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.act_copy_log = self._act("Copy &Log as Text", self.copy_log, "Ctrl+Shift+C",
                                      "Copy the log (as filtered) as plain text")
        self.act_add_ship = self._act("&Add Ship…", self.add_ship, "Ctrl+Shift+A")
        self.act_remove_ship = self._act("&Remove Ship", self.remove_ship, None)
        self.act_rename_ship = self._act("Re&name Ship…", self.rename_ship, "F2")
        self.act_set_side = self._act("Set S&ide…", self.set_side, None)
        self.act_next_phase = self._act("Next &Phase", self.next_phase, "Ctrl+Right",
                                        "Go on to the next phase of the turn")
        self.act_next_turn = self._act("Next &Turn", self.next_turn, "Ctrl+Shift+Right",
                                       "Finish this turn's phases and start the next turn")
        self.act_prev_ship = self._act("Previous Ship", lambda: self.step_ship(-1), "Ctrl+Up")
        self.act_next_ship = self._act("Next Ship", lambda: self.step_ship(1), "Ctrl+Down")
        self.act_zoom_in = self._act("Zoom &In", lambda: self.zoom(1), K.ZoomIn)
        # Ctrl+= too: Ctrl+plus needs Shift on most keyboards.
        self.act_zoom_in.setShortcuts(QKeySequence.keyBindings(K.ZoomIn) + [QKeySequence("Ctrl+=")])
        self.act_zoom_out = self._act("Zoom &Out", lambda: self.zoom(-1), K.ZoomOut)
        self.act_zoom_reset = self._act("&Actual Size", lambda: self.zoom(0), "Ctrl+0")
        self.act_turn_marks = self._act("Show This &Turn's Marks", self.set_turn_marks, "Ctrl+T",
                                        "Marks made this turn as a single slash, earlier ones "
                                        "crossed out (X), as on paper during simultaneous fire")
        self.act_turn_marks.setCheckable(True)
        self.act_turn_marks.setChecked(bool(get_setting("turn_marks", False)))
        self.act_print = self._act("&Print…", lambda: self._printing().print_dialog(self), K.Print)
        self.act_preview = self._act("Print Pre&view…", lambda: self._printing().print_preview(self),
                                     "Ctrl+Shift+P")
        self.act_pdf = self._act("&Export PDF…", lambda: self._printing().export_pdf_dialog(self), "Ctrl+E",
                                 "The current ship, the selected ships or the whole session as PDF")
        self.act_blank = self._act(
            "Print &Blank Sheet…",
            lambda: self._printing().blank_sheets(self, game=self.doc.session.game if self.doc else None),
            tip="Blank sheets of classes of the library, every box empty, for play on paper")
        self.act_designer = self._act("Ship &Designer…", self.open_designer, "Ctrl+Shift+D",
                                      "Create or edit ship classes, with a live preview of the sheet")
        self.act_share = self._act("&Share with the Table…", self.share_with_table, None,
                                   "Each player's sheets on their own phone, live, over the local network")
        self.act_stop_sharing = self._act("St&op Sharing", self.stop_sharing, None,
                                          "Close every phone's connection and stop sharing")
        self.act_about = self._act("&About ShipSheet", lambda: self._dialogs().about(self))
        self.act_rules = self._act("&Rules and House Rules", self.show_rules, K.HelpContents)
        self._pbem = None  # File ▸ PBEM (pbem_desk.py), loaded on first use: see ``pbem``

    # Printing and the dialogs load on first use: start-up paints sooner.
    @staticmethod
    def _printing():
        from . import print_actions
        return print_actions

    @staticmethod
    def _dialogs():
        from . import dialogs
        return dialogs

    def _make_menus(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        for a in (self.act_new_ship, self.act_new_session, self.act_new_window):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        samples = m.addMenu("Open Sa&mple Session")
        for game, title in GAME_TITLES.items():
            samples.addAction(title, lambda g=game: self.open_sample(g))
        m.addSeparator()
        m.addAction(self.act_save)
        m.addAction(self.act_save_as)
        self.file_menu = m
        m.addSeparator()
        self.pbem_menu = m.addMenu("P&BEM")
        self.pbem_menu.setToolTipsVisible(True)
        self.pbem_menu.aboutToShow.connect(self._load_pbem)  # filled when first opened
        m.addSeparator()
        m.addAction(self.act_print)
        m.addAction(self.act_preview)
        m.addAction(self.act_pdf)
        m.addAction(self.act_blank)
        m.addSeparator()
        m.addAction(self.act_close)
        m.addAction(self.act_quit)

        m = bar.addMenu("&Edit")
        m.addAction(self.act_undo)
        m.addAction(self.act_redo)
        m.addSeparator()
        m.addAction(self.act_copy_log)

        m = bar.addMenu("&Session")
        for a in (self.act_add_ship, self.act_rename_ship, self.act_set_side, self.act_remove_ship):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.act_prev_ship)
        m.addAction(self.act_next_ship)
        m.addSeparator()
        m.addAction(self.act_next_phase)
        m.addAction(self.act_next_turn)
        m.addSeparator()
        m.addAction(self.act_share)
        m.addAction(self.act_stop_sharing)

        self.view_menu = bar.addMenu("&View")
        for a in (self.act_zoom_in, self.act_zoom_out, self.act_zoom_reset):
            self.view_menu.addAction(a)
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.act_turn_marks)
        appearance = self.view_menu.addMenu("A&ppearance")
        from PySide6.QtGui import QActionGroup
        group = QActionGroup(self)
        current = get_setting("appearance", "system")
        self.appearance_actions = {}
        for key, label in (("system", "Follow the &System"), ("light", "&Light"), ("dark", "&Dark")):
            act = appearance.addAction(label)
            act.setCheckable(True)
            act.setChecked(key == current)
            group.addAction(act)
            act.triggered.connect(lambda _=False, k=key: self.set_appearance(k))
            self.appearance_actions[key] = act
        self.view_menu.addSeparator()

        m = bar.addMenu("&Tools")
        m.addAction(self.act_designer)
        self.tools_menu = m
        self._game_tools: dict[str, QAction] | None = None  # made when the menu first opens
        m.aboutToShow.connect(self.tool_actions)

        m = bar.addMenu("&Help")
        m.addAction(self.act_rules)
        m.addAction(self.act_about)

        tb = QToolBar("Main")
        tb.setObjectName("main-toolbar")
        tb.setIconSize(QSize(18, 18))
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for a in (self.act_open, self.act_save):
            tb.addAction(a)
        tb.addSeparator()
        tb.addAction(self.act_undo)
        tb.addAction(self.act_redo)
        tb.addSeparator()
        tb.addAction(self.act_add_ship)
        tb.addSeparator()
        tb.addAction(self.act_next_phase)
        tb.addAction(self.act_next_turn)
        self.addToolBar(tb)
        self.toolbar = tb

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = recent_files()
        for path in files:
            self.recent_menu.addAction(Path(path).name, lambda p=path: self.open_path(p)).setToolTip(path)
        if not files:
            self.recent_menu.addAction("No recent files").setEnabled(False)

    def _update_actions(self) -> None:
        has = self.doc is not None
        ship = self.doc.current_ship if has else None
        for a in (self.act_save, self.act_save_as, self.act_add_ship, self.act_print,
                  self.act_preview, self.act_pdf, self.act_next_phase,
                  self.act_next_turn, self.act_copy_log, self.act_zoom_in, self.act_zoom_out,
                  self.act_zoom_reset, self.act_prev_ship, self.act_next_ship, self.act_share):
            a.setEnabled(has)
        self.act_stop_sharing.setEnabled(self.table_link is not None and self.table_link.running)
        for a in (self.act_remove_ship, self.act_rename_ship, self.act_set_side):
            a.setEnabled(ship is not None)
        status = self.doc.session.undo_status() if has else None
        self.act_undo.setEnabled(bool(status and status.undo))
        self.act_redo.setEnabled(bool(status and status.redo))
        if self._pbem is not None:
            self._pbem.update()
        # The Edit menu names the change; the toolbar keeps short fixed labels (its buttons
        # never move under the pointer), with the change in the tooltip.
        for act, word, text in ((self.act_undo, "Undo", status.undo if status else None),
                                (self.act_redo, "Redo", status.redo if status else None)):
            can = text is not None
            act.setText(f"&{word} {text}" if can else f"&{word}")
            act.setIconText(word)
            keys = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            act.setToolTip((f"{word} {text}" if can else f"Nothing to {word.lower()}")
                           + (f" ({keys})" if keys else ""))
        if has:
            s = self.doc.session
            self.turn_label.setText(f"Turn {s.turn} · {s.phase}")
        else:
            self.turn_label.setText("")

    def _update_title(self) -> None:
        if self.doc is None:
            self.setWindowTitle("ShipSheet")
            self.setWindowModified(False)
            return
        self.setWindowTitle(f"{self.doc.display_name}[*] — ShipSheet")
        self.setWindowModified(self.doc.dirty)
        if self.doc.path:
            self.setWindowFilePath(str(self.doc.path))

    # -- showing a session ---------------------------------------------------------
    def set_document(self, doc: SessionDocument | None) -> None:
        """Show ``doc`` (replacing the current one, which must be closed by the caller)."""
        if doc is not self.doc:
            self.end_sharing()
        for dock in self._docks:
            self.view_menu.removeAction(dock.toggleViewAction())
            self.removeDockWidget(dock)
            dock.deleteLater()
        self._docks = []
        if self.sheet_view is not None:
            self.stack.removeWidget(self.sheet_view)
            self.sheet_view.deleteLater()
            self.sheet_view = None
        old, self.doc = self.doc, doc
        if old is not None and old is not doc:
            old.deleteLater()  # closed by the caller; its signals must not reach this window
            collector.thaw()  # it may have been made during start-up
        if doc is None:
            if self._pbem is not None:
                self._pbem.document_changed(None)
            self.welcome.refresh()
            self.stack.setCurrentWidget(self.welcome)
            self._update_actions()
            self._update_title()
            return
        # Held: drawn once the docks are in and the window laid out, at the zoom that fits its
        # pane (not at 100 % first and again, fitted, as the window shows).
        self.sheet_view = SheetView(doc, turn_marks=self.act_turn_marks.isChecked(), held=True)
        self.sheet_view.canvas.status_message.connect(self.show_status)
        self.stack.addWidget(self.sheet_view)
        self.stack.setCurrentWidget(self.sheet_view)

        self.roster = RosterView(doc)
        self.log_view = LogView(doc)
        self.panel = make_panel(doc)
        self._add_dock("Roster", self.roster, Qt.DockWidgetArea.LeftDockWidgetArea, "Ctrl+1")
        self._add_dock("Actions", self.panel, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+2")
        self._add_dock("Log", self.log_view, Qt.DockWidgetArea.BottomDockWidgetArea, "Ctrl+3")
        roster_dock, actions_dock, log_dock = self._docks
        # Tab goes roster → sheet → actions (the sheet was made first, so it came first).
        QWidget.setTabOrder(self.roster, self.sheet_view.canvas)
        QWidget.setTabOrder(self.sheet_view.canvas, self.panel)
        self.resizeDocks([roster_dock, actions_dock], [380, 330], Qt.Orientation.Horizontal)
        self.resizeDocks([log_dock], [170], Qt.Orientation.Vertical)
        if self._pbem is not None or doc.session.pbem:
            self.pbem.document_changed(doc)  # a player file's guard; the turn desk or decisions
        self.layout().activate()  # the docks take their room: the central pane has its width
        self.sheet_view.start(self.stack.width())

        # Bound methods, not lambdas: Qt drops these connections with the window.
        doc.changed.connect(self._refresh_chrome)
        doc.selection_changed.connect(self._refresh_chrome)
        doc.clean_changed.connect(self._refresh_chrome)
        doc.ask_undo = self._ask_undo
        doc.refused.connect(self._refused)
        doc.path_changed.connect(self._update_title)
        self._update_actions()
        self._update_title()
        self._show_sheet_or_hint()
        self.sheet_view.canvas.setFocus()

    def _refresh_chrome(self, *_args) -> None:
        """Title, unsaved mark, undo/redo names, turn and phase."""
        self._update_title()
        self._update_actions()
        self._show_sheet_or_hint()

    #: Shown in the sheet's place while the session has no ship (File ▸ New Session…).
    EMPTY_HINT = ("No ships yet — add one with Session ▸ Add Ship… (Ctrl+Shift+A), "
                  "or open a session with File ▸ Open…")

    def _show_sheet_or_hint(self) -> None:
        """The sheet, or, while the session has no ship, a centred hint saying what to do
        (it was a blank pane)."""
        if self.doc is None or self.sheet_view is None:
            return
        if self.doc.session.ships:
            if self.stack.currentWidget() is not self.sheet_view:
                self.stack.setCurrentWidget(self.sheet_view)
            return
        if self.empty_hint is None:
            self.empty_hint = QLabel(self.EMPTY_HINT)
            self.empty_hint.setTextFormat(Qt.TextFormat.PlainText)
            self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.empty_hint.setWordWrap(True)
            self.empty_hint.setMargin(24)
            self.empty_hint.setObjectName("empty-session-hint")
            self.empty_hint.setAccessibleName("No ships yet")
            self.stack.addWidget(self.empty_hint)
        self.stack.setCurrentWidget(self.empty_hint)

    def _add_dock(self, title: str, widget: QWidget, area, shortcut: str) -> None:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title.lower()}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        toggle = dock.toggleViewAction()
        toggle.setShortcut(QKeySequence(shortcut))
        self.view_menu.addAction(toggle)
        self._docks.append(dock)

    def _refused(self, message: str) -> None:
        self.show_status(f"Not allowed: {message}", 10000)

    def show_status(self, message: str, timeout: int = 6000) -> None:
        """A transient message that fits: shortened with "…" to the room the status bar has
        beside its permanent widgets when it is too long, and then whole in the status
        bar's tooltip and accessible description while it shows (a refusal is also said in
        full beside the box that caused it)."""
        bar = self.statusBar()
        # The bar spans the window; before its first layout (a file opened at start-up) its
        # own width is still Qt's default, so the window's is the one to fit. Every widget
        # shown in the bar (the turn, an autosave warning, the table's indicator, the size
        # grip) takes room from the message: the message is never clipped without "…".
        taken = sum(max(w.width(), w.sizeHint().width()) + 8
                    for w in bar.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
                    if w.isVisibleTo(self))
        room = max(80, max(bar.width(), self.width()) - taken - 24)
        shown = bar.fontMetrics().elidedText(message, Qt.TextElideMode.ElideRight, room)
        whole = message if shown != message else ""
        bar.setToolTip(whole)
        bar.setAccessibleDescription(whole)
        self._status_full = (shown, message)
        if not getattr(self, "_status_follows", False):
            bar.messageChanged.connect(self._status_changed)
            self._status_follows = True
        bar.showMessage(shown, timeout)

    def _status_changed(self, text: str) -> None:
        """The status message timed out or was replaced: its whole text goes with it."""
        if text != getattr(self, "_status_full", ("", ""))[0]:
            self.statusBar().setToolTip("")
            self.statusBar().setAccessibleDescription("")

    def status_text(self) -> str:
        """The status message on show now, whole (as its tooltip has it), or ""."""
        shown = self.statusBar().currentMessage()
        last_shown, full = getattr(self, "_status_full", ("", ""))
        return full if shown and shown == last_shown else shown

    # -- files ----------------------------------------------------------------------
    def _replace_ok(self) -> bool:
        """May the current session be replaced? (asks to save unsaved changes)"""
        if self.doc is None:
            return True
        if not self.maybe_save():
            return False
        self.end_sharing()
        self.doc.close()
        return True

    def open_session(self, session: Session, path: str | Path | None = None, *,
                     dirty: bool = False, autosave=None, lock=None) -> SessionDocument:
        """Show ``session`` in this window (after asking about the current one).

        ``autosave``: the handle of a recovered autosave to go on with (else a new one);
        ``lock``: the lock already taken on ``path``."""
        doc = SessionDocument(session, path, self.autosave_store, self, autosave_handle=autosave,
                              lock=lock)
        if dirty:
            doc.mark_dirty()
        doc.autosave_status.connect(self._autosave_status)
        self.set_document(doc)
        return doc

    def _autosave_status(self, message: str) -> None:
        """An autosave failed (shown until one works again), or works again."""
        label = self._autosave_warning
        if message:
            label.setText(f"⚠ Autosave failed: {message}")
            label.setToolTip("Your changes are not being autosaved: a crash now would lose them. "
                             f"Save the session (Ctrl+S) to keep them.\n\n{message}")
            label.show()
            self.show_status(f"Autosave failed: {message}", 10000)
        else:
            label.hide()
            self.show_status("Autosave works again")

    def _lock_for(self, path: Path):
        """The lock on ``path`` for this window; None to open it unlocked after the user
        agreed; False when the user chose not to open it (another window or ShipSheet has
        it open)."""
        from ..model.filelock import SessionLock
        lock = SessionLock.acquire(path)
        if isinstance(lock, SessionLock):
            return lock
        from PySide6.QtWidgets import QMessageBox
        answer = QMessageBox.question(
            self, "File already open",
            f"“{path.name}” is already open {lock.describe()}.\n\nOpen it here as well? Changes "
            "saved in one place can overwrite those saved in the other.",
            QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        return None if answer == QMessageBox.StandardButton.Open else False

    def open_path(self, path: str | Path, loaded: Session | SessionFileError | None = None, *,
                  lock_when_painted: bool = False, offer_newer: bool = True) -> bool:
        """Open a session file; a file that fails to load is reported, nothing else changes.

        ``loaded`` is what loading ``path`` gave already (the command line reads its file
        before Qt starts). ``lock_when_painted`` (the file the app starts on, before its
        window shows): the file is locked just after the window's first paint, not before
        it — nothing can be changed or saved before then, and the lock's library costs a
        seventh of start-up to load; a file open elsewhere is asked about then
        (:meth:`_lock_shown`). ``offer_newer=False`` (``--quit-after-startup``, which nobody
        answers): an autosave newer than the file is looked for but not offered."""
        path = Path(path)
        try:
            if isinstance(loaded, SessionFileError):
                raise loaded
            session = loaded if loaded is not None else load_session(path)
        except SessionFileError as exc:
            from PySide6.QtWidgets import QMessageBox
            QMessageBox.warning(self, "Cannot open file", str(exc))
            return False
        if self.doc is not None and self.doc.path is not None and self.doc.path.resolve() == path.resolve():
            self.show_status(f"{path.name} is open in this window")
            return True
        lock = None if lock_when_painted else self._lock_for(path)
        if lock is False:
            return False
        if not self._replace_ok():
            if lock is not None:
                lock.release()
            return False
        # Opened as the window starts: writing (and syncing) the settings file waits.
        self._once_shown(lambda p=path: add_recent_file(p))
        newer = self.autosave_store.newer_than_file(path)
        doc = self.open_session(session, path, lock=lock)
        if lock_when_painted:
            after_first_paint(self, lambda: self._lock_shown(path))
        if offer_newer and newer is not None and newer.session.uid == session.uid:
            self._offer_newer_autosave(doc, newer)
        self.show_status(f"Opened {path.name}")
        return True

    def _lock_shown(self, path: Path) -> None:
        """Lock ``path``, opened as the window started (or the newer autosave of it restored
        then). Open elsewhere: the user is asked, over the window that shows it, whether to
        keep it open here as well; if not, the window goes back to its welcome view."""
        doc = self.doc
        if doc is None or doc.path != path or doc.lock is not None:
            return
        lock = self._lock_for(path)
        if lock is False:
            doc.close()
            self.set_document(None)
            self.show_status(f"{path.name} was not opened: it is open elsewhere")
        elif lock is not None:
            doc.set_lock(lock)

    def _offer_newer_autosave(self, doc: SessionDocument, info) -> None:
        from PySide6.QtWidgets import QMessageBox
        answer = QMessageBox.question(
            self, "Newer autosave",
            f"There is an autosave of {info.source.name if info.source else 'this session'} "
            f"from {info.time_text}, newer than the file. Restore it?")
        if answer == QMessageBox.StandardButton.Yes:
            try:
                handle = self.autosave_store.adopt(info)
            except OSError as exc:
                QMessageBox.warning(self, "Cannot restore", str(exc))
                return
            lock, doc.lock = doc.lock, None  # the restored session keeps the file's lock
            doc.close()
            self.open_session(info.load(), doc.path, dirty=True, autosave=handle, lock=lock)

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog
        recent = recent_files()
        start = str(Path(recent[0]).parent) if recent else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open Session", start, FILE_FILTER)
        if path:
            self.open_path(path)

    def open_sample(self, game: str) -> bool:
        """Open a game's sample session as a new, unsaved session."""
        from PySide6.QtWidgets import QMessageBox
        try:
            session = load_session(sample_path(game))
        except SessionFileError as exc:
            QMessageBox.warning(self, "Cannot open sample", str(exc))
            return False
        if not self._replace_ok():
            return False
        from ..model.ship import new_id
        session.uid = new_id(16)  # a copy: never autosave over another window's sample
        self.open_session(session)
        return True

    def new_session(self, game: str | None = None) -> bool:
        if game is None:
            dialog = self._dialogs().NewSessionDialog(self)
            if not dialog.exec():
                return False
            game = dialog.game.currentData()
            name = dialog.name.text().strip()
        else:
            name = ""
        if not self._replace_ok():
            return False
        session = Session(game, name=name)
        self.open_session(session)
        return True

    def new_ship(self) -> bool:
        """Welcome's New Ship: a new session of the class's game holding that ship."""
        dialog = self._dialogs().NewShipDialog(self)
        if not dialog.exec():
            return False
        cls = get_class(dialog.class_id)
        if not self._replace_ok():
            return False
        session = Session(cls.game)
        doc = self.open_session(session)
        ship = new_ship(cls, dialog.name.text())
        if doc.do(AddShip(ship, dialog.side.currentText() or None)):
            doc.select(ship.id)
        return True

    def maybe_save(self) -> bool:
        """Ask about unsaved changes. False means the user cancelled."""
        if self.doc is None or not self.doc.dirty:
            return True
        from PySide6.QtWidgets import QMessageBox
        return self._dialogs().ask_save_changes(
            QMessageBox.warning, self, "Unsaved changes",
            f"“{self.doc.display_name}” has changes that are not saved. Save them?", self.save)

    def save(self) -> bool:
        if self.doc is None:
            return False
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        from PySide6.QtWidgets import QFileDialog
        if self.doc is None:
            return False
        suggested = self.doc.path or Path.home() / f"{self._save_stem()}.shipsheet"
        path, _ = QFileDialog.getSaveFileName(self, "Save Session As", str(suggested), FILE_FILTER)
        if not path:
            return False
        if not path.endswith(".shipsheet"):
            path += ".shipsheet"
        return self._save_to(Path(path))

    def _save_stem(self) -> str:
        """The name Save As proposes for a session never saved: the session's name, else its
        first ship's (New Ship's session has no name), else "session"; made a name every
        system can save (``model.files``: "Ajax/II" becomes "Ajax_II")."""
        from ..model.files import MAX_NAME_BYTES, file_name_problem, safe_file_stem
        session = self.doc.session
        names = [session.name] + [ship.name for ship in session.ships[:1]]
        name = next((n.strip() for n in names if n and n.strip()), "session")
        stem = safe_file_stem(name)
        room = MAX_NAME_BYTES - len(".shipsheet")  # the stem and its extension, one name
        stem = stem.encode("utf-8", "surrogatepass")[:room].decode("utf-8", "ignore").rstrip(". ")
        return stem if stem and file_name_problem(f"{stem}.shipsheet") is None else "session"

    def _save_to(self, path: Path) -> bool:
        """Save to ``path``; any failure is shown and leaves the work open and unsaved."""
        from PySide6.QtWidgets import QMessageBox
        same = self.doc.path is not None and path.resolve() == self.doc.path.resolve()
        if same and self.doc.changed_on_disk():
            choice = self._ask_changed_on_disk(path)
            if choice == "cancel":
                return False
            if choice == "save as":
                return self.save_as()
        lock = None
        if not same:
            lock = self._lock_for(path)
            if lock is False:
                return False
        try:
            self.doc.save(path)
        except Exception as exc:  # noqa: BLE001 - every failure is told; the work stays open
            if lock is not None:
                lock.release()
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
            QMessageBox.warning(self, "Cannot save", f"{path.name}: {reason}.\n\nThe previous version "
                                "of the file is unchanged, and your work is still open here.")
            return False
        if lock is not None:
            self.doc.set_lock(lock)
        add_recent_file(path)
        self.show_status(f"Saved {path.name}")
        return True

    def _ask_changed_on_disk(self, path: Path) -> str:
        """The file changed on disk since it was opened here: "overwrite", "save as",
        "cancel" (or the file is reloaded here, also "cancel")."""
        from PySide6.QtWidgets import QMessageBox
        button = QMessageBox.StandardButton
        answer = QMessageBox.warning(
            self, "File changed on disk",
            f"“{path.name}” was changed on disk since you opened it (by another program, or "
            "ShipSheet elsewhere).\n\nSave: overwrite it with your version.\nSave All: save "
            "yours under another name.\nReset: reload it from disk and lose your changes.",
            button.Save | button.SaveAll | button.Reset | button.Cancel, button.Cancel)
        if answer == button.Save:
            return "overwrite"
        if answer == button.SaveAll:
            return "save as"
        if answer == button.Reset:
            self.reload()
        return "cancel"

    def reload(self) -> bool:
        """Read the session's file again, dropping the changes made here."""
        from PySide6.QtWidgets import QMessageBox
        path = self.doc.path
        try:
            session = load_session(path)
        except SessionFileError as exc:
            QMessageBox.warning(self, "Cannot reload", str(exc))
            return False
        lock, self.doc.lock = self.doc.lock, None
        self.doc.mark_clean()
        self.doc.close()
        self.open_session(session, path, lock=lock)
        self.show_status(f"Reloaded {path.name}")
        return True

    def closeEvent(self, event) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.end_sharing()
        if self.doc is not None:
            self.doc.close()
        if any(w is not self and isinstance(w, MainWindow) and w.isVisible()
               for w in QApplication.topLevelWidgets()):
            collector.thaw()  # the app goes on without this window, which start-up may have made
        event.accept()

    @property
    def pbem(self):
        """File ▸ PBEM, the play-by-e-mail desk (``pbem_desk.PbemDesk``): loaded when first
        needed — the menu opened, a session played by e-mail shown, orders files dropped —
        not at start-up (its dialogs cost start-up time most users never need)."""
        if self._pbem is None:
            from .pbem_desk import PbemDesk
            self._pbem = PbemDesk(self)
            self._pbem.build_menu(self.file_menu, into=self.pbem_menu)
            self._pbem.update()
        return self._pbem

    def _load_pbem(self) -> None:
        self.pbem  # noqa: B018 (loads and fills File ▸ PBEM)

    def dragEnterEvent(self, event) -> None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if any(u.isLocalFile() and (u.toLocalFile().endswith(".shipsheet")
                                    or u.toLocalFile().endswith(ORDERS_SUFFIX)) for u in urls):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        """A session file is opened; orders files are imported (File ▸ PBEM)."""
        local = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if any(p.endswith(ORDERS_SUFFIX) for p in local):
            event.acceptProposedAction()
            self.pbem.drop(local)
            return
        for url in event.mimeData().urls():
            if url.isLocalFile() and url.toLocalFile().endswith(".shipsheet"):
                event.acceptProposedAction()
                self.open_path(url.toLocalFile())
                return

    # -- edit -------------------------------------------------------------------------
    def undo(self) -> None:
        """Edit ▸ Undo: the document's one Undo (which asks first about a phone's step)."""
        if self.doc is None or self.doc.session.undo_step() is None:
            return
        try:
            change = self.doc.undo()
        except RuleViolation as exc:
            self.show_status(str(exc))
            return
        if change is not None:
            self.show_status(f"Undone: {change.name}")

    def _ask_undo(self, change) -> bool:
        """The document asks before it undoes a step made on a phone (``Action.seat_name``)."""
        action = change.action
        return self.confirm_undo_of(action.seat_name, getattr(action, "inner", action).name)

    def confirm_undo_of(self, seat_name: str, text: str) -> bool:
        """Undo would take back a step made on a phone at the table: ask first."""
        from PySide6.QtWidgets import QMessageBox
        answer = QMessageBox.question(
            self, "Undo a Phone's Step",
            f"Undo {possessive(seat_name)} step “{text}”?\n\nIt was made on {possessive(seat_name)} phone; "
            "undoing it changes their sheet too.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def redo(self) -> None:
        if self.doc is None or self.doc.session.undo_status().redo is None:
            return
        self.show_status(f"Redone: {self.doc.redo().name}")

    def copy_log(self) -> None:
        if self.log_view is not None:
            self.log_view.copy_text()
            self.show_status("Log copied as plain text")

    # -- session -------------------------------------------------------------------------
    def add_ship(self) -> None:
        if self.doc is None:
            return
        session = self.doc.session
        dialog = self._dialogs().NewShipDialog(self, session.game, session.sides,
                                               [s.name for s in session.ships])
        if not dialog.exec():
            return
        ship = new_ship(get_class(dialog.class_id), dialog.name.text())
        if self.doc.do(AddShip(ship, dialog.side.currentText() or None)):
            self.doc.select(ship.id)

    def remove_ship(self) -> None:
        ship = self.doc.current_ship if self.doc else None
        if ship is None:
            return
        index = self.doc.session.ships.index(ship)
        if self.doc.do(RemoveShip(ship)):
            ships = self.doc.session.ships
            self.doc.select(ships[min(index, len(ships) - 1)].id if ships else None)
            self.show_status(f"Removed {ship.name} (Undo brings it back)")

    def rename_ship(self) -> None:
        from PySide6.QtWidgets import QInputDialog
        ship = self.doc.current_ship if self.doc else None
        if ship is None:
            return
        name, ok = QInputDialog.getText(self, "Rename Ship", "Name:", text=ship.name)
        if ok:
            self.doc.do(RenameShip(ship, name))

    def set_side(self) -> None:
        from PySide6.QtWidgets import QInputDialog
        ship = self.doc.current_ship if self.doc else None
        if ship is None:
            return
        sides = self.doc.session.sides
        side, ok = QInputDialog.getItem(self, "Set Side", f"Side of {ship.name}:",
                                        [""] + sides, max(0, ([""] + sides).index(ship.side or "")), True)
        if ok:
            self.doc.do(SetSide(ship, side))

    def step_ship(self, step: int) -> None:
        if self.roster is None or self.doc is None:
            return
        ids = [item.data(0, Qt.ItemDataRole.UserRole) for item in self.roster.ship_items()]
        if not ids:
            return
        current = ids.index(self.doc.current_ship_id) if self.doc.current_ship_id in ids else -1
        self.doc.select(ids[(current + step) % len(ids)])

    def next_phase(self) -> None:
        if self.doc is None:
            return
        phases = self.doc.session.rules.phases
        if self.doc.session.phase == phases[-1]:
            if self.pbem.stage() is not None:  # by e-mail with verifiable dice
                self.pbem.close_turn()
                return
            if not self.confirm_turn_end():
                return
        if self.doc.do(NextPhase()):
            s = self.doc.session
            self.show_status(f"Turn {s.turn}: {s.phase}")

    def next_turn(self) -> None:
        if self.doc is None:
            return
        if self.pbem.stage() is not None:  # by e-mail with verifiable dice: Close Turn
            self.pbem.close_turn()
            return
        session = self.doc.session
        phases = list(session.rules.phases)
        skipped = phases[phases.index(session.phase) + 1:] if session.phase in phases else []
        if skipped and not self.confirm_skip_phases(session.turn, skipped):
            return
        if self.confirm_turn_end() and self.doc.do(NextTurn()):
            self.show_status(f"Turn {self.doc.session.turn} begins")

    def confirm_skip_phases(self, turn: int, skipped: list[str]) -> bool:
        """Next Turn before the last phase skips the phases not played yet: ask first,
        naming them (at the last phase nothing is skipped and nothing is asked)."""
        from PySide6.QtWidgets import QMessageBox
        names = ", ".join(skipped)
        answer = QMessageBox.question(
            self, "Skip Phases?",
            f"End turn {turn} now? Next Turn skips the "
            f"{'phase' if len(skipped) == 1 else 'phases'} not played yet: {names}.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def confirm_turn_end(self) -> bool:
        """Before a turn ends: the rules name ships whose owners still have a choice to make
        (``GameRules.choices_before_turn_end``); the game's panel asks once
        (``ask_before_turn_end``). Never blocks: ending the turn anyway applies the rules'
        stated default. False when the user keeps the turn."""
        session = self.doc.session
        ships = session.rules.choices_before_turn_end(session)
        ask = getattr(self.panel, "ask_before_turn_end", None)
        if not ships or ask is None:
            return True
        return bool(ask([s.id for s in ships]))

    def set_turn_marks(self, on: bool | None = None) -> None:
        """View ▸ Show This Turn's Marks: on the sheet (and remembered for the next start)."""
        on = self.act_turn_marks.isChecked() if on is None or not isinstance(on, bool) else on
        self.act_turn_marks.setChecked(on)
        set_setting("turn_marks", on)
        if self.sheet_view is not None:
            self.sheet_view.canvas.turn_marks = on
            self.sheet_view.canvas.refresh()

    def zoom(self, step: int) -> None:
        if self.sheet_view is None:
            return
        if step == 0:
            self.sheet_view.canvas.zoomed_by_hand.emit()
            self.sheet_view.canvas.set_zoom(1.0)
            self.show_status("Zoom 100 %")
        else:
            self.sheet_view.canvas.step_zoom(step)

    def open_designer(self, *, blank: bool = False):
        """Tools > Ship Designer: the current ship's class (or a blank one); the session's
        ships can be updated to the edited class from there."""
        from .designer import open_designer
        if self.doc is None:
            return open_designer(self)
        ship = self.doc.current_ship
        class_id = None if blank or ship is None else ship.ship_class.id
        game = self.doc.session.game
        try:
            return open_designer(self, game=game, class_id=class_id, session_doc=self.doc)
        except KeyError:  # the ship's class is not in this library (a file from elsewhere)
            return open_designer(self, game=game, session_doc=self.doc)

    def tool_actions(self) -> dict[str, QAction]:
        """The games' own windows in the Tools menu (Federation Commander's chart editor),
        by their menu text without "&": added when the menu first opens (each game's
        tools load then, not at start-up)."""
        if self._game_tools is None:
            from .games import all_tools
            self._game_tools = {}
            for tool in all_tools():
                act = self._act(tool.text, lambda t=tool: self.open_tool(t), None, tool.tip)
                self.tools_menu.addAction(act)
                self._game_tools[tool.text.replace("&", "")] = act
        return self._game_tools

    def open_tool(self, tool):
        """Open a game's tool (a ``ui.games.Tool``, or its menu text) for this window."""
        if isinstance(tool, str):
            from .games import all_tools
            tool = next(t for t in all_tools() if t.text.replace("&", "") == tool)
        return tool.open(self)

    def set_appearance(self, preference: str) -> None:
        """View > Appearance: follow the system, or force light or dark."""
        from .palette import apply_color_scheme
        from .settings import set_setting
        set_setting("appearance", preference)
        apply_color_scheme(QApplication.instance(), preference)
        for window in QApplication.topLevelWidgets():
            if isinstance(window, MainWindow):
                for key, act in window.appearance_actions.items():
                    act.setChecked(key == preference)

    # -- Table Link (the dialog, the indicator and the rest: table_share.py) --------------
    def share_with_table(self):
        """Session ▸ Share with the Table…: the sharing dialog (non-modal); None without a session."""
        if self.doc is None:
            return None
        from PySide6.QtWidgets import QMessageBox
        try:
            from .table_share import open_share_dialog
            return open_share_dialog(self)
        except ValueError as exc:  # a session uid that cannot name the seats' file
            QMessageBox.warning(self, "Cannot share with the table", str(exc))
            return None

    def stop_sharing(self) -> None:
        """Session ▸ Stop Sharing: every phone is closed out; the seats and links stay."""
        if self.table_link is not None:
            self.table_link.stop()
            from .table_share import show_sharing
            show_sharing(self)

    def end_sharing(self) -> None:
        """The session closes (another is opened, the window closes): sharing stops."""
        if self.table_link is not None or self.share_dialog is not None:
            from .table_share import end_sharing
            end_sharing(self)

    def show_rules(self) -> None:
        from .rules_help import RulesHelp
        game = self.doc.session.game if self.doc else None
        RulesHelp(self, game).exec()
