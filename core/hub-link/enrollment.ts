// Joining a Hub with a one-time code and leaving it. A join is asked of the Hub first; only its
// answer is kept (credential, then settings), and the links restart from the outbox's first event.
import { AppError } from '../../shared/errors';
import { EnrollResponseSchema } from '../../shared/hub-contract';
import type { HubLinkView } from '../../shared/hub-link';
import { PROFILE_LABELS } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { SettingsService } from '../settings';
import type { EnrollmentStore } from './enrollment-store';
import { HubCallError, type HubClient } from './link-client';
import type { LinkRunner } from './link-runner';
import type { LinkStatus } from './link-status';
import type { RelayConsumer } from './relay-consumer';
import type { SyncPusher } from './sync-pusher';

const ENROLL_TIMEOUT_MS = 15_000;

/** What the cashier is told when the Hub refuses or cannot be asked to enroll. */
function enrollRefusal(e: unknown, url: string, profileTab = 'Edit profile'): unknown {
  if (!(e instanceof HubCallError)) return e;
  switch (e.code) {
    case 'HUB_UNREACHABLE':
      return new AppError(
        'HUB_UNREACHABLE',
        `No Hub answered at ${url}. Check the address, that the Hub is running, and that this PC is on the network; then try again.`,
        { reason: e.message },
      );
    case 'HUB_BAD_ANSWER':
    case 'HUB_NOT_FOUND':
      return new AppError(
        'HUB_NOT_A_HUB',
        `${url} answered, but it is not a CounterPay Hub. Check the address: the Hub prints it when it starts.`,
        {
          fields: { hubUrl: 'This address is not a CounterPay Hub' },
          reason: e.message,
        },
      );
    case 'HUB_ENROLL_CODE_INVALID':
      // A code names the branch it enrolls a counter of: this counter's merchant id is another.
      if (typeof e.details.codeBranch === 'string') {
        const ours = typeof e.details.branch === 'string' ? e.details.branch : 'another';
        return new AppError(
          'HUB_CODE_INVALID',
          `This code is for branch ${e.details.codeBranch}, but this counter's merchant id is ${ours}. Check the merchant id in Settings, or ask the manager for a code for this branch.`,
          {
            fields: { code: `For branch ${e.details.codeBranch}: ask for a code for this counter's branch` },
          },
        );
      }
      return new AppError(
        'HUB_CODE_INVALID',
        'The Hub does not accept this code: it is unknown, already used or expired. Ask the manager for a new code.',
        {
          fields: { code: 'Unknown, already used or expired: ask the manager for a new code' },
        },
      );
    case 'HUB_COUNTER_CODE_TAKEN': {
      // The Hub's message (shown next to the name) names the counter that has the code and a free name.
      const code = typeof e.details.counterCode === 'string' ? ` (${e.details.counterCode})` : '';
      return new AppError(
        'HUB_NAME_TAKEN',
        `This counter's name gives the same code${code} as another counter's on the Hub: change its name in Settings → ${profileTab} → Counter name, then join again.`,
        {
          fields: { counterName: e.message },
          hubCode: e.code,
        },
      );
    }
    case 'HUB_RATE_LIMITED':
      return new AppError(
        'HUB_REFUSED',
        'The Hub is getting too many requests from this PC. Wait a minute, then try again.',
      );
    default:
      return new AppError('HUB_REFUSED', `The Hub refused to enroll this counter: ${e.message}`, { hubCode: e.code });
  }
}

interface EnrollmentDeps {
  version: string;
  enrollment: EnrollmentStore;
  settings: Pick<SettingsService, 'activeProfile' | 'profile'>;
  client: HubClient;
  clock: Clock;
  logger: Logger;
  runner: Pick<LinkRunner, 'newQuestion' | 'forgetCheck' | 'start' | 'stop' | 'scheduleCheck'>;
  pusher: Pick<SyncPusher, 'reset'>;
  relay: Pick<RelayConsumer, 'reset'>;
  status: Pick<LinkStatus, 'changed' | 'view'>;
}

export class Enrollment {
  /** A join is being asked of the Hub: a second one waits for its answer. */
  private joining = false;

  constructor(private readonly deps: EnrollmentDeps) {}

  async join(a: { hubUrl: string; code: string }): Promise<HubLinkView> {
    const { enrollment, settings, client, clock, logger, runner, status } = this.deps;
    const current = enrollment.saved();
    if (current && current.revokedAt === null) {
      throw new AppError(
        'CONFLICT',
        `This counter is already joined to the Hub at ${current.url}. Leave that Hub first, then join again.`,
      );
    }
    if (this.joining) throw new AppError('CONFLICT', 'This counter is already joining a Hub; wait for the answer.');
    const profile = settings.activeProfile();
    const p = settings.profile(profile);
    if (!p.merchantId) {
      throw new AppError(
        'NOT_READY',
        `Set the merchant ID of the ${PROFILE_LABELS[profile]} profile first (Settings → Edit ${PROFILE_LABELS[profile]}): the Hub files this counter under that branch.`,
      );
    }
    this.joining = true;
    try {
      let r;
      try {
        r = await client.callAnonymous(
          a.hubUrl,
          'POST',
          '/enroll',
          { code: a.code, counterName: p.counterName, branch: p.merchantId, appVersion: this.deps.version },
          EnrollResponseSchema,
          { timeoutMs: ENROLL_TIMEOUT_MS },
        );
      } catch (e) {
        logger.warn('hub: enrollment refused', {
          hub: a.hubUrl,
          code: e instanceof HubCallError ? e.code : 'INTERNAL',
        });
        throw enrollRefusal(e, a.hubUrl, `Edit ${PROFILE_LABELS[profile]}`);
      }
      runner.newQuestion();
      await runner.stop();
      enrollment.enrolled(
        {
          url: a.hubUrl,
          counterId: r.counterId,
          branch: r.branch,
          counterName: p.counterName,
          enrolledAt: clock.now(),
          revokedAt: null,
          revokedWhy: null,
        },
        r.credential,
      );
      // A new Hub holds nothing of this counter yet: the outbox goes again from its first event.
      this.resetLinks();
      runner.forgetCheck();
      logger.info('hub: counter enrolled', { hub: a.hubUrl, counterId: r.counterId, branch: r.branch });
      await runner.start();
      runner.scheduleCheck();
      status.changed();
      return status.view();
    } finally {
      this.joining = false;
    }
  }

  async leave(): Promise<HubLinkView> {
    const { enrollment, logger, runner, status } = this.deps;
    const s = enrollment.saved();
    if (!s) return status.view();
    runner.newQuestion();
    await runner.stop();
    this.resetLinks();
    enrollment.forget();
    runner.forgetCheck();
    logger.info('hub: left the Hub; the outbox is kept', { hub: s.url, counterId: s.counterId });
    status.changed();
    return status.view();
  }

  private resetLinks(): void {
    this.deps.pusher.reset();
    this.deps.relay.reset();
  }
}
