"""Endorsing a desk key with the wrong key, or a key the file does not hold, is refused
with a keyed ``StoreError`` (its params name the key: once a TypeError, because
``keyed(key, key=...)`` gave ``key`` twice)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from referee_desk.store import StoreError, TournamentFile
from referee_desk.store.keys import Signer, desk_signer
from referee_desk.store.synthetic import record


def test_endorsing_with_another_key_or_an_unknown_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with TournamentFile.open(path, tournament_id="endorse-cup") as tf:
        record(tf, "m1", 3)
        tf.seals.lock("m1")
        stranger = Signer(Ed25519PrivateKey.generate(), "organizer", "organizer")
        with pytest.raises(StoreError) as refused:
            tf.seals.endorse_desk_key(stranger, "0" * 16)
        assert refused.value.key == "store.not_the_file_key"
        assert refused.value.params["key"] == stranger.fingerprint
        assert f"{stranger.fingerprint} is not the file's key" in str(refused.value)
        with pytest.raises(StoreError) as unknown:
            tf.seals.endorse_desk_key(desk_signer(), "0" * 16)
        assert unknown.value.key == "store.unknown_key"
        assert unknown.value.params["key"] == "0" * 16
