"""Shared paths for the binding's tests: the repository and the shared data."""
import os
from pathlib import Path

import pytest

REPO = Path(os.environ.get("TAK_REPO", Path(__file__).resolve().parents[2]))
SHARED = Path(os.environ.get("TAK_SHARED", REPO.parent / "shared"))


@pytest.fixture
def shared() -> Path:
    if not (SHARED / "spec").is_dir():
        pytest.skip(f"no shared data at {SHARED}")
    return SHARED
