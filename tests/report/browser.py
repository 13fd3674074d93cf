"""Headless Chromium driven by its own command line: the page's DOM after its scripts ran
(`--dump-dom`), its console messages (`--enable-logging=stderr` prints each as a CONSOLE line),
and screenshots at a window size.

Chromium is Debian's `chromium` package (`.ci/run` installs it when missing); CHROMIUM names another
binary. Without one the browser tests are skipped, unless CAMPAIGN_REQUIRE_BROWSER is set (as CI
sets it): then they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

CONSOLE = re.compile(r":CONSOLE(?:\(\d+\)|:\d+)\] (.*)")
PDF_PAGE = re.compile(rb"/Type\s*/Page\b(?!s)")  # a page object, not the /Pages tree
TIMEOUT = 90  # seconds for one page: generous, the test machine is shared


def chromium() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        message = "headless Chromium is not installed (apt-get install chromium, or set CHROMIUM)"
        if os.environ.get("CAMPAIGN_REQUIRE_BROWSER"):
            pytest.fail(message + " (CAMPAIGN_REQUIRE_BROWSER is set)", pytrace=False)
        pytest.skip(message)
    return found


@dataclass
class Loaded:
    dom: str  # the document as serialized after its scripts ran
    console: list[str]  # every console message and uncaught error, in order


def _run(page: Path, *flags: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        return subprocess.run(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
             "--disable-extensions", "--disable-background-networking", f"--user-data-dir={profile}",
             "--enable-logging=stderr", "--v=0", *flags, page.resolve().as_uri()],
            capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )


def load(page: Path, width: int = 1280, height: int = 900) -> Loaded:
    done = _run(page, f"--window-size={width},{height}", "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    return Loaded(dom=done.stdout, console=CONSOLE.findall(done.stderr))


def screenshot(page: Path, out: Path, width: int, height: int) -> Path:
    done = _run(page, f"--window-size={width},{height}", f"--screenshot={out}")
    assert done.returncode == 0 and out.is_file(), done.stderr[-2000:]
    return out


def printed_pages(page: Path, pdf: Path) -> int:
    """How many pages the page prints on (Chromium's --print-to-pdf, A4/Letter by its default)."""
    done = _run(page, "--no-pdf-header-footer", f"--print-to-pdf={pdf}")
    assert done.returncode == 0 and pdf.is_file(), done.stderr[-2000:]
    return len(PDF_PAGE.findall(pdf.read_bytes()))

