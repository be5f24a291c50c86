// Livery's browser client's verification, served at /v1/livery-tuf.js and loaded by livery.js
// only when a page follows with `{root}`: The Update Framework's client workflow (TUF 1.0,
// section 5), as python-tuf's ngclient walks it. From a trusted root it reads N.root.json
// upward until a 404, then timestamp.json, the snapshot and the targets metadata that the one
// before names, and a target whose length and SHA-256 the targets metadata signs. A bad
// signature, an expired role (a frozen front), a version lower than one seen (a rollback) or
// metadata that is not the set the timestamp names (mixed) is refused with a TUFRefusal naming
// the check. Signatures are Ed25519 and digests SHA-256, both by WebCrypto (crypto.subtle,
// which browsers give only to secure pages: https, or http on the loopback).

/** The largest metadata file read; the spec asks clients to bound every download. */
const maxMetadataBytes = 1 << 20;
/** The most root versions read in one refresh, as in ngclient. */
const maxRootRotations = 256;

/** A refusal by one of the client workflow's checks; `check` names it ("timestamp expired"…). */
export class TUFRefusal extends Error {
  constructor(check, detail) {
    super(`${check}: ${detail}`);
    this.name = "TUFRefusal";
    this.check = check;
  }
}

/**
 * The metadata a client trusts, from `root` (the root metadata object it was given) on.
 * `metadataBase` and `targetsBase` are the repository's URLs without a trailing slash; `get(url,
 * cache)` fetches (a Response); `now()` is the clock expiry is checked against, in ms.
 */
export class TrustedRepository {
  constructor(root, { metadataBase, targetsBase, get, now }) {
    this.root = root;
    this.timestamp = null;
    this.snapshot = null;
    this.targets = null;
    Object.assign(this, { metadataBase, targetsBase, get, now });
  }

  /** A repository trusting `root` once it verifies with its own keys. */
  static async start(root, options) {
    if (root?.signed?._type !== "root") throw new TUFRefusal("root", "expected root metadata");
    await verifyRole(root, "root", root.signed);
    return new TrustedRepository(root, options);
  }

  /** Walks the workflow (5.3 to 5.6): the verified targets metadata's `signed.targets`. */
  async refresh() {
    await this.updateRoot();
    await this.updateTimestamp();
    await this.updateSnapshot();
    await this.updateTargets();
    return this.targets.signed.targets;
  }

  /** 5.3: each next root is signed by the trusted root's keys and by its own, and numbered next. */
  async updateRoot() {
    const first = this.root.signed.version;
    for (let next = first + 1; next <= first + maxRootRotations; next += 1) {
      const response = await this.get(`${this.metadataBase}/${next}.root.json`, "no-cache");
      if (response.status === 404 || response.status === 403) break;
      const root = await metadata(response, `${next}.root.json`, "root");
      await verifyRole(root, "root", this.root.signed);
      await verifyRole(root, "root", root.signed);
      if (root.signed.version !== next) {
        throw new TUFRefusal("root version", `${next}.root.json holds version ${root.signed.version}`);
      }
      // 5.3.11: keys of timestamp or snapshot rotated, so the versions they signed are forgotten.
      if (!sameRole(root, this.root, "timestamp") || !sameRole(root, this.root, "snapshot")) {
        this.timestamp = null;
        this.snapshot = null;
      }
      this.root = root;
    }
    this.checkExpiry(this.root, "root");
  }

  /** 5.4: never a lower version, never a lower snapshot version; kept when equal. */
  async updateTimestamp() {
    const response = await this.get(`${this.metadataBase}/timestamp.json`, "no-cache");
    const timestamp = await metadata(response, "timestamp.json", "timestamp");
    await verifyRole(timestamp, "timestamp", this.root.signed);
    const trusted = this.timestamp;
    if (trusted !== null) {
      if (timestamp.signed.version < trusted.signed.version) {
        throw new TUFRefusal("timestamp rollback",
          `version ${timestamp.signed.version} is lower than ${trusted.signed.version} seen`);
      }
      const [seen, offered] = [trusted, timestamp].map((t) => snapshotMeta(t).version);
      if (offered < seen) throw new TUFRefusal("snapshot rollback", `version ${offered} is lower than ${seen} seen`);
    }
    if (trusted === null || timestamp.signed.version > trusted.signed.version) this.timestamp = timestamp;
    // Checked once kept, as ngclient does: an expired timestamp still guards against rollback.
    this.checkExpiry(this.timestamp, "timestamp");
  }

