"""Test-wide setup: Qt must run headless, so the platform is set before any Qt import."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
