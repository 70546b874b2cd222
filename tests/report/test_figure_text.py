"""Text in figures: names in CJK drawn in an installed CJK font, never stopping a figure."""

from __future__ import annotations

from typing import Any

import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import EvaluationSettings, ape
from robot_msgs.io import read_trajectory
from robot_msgs.report import figure_text
from robot_msgs.report.figure_text import CJK_FAMILIES
from robot_msgs.report.figures import evaluation_figure, figure_bytes

pytest.importorskip("matplotlib")

#: Two algorithms' names in Chinese and Japanese, as a run's folder may be named.
NAMES = ("视觉里程计", "軌跡推定")


def _figure() -> Any:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    result = ape(ref, est, settings=EvaluationSettings(align="se3"))
    return evaluation_figure(
        [(name, result) for name in NAMES], result.comparison.signals, title=NAMES[0]
    )


@pytest.mark.parametrize("fonts", ["installed", "none"])
@pytest.mark.parametrize("fmt", ["png", "pdf", "svg"])
def test_cjk_names_draw_without_a_missing_glyph_warning(
    fmt: str, fonts: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DejaVu Sans has no CJK: ``ape --plot`` of estimates named in Chinese warned
    "Glyph 35270 missing from font(s) DejaVu Sans" for each character, an error under
    ``-W error`` (as the tests run), and stopped (a hunt). Drawn, with a CJK font where
    one is installed, as boxes where none is (as if none: ``fonts="none"``), and no
    warning either way."""
    if fonts == "none":
        monkeypatch.setattr(figure_text, "cjk_fonts", list)
    data = figure_bytes(_figure(), fmt, 50)
    assert len(data) > 1000


def test_cjk_names_fall_back_to_an_installed_cjk_font() -> None:
    """Where a CJK font is installed (Debian: fonts-noto-cjk), every character of the
    names is in one of the fonts each text is drawn with: DejaVu Sans first (Latin as
    before), then the CJK font."""
    from matplotlib.font_manager import FontProperties, fontManager
    from matplotlib.ft2font import FT2Font

    installed = {f.name for f in fontManager.ttflist}
    cjk = [f for f in CJK_FAMILIES if f in installed]
    if not cjk:
        pytest.skip("no CJK font installed (Debian: apt-get install fonts-noto-cjk)")
    fig = _figure()
    figure_bytes(fig, "png", 50)
    texts = [t for t in fig.axes[1].get_legend().get_texts() if t.get_text() in NAMES]
    texts.append(fig.axes[1].title)
    assert len(texts) == 3
    for text in texts:
        families = text.get_fontfamily()
        assert families[0] == "sans-serif"
        assert families[1:] == cjk
        fonts = [
            FT2Font(fontManager.findfont(FontProperties(family=[f]), fallback_to_default=False))
            for f in families
        ]
        for char in text.get_text():
            assert any(font.get_char_index(ord(char)) for font in fonts), char


def test_labels_for_one_input_say_one_input() -> None:
    """`ape R E --plot p.png --label a --label b` was told "2 given for 1 inputs"."""
    with pytest.raises(ValidationError, match=r": 2 given for 1 input \(e\.tum\); give one"):
        figure_text.legend_names(["e.tum"], ["a", "b"])
