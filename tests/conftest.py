"""Test-wide setup: Qt must run headless, so the platform is set before any Qt import."""

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Signing keys live in the user's config folder: tests use a temporary one, never ~.
os.environ["REFEREE_DESK_CONFIG_DIR"] = tempfile.mkdtemp(prefix="referee-desk-config-")
atexit.register(shutil.rmtree, os.environ["REFEREE_DESK_CONFIG_DIR"], True)
