"""A TUF repository written by python-tuf's repository API (tuf.api.metadata), laid out as the
daemon serves one (`v1/tuf/metadata/`, `v1/tuf/targets/`, consistent snapshots), with Ed25519
keys: an independent repository for the clients' tests, served by a plain static server."""

import datetime
import hashlib
import json

from securesystemslib.signer import CryptoSigner
from tuf.api.metadata import MetaFile, Metadata, Root, Snapshot, TargetFile, Targets, Timestamp
from tuf.api.serialization.json import JSONSerializer

ONLINE_ROLES = ("timestamp", "snapshot", "targets")


def write(path, data):
    """Writes `path` whole (a temporary file renamed over it): a client polling the static
    server never reads half a file."""
    temporary = path.with_name(path.name + ".partial")
    temporary.write_bytes(data)
    temporary.replace(path)


def now():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


class TUFRepository:
    """A repository under `site` (the static server's folder), at `routes` (`v1`, the daemon's
    default environment, or `v1/environments/NAME`): `publish` writes each version's targets,
    snapshot and timestamp; `rotate_root` the next root, signed by the old and new keys. The
    timestamp expires after `timestamp_expiry`, everything else after 30 days or more."""

    def __init__(self, site, timestamp_expiry=datetime.timedelta(days=1), routes="v1"):
        self.routes = site / routes
        self.metadata_dir = self.routes / "tuf" / "metadata"
        self.targets_dir = self.routes / "tuf" / "targets"
        self.metadata_dir.mkdir(parents=True)
        self.targets_dir.mkdir(parents=True)
        self.site = site
        self.timestamp_expiry = timestamp_expiry
        self.root_signers = [CryptoSigner.generate_ed25519()]
        self.signers = {role: CryptoSigner.generate_ed25519() for role in ONLINE_ROLES}
        root = Root(expires=now() + datetime.timedelta(days=365), consistent_snapshot=True)
        root.add_key(self.root_signers[0].public_key, "root")
        for role, signer in self.signers.items():
            root.add_key(signer.public_key, role)
        self.root = Metadata(root)
        self._write_root()
        self.version = 0

    @property
    def trusted_root(self):
        """The bytes of 1.root.json: what a client is given to trust."""
        return (self.metadata_dir / "1.root.json").read_bytes()

    def publish(self, files, etag, ahead=datetime.timedelta(0)):
        """A new version: `files` (target name → bytes), each with custom `{"etag": etag}`, and
        the version signal's file (`v1/version`) naming it. Targets, snapshot and timestamp share
        their version number, one per publish; their expiry counts from `ahead` of now (a
        repository whose clock, like its clients', a test has moved on)."""
        entries = {}
        for name, data in files.items():
            entry = TargetFile.from_data(name, data, ["sha256"])
            entry.unrecognized_fields["custom"] = {"etag": etag}
            entries[name] = entry
            write(self.targets_dir / f"{hashlib.sha256(data).hexdigest()}.{name}", data)
        self.version += 1
        month = now() + ahead + datetime.timedelta(days=30)
        version = self.version
        self._sign_and_write(Targets(version=version, expires=month, targets=entries), f"{version}.targets.json")
        snapshot = Snapshot(version=version, expires=month, meta={"targets.json": MetaFile(version)})
        self._sign_and_write(snapshot, f"{version}.snapshot.json")
        timestamp = Timestamp(version=version, expires=now() + ahead + self.timestamp_expiry, snapshot_meta=MetaFile(version))
        self._sign_and_write(timestamp, "timestamp.json")
        write(self.routes / "version", json.dumps({"etag": etag}).encode())

    def publish_number(self, number, ahead=datetime.timedelta(0)):
        """Version `number` of the tests' bundle and stylesheet (`#box { --livery-n: number }`),
        its ETag `"vNUMBER"`; the bundle's bytes."""
        bundle = b'{"n": %d}' % number
        css = f"#box {{ --livery-n: {number}; }}".encode()
        self.publish({"bundle.json": bundle, "livery.css": css}, f'"v{number}"', ahead)
        return bundle

    def rotate_root(self):
        """The next root version with a new root key, signed by the old key and the new one."""
        old = self.root_signers[-1]
        new = CryptoSigner.generate_ed25519()
        self.root.signed.revoke_key(old.public_key.keyid, "root")
        self.root.signed.add_key(new.public_key, "root")
        self.root.signed.version += 1
        self.root_signers.append(new)
        self.root.signatures.clear()
        self.root.sign(old, append=True)
        self.root.sign(new, append=True)
        self._write_root(signed=True)

    def _write_root(self, signed=False):
        if not signed:
            self.root.sign(self.root_signers[-1])
        data = self.root.to_bytes(JSONSerializer())
        write(self.metadata_dir / f"{self.root.signed.version}.root.json", data)
        write(self.metadata_dir / "root.json", data)

    def _sign_and_write(self, signed, name):
        metadata = Metadata(signed)
        metadata.sign(self.signers[signed.type])
        write(self.metadata_dir / name, metadata.to_bytes(JSONSerializer()))
