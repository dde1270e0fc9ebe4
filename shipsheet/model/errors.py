"""The three kinds of refusal the model raises, each with a user-readable message."""


class ShipSheetError(Exception):
    """Base of every error ShipSheet reports to a user."""


class RuleViolation(ShipSheetError):
    """An action the rules forbid. Raised before anything is changed."""


class ShipDefinitionError(ShipSheetError, ValueError):
    """A ship class or chart file that does not validate.

    The message names the file and the key path of the first error,
    e.g. ``ca.toml: boxes[12].arc: unknown arc "FQ"``.
    """


class SessionFileError(ShipSheetError):
    """A session file that cannot be read: damaged, truncated, newer, or not a session."""
