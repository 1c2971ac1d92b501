// The one contract between the renderer and main: every call with its argument and result
// schemas, every event with its payload schema. Both transports and window.counterpay derive from it.
import { z } from 'zod';
import { DiskStatusSchema } from './backups';
import { backupCalls } from './contract-backups';
import { basketCalls } from './contract-basket';
import { Empty, IdArgs, type Bridge, type CallsSpec, type EventsSpec } from './contract-kit';
import { deliveryCalls } from './contract-delivery';
import { diagnosticsCalls } from './contract-diagnostics';
import { catalogueCalls, catalogueEvents } from './contract-catalogue';
import { programmeCalls, programmeEvents } from './contract-programme';
import { hubCalls, hubEvents } from './contract-hub-link';
import { seatCalls, seatEvents } from './contract-seats';
import { integrationCalls, integrationEvents } from './contract-integrations';
import { HubStatusSchema } from './hub-link';
import { recordCalls, recordEvents } from './contract-records';
import { refundCalls, refundEvents } from './contract-refunds';
import { lateCalls, lateEvents } from './contract-late';
import { topupCalls, topupEvents } from './contract-topups';
import {
  ConnectivitySchema,
  FilmMemorySchema,
  OrderEventSchema,
  OrderViewSchema,
  SALE_INVALID,
  SaleInputSchema,
} from './orders';
import { ClockStatusSchema, ProviderStatusSchema } from './provider-status';
import { PinStatusSchema, PROFILE_INVALID, ProfileName, ProfileSaveSchema, ProfileViewSchema } from './settings';
import {
  SerialPortInfoSchema,
  TerminalConfigureArgsSchema,
  TerminalSettingsSchema,
  TerminalStateSchema,
} from './terminal';

const Pin = z.string().regex(/^\d{4,12}$/, 'A PIN is 4 to 12 digits');

const StatusSnapshotSchema = z.object({
  profile: ProfileName,
  counterName: z.string(),
  provider: ProviderStatusSchema,
  clock: ClockStatusSchema,
  terminal: z.object({
    state: z.enum(['not-connected', 'connecting', 'connected', 'manual']),
    sn: z.string().nullable(),
    detail: z.string(),
  }),
  queue: z.object({ length: z.number().int().nonnegative(), online: z.boolean() }),
  disk: DiskStatusSchema,
  hub: HubStatusSchema,
});
export type StatusSnapshot = z.infer<typeof StatusSnapshotSchema>;

const AppInfoSchema = z.object({
  version: z.string(),
  shell: z.enum(['electron', 'browser']),
  dataDir: z.string(),
  secretStorage: z.object({ kind: z.enum(['os-keychain', 'file']), note: z.string() }),
});

export type AppInfo = z.infer<typeof AppInfoSchema>;

export const SaleDefaultsSchema = z.object({
  /** yyyy-MM-dd in Africa/Lagos. */
  today: z.string(),
  /** The next half hour from now, HH:mm in Africa/Lagos (cashier overrides). */
  nextShowTime: z.string(),
  /** The terminal in use: from the serial link, or typed by hand; null if none yet. */
  sn: z.string().nullable(),
  films: z.array(FilmMemorySchema),
});

/** What the Demo terminal panel shows: the simulated terminal's screen. */
const DemoTerminalScreenSchema = z.object({
  available: z.boolean(),
  sn: z.string().nullable(),
  pending: z
    .object({ outOrderNo: z.string(), orderNo: z.string(), amountKobo: z.number().int(), expiresAt: z.number() })
    .nullable(),
  message: z.string(),
});
export type DemoTerminalScreen = z.infer<typeof DemoTerminalScreenSchema>;
/** What the cashier makes the Demo terminal do with the payment it shows. */
const DemoOutcomeSchema = z.enum(['SUCCESS', 'FAIL', 'CANCEL']);
export type DemoOutcome = z.infer<typeof DemoOutcomeSchema>;

// The core's own calls, one group per core module (core/*-module.ts answers each).
export const statusCalls = {
  'app.info': { args: Empty, result: AppInfoSchema },
  'status.get': { args: Empty, result: StatusSnapshotSchema },
  /** Probes the payment provider now (the status bar's "Check now"). */
  'status.checkProvider': { args: Empty, result: StatusSnapshotSchema },
} satisfies CallsSpec;

