"""High Card, the toy game of the contributor walkthrough (docs/architecture.md).

Each seat holds one hidden card of ten; in turn each may discard it face up and take the
top of the hidden deck, then in turn each stakes 1 or 2 in the open. The highest card wins,
worth the highest stake. It is registered like every shipped game and passes the same
conformance suite.
"""

from tabletop_envs.core.registry import register
from toygame import observer, picture, text
from toygame.rules import HighCard

ENV = register(HighCard, observer=observer, text=text, picture=picture, version=0)

__all__ = ["ENV", "HighCard"]
