"""SVG pictures as pixels, for ``render_mode="rgb_array"``: resvg (a Rust renderer with
wheels and no system library) draws the PNG, Pillow decodes it. Both come with the
``render`` extra and are imported only when a picture is rasterised."""

from __future__ import annotations

import io

import numpy as np

INSTALL_HINT = "pip install 'tabletop-envs[render]'"


def rasterise(svg: str) -> np.ndarray:
    """The picture as an ``(H, W, 3)`` uint8 array on a white background."""
    try:
        import resvg_py
        from PIL import Image
    except ImportError:
        needs = "render_mode='rgb_array' needs resvg and Pillow"
        raise ValueError(f"{needs}: {INSTALL_HINT}") from None
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff"))
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)
