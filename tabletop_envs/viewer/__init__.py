"""The replay viewer (``tabletop-view``, docs/viewer.md): a replay as a self-contained HTML
page with step controls and a view selector (everything, or one seat's view), or one step's
picture as SVG. Games draw their own pictures (``<game>/picture.py``, built on
:mod:`tabletop_envs.core.svg`)."""

from tabletop_envs.viewer.page import page_html, unpack_story
from tabletop_envs.viewer.story import Story, picture_module, story_of

__all__ = ["Story", "page_html", "picture_module", "story_of", "unpack_story"]
