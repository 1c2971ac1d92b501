// Counter codes are unique among live counters: a code (shared/counter-code.ts, "Counter 1" ->
// COU1) starts every sale number and top-up reference its counter makes, and the Hub tells whose
// an order is by it. Two live counters with one code would make the same references: the second's
// orders would not be claimed and their notifications would go to the first. So enrollment
// refuses a name whose code a live (not revoked) counter already has, and says what to fix.
import { counterCode } from '../../shared/counter-code';
import type { SqlRunner } from '../db/adapter';
import { fail } from '../errors';

/** Enrollments check and insert under this lock: two counters racing with one code, only one gets it. */
const ENROLL_LOCK_KEY = 726_412_002; // any constant other than the migration lock's

interface LiveCounter {
  name: string;
  branch: string;
  branchName: string | null;
}

/**
 * A name for this counter whose code is free: the branch's first word before it ("Ikeja Counter 1"), else another number.
 * @internal for tests
 */
export function suggestName(name: string, branchName: string | null, taken: Set<string>): string | null {
  const word = branchName
    ?.normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .match(/[A-Za-z]+/)?.[0];
  const candidates = word ? [`${word} ${name}`] : [];
  const base = name.replace(/\d+/g, '').trim() || 'Counter';
  for (let n = 2; n < 100; n++) candidates.push(`${base} ${n}`);
  return candidates.find((c) => !taken.has(counterCode(c))) ?? null;
}

/** Throws HUB_COUNTER_CODE_TAKEN (409) when a live counter's name gives the same code as `name`. */
export async function checkCodeFree(q: SqlRunner, name: string, branch: string): Promise<void> {
  await q.query('select pg_advisory_xact_lock($1)', [ENROLL_LOCK_KEY]);
  const code = counterCode(name);
  const live = await q.query<LiveCounter>(
    `select c.name, c.branch, n.name as "branchName" from counters c left join branch_names n on n.branch = c.branch
      where c.revoked_at is null order by c.enrolled_at, c.id`,
  );
  const holder = live.find((c) => counterCode(c.name) === code);
  if (!holder) return;
  const ours = await q.query<{ name: string }>('select name from branch_names where branch = $1', [branch]);
  const suggestion = suggestName(name, ours[0]?.name ?? null, new Set(live.map((c) => counterCode(c.name))));
  const where = holder.branchName ? `${holder.branchName}, ${holder.branch}` : holder.branch;
  const eg = suggestion ? `, e.g. "${suggestion}" (code ${counterCode(suggestion)})` : '';
  throw fail(
    'HUB_COUNTER_CODE_TAKEN',
    409,
    `The code ${code} is taken by "${holder.name}" (branch ${where}): choose a name that gives another code${eg}, or revoke the old counter on the Counters screen first.`,
    { counterCode: code, takenBy: { name: holder.name, branch: holder.branch }, suggestion },
  );
}
