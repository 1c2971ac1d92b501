// Reading the provider settings at call time: each call takes a fresh config (settings can change
// between calls) and fails with PROVIDER_NOT_CONFIGURED, naming the setting, before anything is sent.
import type { ProviderConfig } from './types';
import { notConfiguredError, type ProviderSetting } from './provider-errors';
import { privateKeyObject, publicKeyObject } from '../../protocol/crypto';
import { isHttpUrl } from '../../shared/settings';
import type { KeyObject } from 'node:crypto';

export type ConfigSource = ProviderConfig | (() => ProviderConfig);

export function resolveConfig(source: ConfigSource): ProviderConfig {
  return typeof source === 'function' ? source() : source;
}

// Values that travel in HTTP headers must be visible ASCII, or fetch refuses them before sending.
const HEADER_BOUND: ReadonlySet<ProviderSetting> = new Set(['billsPublicKey', 'posClientAuthKey', 'billsMerchantId']);

export function requireSetting(op: string, cfg: ProviderConfig, setting: ProviderSetting): string {
  const value = readSetting(cfg, setting);
  if (!value) throw notConfiguredError(op, setting);
  if (HEADER_BOUND.has(setting) && !/^[\x21-\x7e]+$/.test(value)) throw notConfiguredError(op, setting, 'invalid');
  return value;
}

function readSetting(cfg: ProviderConfig, setting: ProviderSetting): string {
  switch (setting) {
    case 'billsBaseUrl':
    case 'posBaseUrl':
    case 'billsMerchantId':
    case 'headMerchantId':
    case 'merchantId':
      return (cfg[setting] ?? '').trim();
    default:
      return (cfg.secrets?.[setting] ?? '').trim();
  }
}

/** Base URL + path, with the base checked to be an http(s) address. */
export function endpointUrl(
  op: string,
  cfg: ProviderConfig,
  setting: 'billsBaseUrl' | 'posBaseUrl',
  path: string,
): string {
  const base = requireSetting(op, cfg, setting);
  if (!isHttpUrl(base)) throw notConfiguredError(op, setting, 'invalid');
  return `${base.replace(/\/+$/, '')}${path}`;
}

/** The provider's public key or the merchant's private key, parsed; not configured when missing or not a key. */
export function requireKey(
  op: string,
  cfg: ProviderConfig,
  setting: 'providerPublicKey' | 'merchantPrivateKey',
): KeyObject {
  const pem = requireSetting(op, cfg, setting);
  try {
    return setting === 'providerPublicKey' ? publicKeyObject(pem) : privateKeyObject(pem);
  } catch {
    throw notConfiguredError(op, setting, 'invalid');
  }
}
