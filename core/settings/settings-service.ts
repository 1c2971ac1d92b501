// Profiles, keys and the admin PIN. Keys are write-only from the UI: views carry "set" and a
// fingerprint, never the key. A save validates everything first and writes all of it or nothing.
import { AppError, issueFields, validationError, type FieldErrors } from '../../shared/errors';
import {
  PROFILE_INVALID,
  PROFILE_NAMES,
  ProfileSettingsSchema,
  SECRET_LABELS,
  SECRET_NAMES,
  defaultProfile,
  type PinStatus,
  type ProfileName,
  type ProfileSettings,
  type ProfileView,
  type SecretName,
} from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import { fingerprint } from '../../protocol/crypto';
import { privateKeyObject, publicKeyObject } from '../../protocol/crypto';
import { TypedEmitter } from '../lib';
import type { Logger } from '../../shared/logger';
import type { ProviderConfig, ProviderSecrets } from '../provider';
import type { KeyValueStore } from './kv-store';
import { productionProblems } from '../../shared/profile-safety';
import { hashPin } from './pin';
import { createPinGuard } from './pin-guard';
import type { SecretVault } from './secret-vault';

const UNLOCK_MS = 10 * 60_000;

interface SettingsServiceDeps {
  store: KeyValueStore;
  vault: SecretVault;
  logger: Logger;
  clock: Clock;
}

type SettingsListener = (active: ProfileName) => void;

function checkSecret(name: SecretName, value: string): string | null {
  const v = value.trim();
  if (name === 'merchantPrivateKey' || name === 'providerPublicKey') {
    const kind = name === 'merchantPrivateKey' ? 'private' : 'public';
    try {
      if (kind === 'private') privateKeyObject(v);
      else publicKeyObject(v);
      return null;
    } catch {
      return `Paste the whole RSA ${kind} key (PEM, starting with -----BEGIN ${kind.toUpperCase()} KEY-----)`;
    }
  }
  if (!/^\S{8,512}$/.test(v)) return `${SECRET_LABELS[name]}: 8 to 512 characters, no spaces`;
  return null;
}

/** One message per pasted key that cannot be used (`secrets.<name>`); an empty box clears a key and is fine. */
export function secretProblems(secrets: unknown): FieldErrors {
  const fields: FieldErrors = {};
  if (typeof secrets !== 'object' || secrets === null) return fields;
  for (const [k, v] of Object.entries(secrets)) {
    if (!(SECRET_NAMES as readonly string[]).includes(k) || typeof v !== 'string' || v.trim() === '') continue;
    const problem = checkSecret(k as SecretName, v);
    if (problem) fields[`secrets.${k}`] = problem;
  }
  return fields;
}

/**
 * Settings written before Production had its rules (or by hand) are never used as they are: an
 * http:// address is left out (so calls fail as "not set up" before anything is sent) and the
 * response signature is verified whatever was stored.
 */
function productionEnforcer(logger: Logger) {
  let warnedProduction = '';
  return (name: ProfileName, p: ProfileSettings): ProfileSettings => {
    if (name !== 'production') return p;
    const problems = productionProblems(p);
    if (Object.keys(problems).length === 0) return p;
    const fields = Object.keys(problems).sort().join(',');
    if (fields !== warnedProduction)
      logger.warn('production settings break the production rules; not using them as stored', {
        fields: Object.keys(problems),
      });
    warnedProduction = fields; // once per set of problems: this runs on every provider call
    return {
      ...p,
      posBaseUrl: problems.posBaseUrl ? '' : p.posBaseUrl,
      billsBaseUrl: problems.billsBaseUrl ? '' : p.billsBaseUrl,
      conventions: { ...p.conventions, posResponseVerify: 'verify' },
    };
  };
}

/** The vault writes a save makes of the keys typed (empty: removed); a key that is wrong goes into `fields`. */
function secretWrites(
  secrets: Partial<Record<SecretName, string>>,
  fields: FieldErrors,
): Record<string, string | null> {
  const writes: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(secrets)) {
    if (!(SECRET_NAMES as readonly string[]).includes(k) || typeof v !== 'string') continue;
    const name = k as SecretName;
    if (v.trim() === '') {
      writes[name] = null;
      continue;
    }
    const problem = checkSecret(name, v);
    if (problem) fields[`secrets.${name}`] = problem;
    else writes[name] = v.trim();
  }
  return writes;
}

