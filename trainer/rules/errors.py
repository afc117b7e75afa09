"""The rules layer's error family. Standard library only.

Every error names the bad value and what to do instead, and is raised before any state changes,
so a caller can catch it and carry on with the game it had.
"""


class RulesError(ValueError):
    """Base of every error the rules engine raises."""


class CardError(RulesError):
    """A card code or card name that does not denote one of the 48 cards."""


class RulesetError(RulesError):
    """A ruleset option or preset name that does not exist or does not fit the table."""


class IllegalActionError(RulesError):
    """An action that is not legal in the current state; the state is left untouched."""


class SaveFormatError(RulesError):
    """A saved game or replay file that cannot be read back."""