export const settingsCalls = {
  'settings.pinStatus': { args: Empty, result: PinStatusSchema },
  'settings.setPin': {
    args: z.object({ currentPin: z.string().max(64).optional(), newPin: Pin }).strict(),
    result: PinStatusSchema,
  },
  'settings.unlock': { args: z.object({ pin: z.string().max(64) }).strict(), result: PinStatusSchema },
  'settings.lock': { args: Empty, result: PinStatusSchema },
  'settings.getProfile': { args: z.object({ profile: ProfileName }).strict(), result: ProfileViewSchema, admin: true },
  'settings.saveProfile': { args: ProfileSaveSchema, result: ProfileViewSchema, admin: true, invalid: PROFILE_INVALID },
  'settings.setActiveProfile': {
    args: z.object({ profile: ProfileName }).strict(),
    result: StatusSnapshotSchema,
    admin: true,
  },
} satisfies CallsSpec;

export const orderCalls = {
  // Selling a ticket and taking the card payment (the renderer sends the form; main checks it).
  'sale.defaults': { args: Empty, result: SaleDefaultsSchema },
  'sale.charge': { args: SaleInputSchema, result: OrderViewSchema, invalid: SALE_INVALID },
  'orders.get': { args: IdArgs, result: OrderViewSchema },
  'orders.history': { args: IdArgs, result: z.array(OrderEventSchema) },
  'orders.listToday': { args: Empty, result: z.array(OrderViewSchema) },
  'orders.listQueued': { args: Empty, result: z.array(OrderViewSchema) },
  /** Every order not yet final, oldest first: what the Sell screen restores after a reload. */
  'orders.listOpen': { args: Empty, result: z.array(OrderViewSchema) },
  'orders.retry': { args: IdArgs, result: OrderViewSchema },
  'orders.checkNow': { args: IdArgs, result: OrderViewSchema },
} satisfies CallsSpec;

export const terminalCalls = {
  // The counter's terminal: a serial link or a typed serial number.
  'terminal.get': { args: Empty, result: z.object({ settings: TerminalSettingsSchema, state: TerminalStateSchema }) },
  'terminal.listPorts': { args: Empty, result: z.array(SerialPortInfoSchema) },
  'terminal.configure': {
    args: TerminalConfigureArgsSchema,
    result: z.object({ settings: TerminalSettingsSchema, state: TerminalStateSchema }),
  },
} satisfies CallsSpec;

export const demoCalls = {
  // Demo profile only: the simulated terminal.
  'demo.terminalScreen': { args: Empty, result: DemoTerminalScreenSchema },
  'demo.present': { args: z.object({ outcome: DemoOutcomeSchema }).strict(), result: DemoTerminalScreenSchema },
} satisfies CallsSpec;

const coreEvents = {
  'status.changed': StatusSnapshotSchema,
  'order.changed': OrderViewSchema,
  'connectivity.changed': ConnectivitySchema,
  'terminal.changed': TerminalStateSchema,
  'demo.terminalChanged': DemoTerminalScreenSchema,
} satisfies EventsSpec;

export const calls = {
  ...statusCalls,
  ...settingsCalls,
  ...orderCalls,
  ...basketCalls,
  ...lateCalls,
  ...refundCalls,
  ...terminalCalls,
  ...demoCalls,
  ...topupCalls,
  ...recordCalls,
  ...deliveryCalls,
  ...diagnosticsCalls,
  ...backupCalls,
  ...programmeCalls,
  ...catalogueCalls,
  ...seatCalls,
  ...hubCalls,
  ...integrationCalls,
} satisfies CallsSpec;
export const events = {
  ...coreEvents,
  ...lateEvents,
  ...refundEvents,
  ...topupEvents,
  ...recordEvents,
  ...programmeEvents,
  ...catalogueEvents,
  ...seatEvents,
  ...hubEvents,
  ...integrationEvents,
} satisfies EventsSpec;

export type Calls = typeof calls;
export type Events = typeof events;
export type CounterPayApi = Bridge<Calls, Events>;

export const CALL_NAMES = Object.keys(calls) as (keyof Calls)[];
export const EVENT_NAMES = Object.keys(events) as (keyof Events)[];
