// The merchant file a Hub is started with (--merchant-config: the merchant's clientAuthKey and the
// provider's public key), for a Hub of the Demo profile's merchant: read from the Demo keys the
// counter keeps in its data folder, as an operator would copy them. Without one, a Hub cannot
// verify the provider's notifications and the counter says "Hub: not passing on payments".
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function find(dir: string, name: string): string | null {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isFile() && e.name === name) return p;
    if (e.isDirectory()) {
      const inner = find(p, name);
      if (inner) return inner;
    }
  }
  return null;
}

/** Writes `<dir>/hub-merchant.json` for the Demo merchant of the counter whose data folder is `counterDataDir`; returns its path. */
export function demoHubMerchantFile(counterDataDir: string, dir: string): string {
  const stored = find(counterDataDir, 'demo-sandbox.json');
  if (!stored)
    throw new Error(`no demo-sandbox.json under ${counterDataDir}: has the counter started its Demo provider?`);
  const { merchant } = JSON.parse(readFileSync(stored, 'utf8')) as {
    merchant: { clientAuthKey: string; providerPublicKeyPem: string };
  };
  const file = join(dir, 'hub-merchant.json');
  writeFileSync(
    file,
    JSON.stringify({ clientAuthKey: merchant.clientAuthKey, providerPublicKey: merchant.providerPublicKeyPem }),
    { mode: 0o600 },
  );
  return file;
}
