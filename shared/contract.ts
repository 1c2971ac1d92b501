// The one contract between the renderer and main: every call with its argument and result
// schemas, every event with its payload schema. Both transports and window.counterpay derive from it.
import { z } from 'zod';
import type { Bridge, CallsSpec, EventsSpec } from './contract-kit';
import { ProfileName, ProfileSaveSchema, ProfileViewSchema } from './settings';

const Empty = z.object({}).strict();
const Pin = z.string().regex(/^\d{4,12}$/, 'A PIN is 4 to 12 digits');

export const ProviderReach = z.enum(['unknown', 'reachable', 'unreachable', 'not-configured', 'sandbox-not-running']);

export const StatusSnapshotSchema = z.object({
  profile: ProfileName,
  counterName: z.string(),
  provider: z.object({ state: ProviderReach, detail: z.string() }),
  terminal: z.object({ state: z.enum(['not-connected', 'connecting', 'connected', 'manual']), sn: z.string().nullable(), detail: z.string() }),
  queue: z.object({ length: z.number().int().nonnegative(), online: z.boolean() }),
});
export type StatusSnapshot = z.infer<typeof StatusSnapshotSchema>;

export const AppInfoSchema = z.object({
  version: z.string(),
  shell: z.enum(['electron', 'browser']),
  dataDir: z.string(),
  secretStorage: z.object({ kind: z.enum(['os-keychain', 'file']), note: z.string() }),
});

export const PinStatusSchema = z.object({
  set: z.boolean(),
  unlocked: z.boolean(),
  lockedUntil: z.number().nullable(),
});

export const calls = {
  'app.info': { args: Empty, result: AppInfoSchema },
  'status.get': { args: Empty, result: StatusSnapshotSchema },

  'settings.pinStatus': { args: Empty, result: PinStatusSchema },
  'settings.setPin': { args: z.object({ currentPin: z.string().max(64).optional(), newPin: Pin }).strict(), result: PinStatusSchema },
  'settings.unlock': { args: z.object({ pin: z.string().max(64) }).strict(), result: PinStatusSchema },
  'settings.lock': { args: Empty, result: PinStatusSchema },
  'settings.getProfile': { args: z.object({ profile: ProfileName }).strict(), result: ProfileViewSchema, admin: true },
  'settings.saveProfile': { args: ProfileSaveSchema, result: ProfileViewSchema, admin: true },
  'settings.setActiveProfile': { args: z.object({ profile: ProfileName }).strict(), result: StatusSnapshotSchema, admin: true },
} satisfies CallsSpec;

export const events = {
  'status.changed': StatusSnapshotSchema,
} satisfies EventsSpec;

export type Calls = typeof calls;
export type Events = typeof events;
export type CounterPayApi = Bridge<Calls, Events>;

export const CALL_NAMES = Object.keys(calls) as (keyof Calls)[];
export const EVENT_NAMES = Object.keys(events) as (keyof Events)[];
