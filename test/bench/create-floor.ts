// The floor of a create's own work, measured in the same run on the same disk (issue 28): what no
// create can avoid — sign and encrypt the request as the POS client does (RSA-2048 public-key
// encryption of the canonical body, SHA256withRSA over it) and one committed transaction on the
// journal's disk (WAL, synchronous FULL, as the journal is opened). The create overhead's target
// reads "<= k x this floor".
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { canonicalJson, rsaEncryptChunked, rsaSign } from '../../protocol/crypto';
import { percentile, round } from './bench-stats';

export interface CreateFloorFigures {
  /** sign + encrypt + one committed transaction, per create: p50 / p95 ms. */
  p50: number;
  p95: number;
  /** Its parts' p50: the RSA work, and the commit alone. */
  cryptoP50: number;
  commitP50: number;
}

export function runCreateFloor(o: { baseDir: string; n: number; warmup?: number }): CreateFloorFigures {
  const dir = mkdtempSync(join(o.baseDir, 'counterpay-bench-floor-'));
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const db = new Database(join(dir, 'floor.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    const commit = db.transaction((body: string) => insert.run(body));
    const whole: number[] = [];
    const crypto: number[] = [];
    const commits: number[] = [];
    const warmup = o.warmup ?? 20;
    for (let i = 0; i < warmup + o.n; i++) {
      // A createOrder body of the usual size (the sale's fields, the amounts, the terminal).
      const body = canonicalJson({
        outOrderNo: `FLOOR-${i}`,
        amount: '2600.00',
        currency: 'NGN',
        sn: 'SN-FLOOR-1',
        productName: 'Bench Film',
        productDesc: 'Hall 1 2025-03-31 19:30 A1,A2',
        headMerchantId: '256600000000001',
        merchantId: '256600000000002',
        expireTime: 3600,
        notifyUrl: 'https://hub.example.ng/provider/pos-webhook',
      });
      const t0 = performance.now();
      const paramContent = rsaEncryptChunked(keys.publicKey, body, true);
      rsaSign(keys.privateKey, paramContent + String(Date.now()), 'SHA256');
      const t1 = performance.now();
      commit(body);
      const t2 = performance.now();
      if (i < warmup) continue;
      whole.push(t2 - t0);
      crypto.push(t1 - t0);
      commits.push(t2 - t1);
    }
    return {
      p50: round(percentile(whole, 50), 2),
      p95: round(percentile(whole, 95), 2),
      cryptoP50: round(percentile(crypto, 50), 2),
      commitP50: round(percentile(commits, 50), 2),
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
