// What every part of a running sandbox shares: config, clock, logger, events, timers, faults.
import type { EventEmitter } from 'node:events';
import type { Clock } from '../shared/clock';
import type { Logger } from '../shared/logger';
import type { ResolvedSandboxConfig } from './config';
import type { FaultEngine, FaultKind } from './faults';
import type { SandboxClock } from './sandbox-clock';
import type { IdGenerator, SandboxTimers } from './scheduler';
import type { PosOrderStatus, SandboxPosOrder, SandboxTopup } from './types';
import type { WebhookAttempt, WebhookSender } from './webhooks';

export interface SandboxContext {
  config: ResolvedSandboxConfig;
  clock: Clock;
  /** The same clock, with its test controls (offset, Date header). */
  wireClock: SandboxClock;
  logger: Logger;
  events: SandboxEvents;
  timers: SandboxTimers;
  faults: FaultEngine;
  ids: IdGenerator;
  webhooks: WebhookSender;
}

/** The events on `sandbox.events`, with their payloads (copies: changing them changes nothing). */
export interface SandboxEventMap {
  'pos-order-created': [order: SandboxPosOrder];
  /** status SUCCESS / FAIL / CANCEL / CLOSE */
  'pos-order-settled': [order: SandboxPosOrder];
  /** the provider changed its mind about a settled order (a payment taken after it was closed, or a paid order reported otherwise) */
  'pos-order-late': [order: SandboxPosOrder, was: PosOrderStatus];
  /** every bulk-bills item that was recorded, refused ones too */
  'topup-created': [topup: SandboxTopup];
  /** accepted items reaching SUCCESS / FAIL */
  'topup-settled': [topup: SandboxTopup];
  /** every POS webhook / bills callback attempt */
  'webhook-attempt': [attempt: WebhookAttempt];
  /** an attempt the receiver accepted */
  'webhook-delivered': [attempt: WebhookAttempt];
  /** the last retry of a delivery failed */
  'webhook-gave-up': [attempt: WebhookAttempt];
  /** a fault was injected */
  fault: [fault: { path: string; kind: FaultKind }];
}
export type SandboxEvents = EventEmitter<SandboxEventMap>;
