"""High Card, the toy game of the contributor walkthrough (docs/architecture.md).

Each seat holds one hidden card of ten; in turn each may discard it face up and take the
top of the hidden deck, then in turn each stakes 1 or 2 in the open. The highest card wins,
worth the highest stake. It is registered like every shipped game and passes the same
conformance suite.
"""

from tabletop_envs.core.registry import bind_views
from toygame import observer, picture, text
from toygame.rules import HighCard

bind_views(HighCard, observer=observer, text=text, picture=picture)

__all__ = ["HighCard"]