  /** 5.5: the snapshot the timestamp names, with no targets version lower than one seen. */
  async updateSnapshot() {
    const meta = snapshotMeta(this.timestamp);
    if (this.snapshot === null || this.snapshot.signed.version !== meta.version) {
      const snapshot = await this.listed("snapshot", meta, "timestamp");
      for (const [file, seen] of Object.entries(this.snapshot?.signed.meta ?? {})) {
        const offered = snapshot.signed.meta[file];
        if (offered === undefined) throw new TUFRefusal("snapshot rollback", `${file} is no longer listed`);
        if (offered.version < seen.version) {
          throw new TUFRefusal("targets rollback", `${file} version ${offered.version} is lower than ${seen.version} seen`);
        }
      }
      this.snapshot = snapshot;
      this.targets = null;
    }
    this.checkExpiry(this.snapshot, "snapshot");
  }

  /** 5.6: the targets metadata the snapshot names. */
  async updateTargets() {
    const meta = this.snapshot.signed.meta["targets.json"];
    if (meta === undefined) throw new TUFRefusal("snapshot", "targets.json is not listed");
    if (this.targets === null || this.targets.signed.version !== meta.version) {
      this.targets = await this.listed("targets", meta, "snapshot");
    }
    this.checkExpiry(this.targets, "targets");
  }

  /**
   * The `role` metadata that `meta`, an entry of the `by` role, names: fetched (by version under
   * consistent snapshots), of the length and hash `meta` signs if it signs them, signed by the
   * role's keys, and of the very version named (else the set is mixed).
   */
  async listed(role, meta, by) {
    const name = this.root.signed.consistent_snapshot ? `${meta.version}.${role}.json` : `${role}.json`;
    const bytes = await body(await this.get(`${this.metadataBase}/${name}`, "default"), name, maxMetadataBytes);
    await checkMeta(bytes, meta, role, name);
    const listed = parse(bytes, name, role);
    await verifyRole(listed, role, this.root.signed);
    if (listed.signed.version !== meta.version) {
      throw new TUFRefusal(`${role} version`, `${name} holds version ${listed.signed.version}, the ${by} names ${meta.version}`);
    }
    return listed;
  }

  /** 5.7: the bytes of target `name` (`info` its entry), whose length and SHA-256 are signed. */
  async download(name, info) {
    const digest = info.hashes?.sha256;
    if (typeof digest !== "string") throw new TUFRefusal("target hash", `${name} has no sha256`);
    // Under consistent snapshots a target is served as DIR/HASH.NAME (the spec's 5.7.3).
    const slash = name.lastIndexOf("/") + 1;
    const path = this.root.signed.consistent_snapshot ? `${name.slice(0, slash)}${digest}.${name.slice(slash)}` : name;
    const bytes = await body(await this.get(`${this.targetsBase}/${path}`, "default"), path, info.length + 1);
    if (bytes.length !== info.length) {
      throw new TUFRefusal("target length", `${name} is ${bytes.length} bytes, ${info.length} signed`);
    }
    if (await sha256Hex(bytes) !== digest) throw new TUFRefusal("target hash", `${name} is not the signed one`);
    return bytes;
  }

  checkExpiry(trusted, role) {
    const expires = Date.parse(trusted.signed.expires);
    if (!(expires > this.now())) throw new TUFRefusal(`${role} expired`, `expired at ${trusted.signed.expires}`);
  }
}

