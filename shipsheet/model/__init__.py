"""The model: ships, sessions, dice, the log, actions, storage. Never imports Qt."""

from .actions import (Action, AddShip, NextPhase, NextTurn, RemoveShip, RenameShip,
                      SessionAction, SetOption, SetSide, ShipAction)
from .dice import Dice, check_die
from .errors import RuleViolation, SessionFileError, ShipDefinitionError, ShipSheetError
from .games import GAME_IDS, GAME_TITLES, GameRules, get_game
from .library import get_class, list_classes, load_ship_class, new_ship
from .log import LogEntry
from .session import ActionContext, Change, Session
from .ship import Ship, ShipClass
from .storage import load_session, save_session

__all__ = [
    "Action", "ActionContext", "AddShip", "Change", "Dice", "GAME_IDS", "GAME_TITLES",
    "GameRules", "LogEntry", "NextPhase", "NextTurn", "RemoveShip", "RenameShip",
    "RuleViolation", "Session", "SessionAction", "SessionFileError", "SetOption", "SetSide",
    "Ship", "ShipAction", "ShipClass", "ShipDefinitionError", "ShipSheetError", "check_die",
    "get_class", "get_game", "list_classes", "load_session", "load_ship_class", "new_ship",
    "save_session",
]
