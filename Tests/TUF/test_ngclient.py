#!/usr/bin/env python3
"""An independent TUF client reads the daemon's signed delivery: python-tuf's `ngclient`.

`python3 Tests/TUF/test_ngclient.py` (scripts/test runs it with the debug build just made, after
installing PyPI's `tuf`). Given only `1.root.json` from `livery signing init`, ngclient refreshes
from `livery serve --signing` and downloads `bundle.json` and `livery.css`, whose bytes are those
of `/v1/spec/{etag}` and `/v1/css/{etag}`; after a push it downloads the new ones; after
`livery signing rotate root` it follows the new root and still does. With `--offline-targets`
the daemon holds no targets key: `livery push --sign-with KEY` publishes a version ngclient
verifies, and a push without a signature or signed by a key not in root is refused.
"""
import http.client
import json
import os
import pathlib
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from tuf.ngclient import Updater

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIVERY = pathlib.Path(os.environ.get("LIVERY", ROOT / ".build" / "debug" / "livery"))


class Daemon:
    """`livery serve --signing` on a copy of Specs/, on a free loopback port."""

    def __init__(self, workdir, signing, options=()):
        self.token = secrets.token_hex(16)
        shutil.copytree(ROOT / "Specs", workdir / "specs")
        token_file = self.token_file = workdir / "token"
        token_file.write_text(self.token + "\n")
        token_file.chmod(0o600)
        self.process = subprocess.Popen(
            [str(LIVERY), "serve", "--port", "0", "--token-file", str(token_file), "--state-dir",
             str(workdir / "state"), "--signing", str(signing), *options, str(workdir / "specs")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.output = []
        self.port = None
        deadline = time.monotonic() + 60
        while self.port is None and time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.output.append(line)
            match = re.search(r"serving .* on http://127\.0\.0\.1:(\d+)", line)
            if match:
                self.port = int(match.group(1))
        if self.port is None:
            self.stop()
            raise AssertionError("livery serve did not say where it listens:\n" + "".join(self.output))
        self.base = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=lambda: [self.output.append(line) for line in self.process.stdout], daemon=True).start()

    def request(self, method, target, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(method, target, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def current_etag(self):
        status, headers, _ = self.request("GET", "/v1/spec")
        assert status == 200, status
        return headers["etag"].strip('"')

    def wait_for_signed(self, etag):
        """Waits until the newest targets metadata names `etag` (signing follows the publish)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if etag.encode() in self.newest_targets():
                return
            time.sleep(0.1)
        raise AssertionError(f"no targets metadata names {etag}:\n" + "".join(self.output[-30:]))

    def newest_targets(self):
        status, _, body = self.request("GET", "/v1/tuf/status")
        if status != 200:
            return b""
        version = json.loads(body)["roles"]["targets"].get("version")
        status, _, body = self.request("GET", f"/v1/tuf/metadata/{version}.targets.json")
        return body if status == 200 else b""

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()


class Client:
    """ngclient over the daemon: `self.daemon`, `self.metadata` (its trusted state), `self.workdir`."""

    def download(self, name):
        """Refreshes ngclient's metadata and downloads target `name` into a new folder."""
        targets = pathlib.Path(tempfile.mkdtemp(dir=self.workdir))
        updater = Updater(
            metadata_dir=str(self.metadata), metadata_base_url=self.daemon.base + "/v1/tuf/metadata/",
            target_dir=str(targets), target_base_url=self.daemon.base + "/v1/tuf/targets/",
            bootstrap=None)  # the trusted root is metadata_dir's root.json
        updater.refresh()
        info = updater.get_targetinfo(name)
        self.assertIsNotNone(info, f"{name} is not a target")
        return pathlib.Path(updater.download_target(info)).read_bytes()

    def assert_downloads_current_version(self, after=None):
        """Downloads the daemon's current version, once it is another than `after`, and signed."""
        deadline = time.monotonic() + 30
        etag = self.daemon.current_etag()
        while etag == after and time.monotonic() < deadline:
            time.sleep(0.05)
            etag = self.daemon.current_etag()
        self.assertNotEqual(etag, after, "the push was not published")
        self.daemon.wait_for_signed(etag)
        for name, route in (("bundle.json", "spec"), ("livery.css", "css")):
            status, _, served = self.daemon.request("GET", f"/v1/{route}/{etag}")
            self.assertEqual(status, 200)
            self.assertEqual(self.download(name), served, f"{name} of {etag}")

    def trust_first_root(self, signing):
        """The client's trusted state: only 1.root.json, as distributed with the program."""
        self.metadata = self.workdir / "client-metadata"
        self.metadata.mkdir()
        shutil.copy(signing / "1.root.json", self.metadata / "root.json")


class NgclientTests(Client, unittest.TestCase):
    def setUp(self):
        self.workdir = pathlib.Path(tempfile.mkdtemp(prefix="livery-tuf-"))
        self.signing = self.workdir / "signing"
        subprocess.run([str(LIVERY), "signing", "init", str(self.signing)], check=True, capture_output=True)
        self.daemon = Daemon(self.workdir, self.signing)
        self.trust_first_root(self.signing)

    def tearDown(self):
        self.daemon.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def test_ngclient_follows_pushes_and_a_root_rotation(self):
        self.assert_downloads_current_version()
        pushed_over = self.daemon.current_etag()

        card = (ROOT / "Specs" / "card.yaml").read_text().replace("radius: 6", "radius: 7")
        status, _, body = self.daemon.request(
            "PUT", "/v1/specs/card.yaml", body=card.encode(),
            headers={"Authorization": f"Bearer {self.daemon.token}", "Content-Type": "application/yaml"})
        self.assertIn(status, (200, 201, 204), body)
        self.assert_downloads_current_version(after=pushed_over)

        subprocess.run([str(LIVERY), "signing", "rotate", "root", "--signing", str(self.signing)],
                       check=True, capture_output=True)
        self.assert_downloads_current_version()
        self.assertIn(b'"version":2', (self.metadata / "root.json").read_bytes(), "ngclient did not take root 2")

    def test_the_keys_are_readable_by_their_owner_only(self):
        for role in ("root", "timestamp", "snapshot", "targets"):
            self.assertEqual((self.signing / f"{role}.key").stat().st_mode & 0o777, 0o600, role)

    def test_every_file_but_the_timestamp_and_newest_root_is_immutable(self):
        self.daemon.wait_for_signed(self.daemon.current_etag())
        for path, cache in (("timestamp.json", "no-cache"), ("root.json", "no-cache"),
                            ("1.root.json", "immutable"), ("1.snapshot.json", "immutable"),
                            ("1.targets.json", "immutable")):
            status, headers, _ = self.daemon.request("GET", "/v1/tuf/metadata/" + path)
            self.assertEqual(status, 200, path)
            self.assertIn(cache, headers.get("cache-control", ""), path)


class OfflineTargetsTests(Client, unittest.TestCase):
    """`livery serve --signing DIR --offline-targets`, the targets key moved off the folder."""

    def setUp(self):
        self.workdir = pathlib.Path(tempfile.mkdtemp(prefix="livery-tuf-offline-"))
        self.signing = self.workdir / "signing"
        subprocess.run([str(LIVERY), "signing", "init", str(self.signing)], check=True, capture_output=True)
        self.daemon = None

    def tearDown(self):
        if self.daemon:
            self.daemon.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def push(self, card, *options):
        """`livery push` of a card.yaml with `card` as its text; the finished process."""
        (self.workdir / "card.yaml").write_text(card)
        return subprocess.run(
            [str(LIVERY), "push", "--server", self.daemon.base, "--token-file", str(self.daemon.token_file),
             *options, str(self.workdir / "card.yaml")], capture_output=True, text=True, timeout=60)

    def test_the_daemon_refuses_to_start_with_the_targets_key_in_its_folder(self):
        started = subprocess.run(
            [str(LIVERY), "serve", "--port", "0", "--signing", str(self.signing), "--offline-targets",
             "--state-dir", str(self.workdir / "state"), str(ROOT / "Specs")],
            capture_output=True, text=True, timeout=60)
        self.assertNotEqual(started.returncode, 0)
        self.assertIn("targets.key is on this machine", started.stderr)

    def test_only_a_push_signed_with_the_targets_key_is_published(self):
        key = self.workdir / "targets.key"
        shutil.move(self.signing / "targets.key", key)
        self.daemon = Daemon(self.workdir, self.signing, options=["--offline-targets"])
        self.trust_first_root(self.signing)
        status, _, _ = self.daemon.request("GET", "/v1/tuf/metadata/timestamp.json")
        self.assertEqual(status, 404, "nothing is signed before a signed push")
        before = self.daemon.current_etag()
        card = (ROOT / "Specs" / "card.yaml").read_text().replace("radius: 6", "radius: 9")

        unsigned = self.push(card, "-m", "unsigned")
        self.assertNotEqual(unsigned.returncode, 0, unsigned.stdout)
        self.assertIn("403 Targets not signed", unsigned.stderr)
        other = self.workdir / "other"
        subprocess.run([str(LIVERY), "signing", "init", str(other)], check=True, capture_output=True)
        wrong = self.push(card, "--sign-with", str(other / "targets.key"))
        self.assertNotEqual(wrong.returncode, 0, wrong.stdout)
        self.assertIn("403 Targets not signed", wrong.stderr)
        self.assertEqual(self.daemon.current_etag(), before, "a refused push changed the specs")

        signed = self.push(card, "--sign-with", str(key), "-m", "signed offline")
        self.assertEqual(signed.returncode, 0, signed.stderr)
        self.assert_downloads_current_version(after=before)


if __name__ == "__main__":
    unittest.main(verbosity=2)