/** The timestamp's entry for the snapshot. */
function snapshotMeta(timestamp) {
  const meta = timestamp.signed.meta?.["snapshot.json"];
  if (!Number.isInteger(meta?.version)) throw new TUFRefusal("timestamp", "snapshot.json is not listed");
  return meta;
}

function sameRole(a, b, role) {
  return canonical(a.signed.roles[role]) === canonical(b.signed.roles[role]);
}

/** A response's bytes, refused past `limit` bytes or when it is not a 200. */
async function body(response, name, limit) {
  if (response.status !== 200) throw new Error(`GET ${name} answered ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > limit) throw new TUFRefusal("length", `${name} is over ${limit} bytes`);
  return bytes;
}

async function metadata(response, name, type) {
  return parse(await body(response, name, maxMetadataBytes), name, type);
}

function parse(bytes, name, type) {
  let value;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new TUFRefusal(type, `${name} is not JSON: ${error.message}`);
  }
  if (value?.signed?._type !== type || !Array.isArray(value.signatures)) {
    throw new TUFRefusal(type, `${name} is not ${type} metadata`);
  }
  return value;
}

/** The length and hashes the role above signed for a metadata file, when it signed them. */
async function checkMeta(bytes, meta, role, name) {
  if (meta.length !== undefined && bytes.length !== meta.length) {
    throw new TUFRefusal(`${role} length`, `${name} is ${bytes.length} bytes, ${meta.length} signed`);
  }
  const digest = meta.hashes?.sha256;
  if (digest !== undefined && await sha256Hex(bytes) !== digest) {
    throw new TUFRefusal(`${role} hash`, `${name} is not the signed one`);
  }
}

/**
 * Refuses `metadata` unless a threshold of the keys `delegator` (root's `signed`) gives `role`
 * signed its canonical form; each key counts once.
 */
async function verifyRole(metadata, role, delegator) {
  const { keyids, threshold } = delegator.roles?.[role] ?? {};
  if (!Array.isArray(keyids) || !Number.isInteger(threshold) || threshold < 1) {
    throw new TUFRefusal(`${role} signature`, `root gives ${role} no keys`);
  }
  const message = new TextEncoder().encode(canonical(metadata.signed));
  const counted = new Set();
  for (const { keyid, sig } of metadata.signatures) {
    if (counted.has(keyid) || !keyids.includes(keyid)) continue;
    const key = delegator.keys?.[keyid];
    if (key?.keytype !== "ed25519" || key.scheme !== "ed25519") continue;
    if (await ed25519Verifies(key.keyval.public, sig, message)) counted.add(keyid);
  }
  if (counted.size < threshold) {
    throw new TUFRefusal(`${role} signature`, `${counted.size} valid of the ${threshold} needed`);
  }
}

async function ed25519Verifies(publicHex, signatureHex, message) {
  const subtle = webCrypto();
  const publicKey = hexBytes(publicHex);
  const signature = hexBytes(signatureHex);
  if (publicKey === null || signature === null) return false;
  const key = await subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
  return subtle.verify({ name: "Ed25519" }, key, signature, message);
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await webCrypto().digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function webCrypto() {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("verifying needs WebCrypto (crypto.subtle): serve the page over https");
  return subtle;
}

function hexBytes(text) {
  if (typeof text !== "string" || !/^([0-9a-f]{2})*$/i.test(text)) return null;
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/**
 * Canonical JSON as TUF signs it (the OLPC form securesystemslib writes): no whitespace, keys
 * sorted by code point, only `"` and `\` escaped in strings, integers only.
 */
export function canonical(value) {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new TUFRefusal("canonical JSON", `${value} is not an integer`);
    return String(value);
  }
  if (typeof value === "string") return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort(byCodePoint);
  return `{${keys.map((key) => `${canonical(key)}:${canonical(value[key])}`).join(",")}}`;
}

function byCodePoint(a, b) {
  const [x, y] = [Array.from(a, (c) => c.codePointAt(0)), Array.from(b, (c) => c.codePointAt(0))];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
