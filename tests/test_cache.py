"""The on-disk store: entries signed with the user's secret; whatever was not signed with it is a miss."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from coderefine.cache import JsonCache, cache_key, cache_secret, secret_file

KEY = cache_key({"function": "squares"})


def test_an_entry_read_back_is_the_one_written(tmp_path: Path) -> None:
    store = JsonCache(tmp_path / "store")
    store.put(KEY, {"verdict": "verified", "speedup": 1.4})
    assert store.get(KEY) == {"verdict": "verified", "speedup": 1.4}


def test_an_entry_changed_copied_or_written_by_hand_is_a_miss(tmp_path: Path) -> None:
    """What a repository could commit, or a stranger write, into a cache folder: no verdict from it."""
    store = JsonCache(tmp_path / "store")
    store.put(KEY, {"verdict": "wrong", "speedup": 0.9})
    path = next((tmp_path / "store").rglob("*.json"))
    entry = json.loads(path.read_text())
    forged = entry["document"].replace("wrong", "verified").replace("0.9", "9.0")
    path.write_text(json.dumps({**entry, "document": forged}))
    assert store.get(KEY) is None  # the value changed under its signature
    path.write_text(json.dumps({"verdict": "verified", "speedup": 9.0}))
    assert store.get(KEY) is None  # the old, unsigned form
    store.put(KEY, {"verdict": "verified"})
    other = cache_key({"function": "dedupe"})
    moved = tmp_path / "store" / other[:2] / f"{other}.json"
    moved.parent.mkdir(parents=True, exist_ok=True)
    moved.write_text(path.read_text())
    assert store.get(other) is None  # an entry under another key
    assert JsonCache(tmp_path / "store", secret=b"another user's secret").get(KEY) is None


def test_the_secret_is_made_once_outside_the_cache_and_kept_to_its_owner(tmp_path: Path) -> None:
    path = secret_file()
    assert path is not None and not path.exists()
    first = cache_secret()
    assert path.exists() and cache_secret() == first and len(first) >= 16
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not path.resolve().is_relative_to(Path(os.environ["CODEREFINE_CACHE_DIR"]).resolve())


def test_the_operator_may_give_the_secret_in_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEREFINE_CACHE_SECRET", "a secret shared by the jobs of one CI")
    assert secret_file() is None and cache_secret() == b"a secret shared by the jobs of one CI"
    JsonCache(tmp_path / "store").put(KEY, {"kept": True})
    assert JsonCache(tmp_path / "store").get(KEY) == {"kept": True}