export function createSettingsService(deps: SettingsServiceDeps) {
  const { store, vault, logger, clock } = deps;
  const changes = new TypedEmitter<{ change: Parameters<SettingsListener> }>();
  let unlockedUntil = 0;

  const readProfile = (name: ProfileName): ProfileSettings => {
    const raw = store.get(`profiles.${name}`);
    const merged = { ...defaultProfile(name), ...(raw && typeof raw === 'object' ? (raw as object) : {}) };
    const parsed = ProfileSettingsSchema.safeParse(merged);
    if (parsed.success) return parsed.data;
    logger.warn('stored profile is invalid; using defaults for it', { profile: name });
    return defaultProfile(name);
  };

  const enforceProduction = productionEnforcer(logger);

  const activeProfile = (): ProfileName => {
    const v = store.get('activeProfile');
    return (PROFILE_NAMES as readonly string[]).includes(v as string) ? (v as ProfileName) : 'demo';
  };

  const secretsOf = (name: ProfileName): ProviderSecrets => {
    const out: ProviderSecrets = {};
    for (const s of SECRET_NAMES) {
      const v = vault.get(name, s);
      if (v !== null) out[s] = v;
    }
    return out;
  };

  const view = (name: ProfileName): ProfileView => {
    const secrets = {} as ProfileView['secrets'];
    for (const s of SECRET_NAMES) {
      const v = vault.get(name, s);
      secrets[s] = { set: v !== null, fingerprint: v === null ? null : fingerprint(v) };
    }
    return { profile: name, settings: readProfile(name), secrets };
  };

  const emit = () => {
    const a = activeProfile();
    changes.emit('change', a);
  };

  const pinHash = () => (store.get('adminPinHash') as string | undefined) ?? null;

  const guard = createPinGuard({ store, clock, logger, hash: pinHash });
  const checkPin = (pin: string) => guard.check(pin);

  const pinStatus = (): PinStatus => ({
    set: pinHash() !== null,
    unlocked: clock.now() < unlockedUntil,
    lockedUntil: guard.lockedUntil(),
  });

  return {
    activeProfile,
    profile: readProfile,
    view,
    secretsOf,

    providerConfig(name: ProfileName = activeProfile()): ProviderConfig {
      const p = enforceProduction(name, readProfile(name));
      return {
        billsBaseUrl: p.billsBaseUrl,
        posBaseUrl: p.posBaseUrl,
        billsMerchantId: p.billsMerchantId,
        headMerchantId: p.headMerchantId,
        merchantId: p.merchantId,
        requestTimeoutMs: p.requestTimeoutMs,
        conventions: p.conventions,
        secrets: secretsOf(name),
      };
    },

    /** All or nothing: every field and key is checked before anything is written. */
    save(name: ProfileName, input: unknown, secrets: Partial<Record<SecretName, string>> = {}): ProfileView {
      const parsed = ProfileSettingsSchema.safeParse(input);
      const fields: FieldErrors = parsed.success ? {} : issueFields(parsed.error.issues, { prefix: 'settings' });
      const writes = secretWrites(secrets, fields);
      if (parsed.success && name === 'production') {
        for (const [k, msg] of Object.entries(productionProblems(parsed.data))) fields[`settings.${k}`] ??= msg;
      }
      if (Object.keys(fields).length > 0 || !parsed.success) throw validationError(fields, PROFILE_INVALID);
      const previous: Record<string, string | null> = {};
      for (const k of Object.keys(writes)) previous[k] = vault.get(name, k);
      vault.setMany(name, writes);
      try {
        store.set(`profiles.${name}`, parsed.data);
      } catch (e) {
        vault.setMany(name, previous); // put the keys back: a save is all or nothing
        throw e;
      }
      logger.info('profile saved', { profile: name, keysChanged: Object.keys(writes).length });
      emit();
      return view(name);
    },

    /** Internal writes that bypass the UI (the Demo sandbox fills its own profile). */
    writeInternal(
      name: ProfileName,
      patch: Partial<ProfileSettings>,
      secrets: Partial<Record<SecretName, string>> = {},
    ): void {
      const next = ProfileSettingsSchema.parse({ ...readProfile(name), ...patch });
      vault.setMany(name, secrets);
      store.set(`profiles.${name}`, next);
      emit();
    },

    setActive(name: ProfileName): void {
      const problems = name === 'production' ? productionProblems(readProfile(name)) : {};
      if (Object.keys(problems).length > 0) {
        const fields = Object.fromEntries(Object.entries(problems).map(([k, v]) => [`settings.${k}`, v]));
        throw validationError(
          fields,
          `Production cannot be used yet: ${Object.values(problems).length} setting${Object.values(problems).length === 1 ? '' : 's'} to fix (${Object.values(problems)[0]}). Open Edit Production, fix and save.`,
        );
      }
      store.set('activeProfile', name);
      logger.info('active profile changed', { profile: name });
      emit();
    },

    onChange(l: SettingsListener): () => void {
      return changes.on('change', l);
    },

    pinStatus,

    async setPin(newPin: string, currentPin?: string): Promise<PinStatus> {
      if (!/^\d{4,12}$/.test(newPin)) throw validationError({ newPin: 'A PIN is 4 to 12 digits' });
      if (pinHash()) {
        if (currentPin === undefined) throw new AppError('PIN_REQUIRED', 'Enter the current PIN to change it.');
        await checkPin(currentPin);
      }
      store.set('adminPinHash', await hashPin(newPin));
      unlockedUntil = clock.now() + UNLOCK_MS;
      logger.info('admin PIN set');
      return pinStatus();
    },

    /**
     * A supervisor's approval by the admin PIN (an undo after the sale: docs/refunds.md): resolves
     * when the PIN is right, through the same guard as unlocking (each try counted, locked after
     * repeated failures); it does not unlock Settings.
     */
    async approveByPin(pin: string): Promise<void> {
      await checkPin(pin);
    },

    async unlock(pin: string): Promise<PinStatus> {
      await checkPin(pin);
      unlockedUntil = clock.now() + UNLOCK_MS;
      return pinStatus();
    },

    lock(): PinStatus {
      unlockedUntil = 0;
      return pinStatus();
    },

    requireAdmin(): void {
      if (!pinHash()) throw new AppError('PIN_NOT_SET', 'Choose an admin PIN first.');
      if (clock.now() >= unlockedUntil) throw new AppError('PIN_REQUIRED', 'Settings are locked. Enter the admin PIN.');
      unlockedUntil = clock.now() + UNLOCK_MS; // activity keeps it open
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
