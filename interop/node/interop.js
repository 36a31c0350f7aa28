// Node crypto (createCipheriv 'aes-*-gcm', authTagLength) side of gcmkit's interop check.
//   verify FILE        decrypt every case (and re-encrypt it), exit 1 on any mismatch
//   generate N SEED    print N random cases encrypted with Node
// Case lines: key iv aad pt ct tag, hex, "-" for empty. Node accepts tags of 4, 8, 12..16
// bytes and IVs of any length.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const unhex = (s) => (s === '-' ? Buffer.alloc(0) : Buffer.from(s, 'hex'));
const hx = (b) => (b.length === 0 ? '-' : b.toString('hex'));
const alg = (key) => `aes-${key.length * 8}-gcm`;

function seal(key, iv, aad, pt, tagLen) {
  const c = crypto.createCipheriv(alg(key), key, iv, { authTagLength: tagLen });
  c.setAAD(aad);
  const ct = Buffer.concat([c.update(pt), c.final()]);
  return [ct, c.getAuthTag()];
}

function open(key, iv, aad, ct, tag) {
  const d = crypto.createDecipheriv(alg(key), key, iv, { authTagLength: tag.length });
  d.setAAD(aad);
  d.setAuthTag(tag);
  return Buffer.concat([d.update(ct), d.final()]);
}

const [cmd, a1, a2] = process.argv.slice(2);
if (cmd === 'verify') {
  let n = 0;
  let bad = 0;
  for (const line of fs.readFileSync(a1, 'utf8').split('\n').filter((l) => l.trim())) {
    const [key, iv, aad, pt, ct, tag] = line.trim().split(/\s+/).map(unhex);
    let ok = false;
    try {
      const [c2, t2] = seal(key, iv, aad, pt, tag.length);
      ok = open(key, iv, aad, ct, tag).equals(pt) && c2.equals(ct) && t2.equals(tag);
    } catch (e) {
      ok = false;
    }
    if (!ok) {
      bad++;
      console.error(`case ${n}: mismatch (key ${key.length} B, iv ${iv.length} B, tag ${tag.length} B)`);
    }
    n++;
  }
  console.log(`node verify: ${n - bad} passed, ${bad} failed`);
  process.exit(bad > 0 ? 1 : 0);
} else {
  // A small deterministic generator (xorshift) so runs are reproducible by seed.
  let s = BigInt(a2) | 1n;
  const next = () => {
    s ^= (s << 13n) & 0xffffffffffffffffn;
    s ^= s >> 7n;
    s ^= (s << 17n) & 0xffffffffffffffffn;
    return Number(s & 0xffffffffn);
  };
  const rb = (k) => Buffer.from(Array.from({ length: k }, () => next() & 0xff));
  const out = [];
  for (let i = 0; i < Number(a1); i++) {
    const key = rb([16, 24, 32][next() % 3]);
    const iv = rb(1 + (next() % 128));
    const aad = rb(next() % 100);
    const pt = rb([0, 1, 15, 16, 17, next() % 5000][next() % 6]);
    const tagLen = [4, 8, 12, 13, 14, 15, 16][next() % 7];
    const [ct, tag] = seal(key, iv, aad, pt, tagLen);
    out.push([key, iv, aad, pt, ct, tag].map(hx).join(' '));
  }
  process.stdout.write(out.join('\n') + '\n');
}
