"""python-tuf's ngclient, the reference TUF client, through the hostile front (hostile_front.py)
in front of a repository python-tuf wrote (tuf_repository.py) and a static server: it reads two
versions, then refuses each attack on the third, and reads the third once the front is honest
again. The same cases as the browser's (test_tuf_web_page.py): the front and the
repository are what ngclient says they are."""

import datetime
import pathlib
from unittest.mock import patch

import pytest
from tuf.api import exceptions
from tuf.ngclient import Updater


# What ngclient raises for each attack on the second version.
REFUSALS = {
    "flip": exceptions.LengthOrHashMismatchError,
    "older-target": exceptions.LengthOrHashMismatchError,
    "older-timestamp": exceptions.BadVersionNumberError,
    "older-snapshot": exceptions.BadVersionNumberError,
    "older-targets": exceptions.BadVersionNumberError,
    "freeze-timestamp": exceptions.ExpiredMetadataError,
    "forge-timestamp": exceptions.UnsignedMetadataError,
}


class Client:
    """An ngclient user whose trusted metadata persists between refreshes, as an installed one's."""

    def __init__(self, base, root, folder):
        self.base = base
        self.root = root
        self.folder = folder

    def bundle(self, clock_ahead=datetime.timedelta(0)):
        """A refresh (a new Updater, as a restarted program makes) and bundle.json's bytes, with
        ngclient's clock `clock_ahead` of the real one."""
        real = datetime.datetime

        class Later(real):
            @classmethod
            def now(cls, tz=None):
                return real.now(tz) + clock_ahead

        # The clock ngclient reads expiry against; no sleep.
        with patch("tuf.ngclient._internal.trusted_metadata_set.datetime.datetime", Later):
            first = not (self.folder / "root.json").exists()
            updater = Updater(str(self.folder), f"{self.base}/v1/tuf/metadata/", str(self.folder / "targets"),
                              f"{self.base}/v1/tuf/targets/", bootstrap=self.root if first else None)
            updater.refresh()
            info = updater.get_targetinfo("bundle.json")
            assert info is not None
            (self.folder / "targets").mkdir(exist_ok=True)
            return pathlib.Path(updater.download_target(info)).read_bytes()


@pytest.mark.parametrize("attack", list(REFUSALS))
def test_ngclient_refuses_each_attack_of_the_hostile_front(tuf_repository, hostile_front, tmp_path, attack):
    client = Client(hostile_front.base, tuf_repository.trusted_root, tmp_path)
    for number in (1, 2):
        published = tuf_repository.publish_number(number)
        assert client.bundle() == published
    hostile_front.start(attack)
    # For a freeze, two days pass: the second timestamp (a day's expiry) is then stale, and
    # only a frozen front still serves it.
    ahead = datetime.timedelta(days=2) if attack == "freeze-timestamp" else datetime.timedelta(0)
    third = tuf_repository.publish_number(3, ahead)
    with pytest.raises(REFUSALS[attack]):
        client.bundle(ahead)
    hostile_front.start(None)
    assert client.bundle(ahead) == third


def test_ngclient_follows_a_root_rotation(tuf_repository, hostile_front, tmp_path):
    client = Client(hostile_front.base, tuf_repository.trusted_root, tmp_path)
    tuf_repository.publish_number(1)
    client.bundle()
    tuf_repository.rotate_root()
    second = tuf_repository.publish_number(2)
    assert client.bundle() == second
