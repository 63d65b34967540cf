"""Colours that stay readable: WCAG 2 contrast between a text colour and its background, and the
nearest colour to a theme's that reaches a minimum contrast.

A theme picks the list's colours (``$text-secondary`` for the rating, ``$text-success`` for the
badge…) for the plain background; on the highlighted row's background some become unreadable.
The list passes each part's style through :func:`legible` against the background it is drawn on.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color
from rich.color_triplet import ColorTriplet
from rich.style import Style

#: WCAG 2 AA for normal text: the least contrast ratio every part of a row keeps.
MIN_CONTRAST = 4.5


def _channel(value: int) -> float:
    """One sRGB channel (0 to 255) as linear light, 0 to 1 (WCAG 2)."""
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


@lru_cache(maxsize=1)
def _linear() -> tuple[float, ...]:
    """:func:`_channel` of each channel value, 0 to 255: worked out once, at the first colour
    looked at (a colour made readable looks at up to twenty blends, three channels each)."""
    return tuple(map(_channel, range(256)))


def luminance(color: ColorTriplet) -> float:
    """WCAG 2 relative luminance of an sRGB colour (channels 0 to 255), 0 (black) to 1 (white)."""
    red, green, blue = color
    linear = _linear()
    return 0.2126 * linear[red] + 0.7152 * linear[green] + 0.0722 * linear[blue]


def _ratio(first: float, second: float) -> float:
    """The contrast ratio of two relative luminances."""
    lighter, darker = (first, second) if first >= second else (second, first)
    return (lighter + 0.05) / (darker + 0.05)


def contrast(foreground: ColorTriplet, background: ColorTriplet) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    return _ratio(luminance(foreground), luminance(background))


def triplet(color: Color, *, foreground: bool) -> ColorTriplet:
    """The sRGB value of a Rich colour (a terminal's default and ANSI colours as Rich's default
    terminal theme has them)."""
    return color.get_truecolor(foreground=foreground)


def readable(foreground: ColorTriplet, background: ColorTriplet, minimum: float = MIN_CONTRAST) -> ColorTriplet:
    """``foreground`` if it has ``minimum`` contrast on ``background``, else the least blend of
    it toward black or white (whichever contrasts more) that has. Any background has a contrast
    of at least 4.58 with black or with white, so ``minimum`` up to that is always reached."""
    back = luminance(background)  # once: each blend below is compared with it
    if _ratio(luminance(foreground), back) >= minimum:
        return foreground
    white, black = ColorTriplet(255, 255, 255), ColorTriplet(0, 0, 0)
    target = white if _ratio(luminance(white), back) >= _ratio(luminance(black), back) else black
    (red, green, blue), (to_red, to_green, to_blue), linear = foreground, target, _linear()
    for step in range(1, 21):  # each blend's luminance as luminance() works it out, with no triplet made
        share = step / 20
        r, g, b = (round(red + (to_red - red) * share), round(green + (to_green - green) * share),
                   round(blue + (to_blue - blue) * share))  # fmt: skip
        if _ratio(0.2126 * linear[r] + 0.7152 * linear[g] + 0.0722 * linear[b], back) >= minimum:
            return ColorTriplet(r, g, b)
    return target


@lru_cache(maxsize=1024)
def legible(part: Style | None, row: Style, minimum: float = MIN_CONTRAST) -> Style | None:
    """``part`` (a style laid over ``row``, the row's own style) with its colour changed, if
    needed, to have ``minimum`` contrast on the row's background; the row's own colour (when
    ``part`` sets none) is checked the same way. ``None`` stays ``None`` when the row's colour
    is readable. Without a known background or colour, ``part`` is returned unchanged."""
    shown = row + part if part is not None else row
    if shown.color is None or shown.bgcolor is None:
        return part
    foreground = triplet(shown.color, foreground=True)
    fixed = readable(foreground, triplet(shown.bgcolor, foreground=False), minimum)
    if fixed == foreground:
        return part
    return (part or Style()) + Style(color=Color.from_triplet(fixed))
