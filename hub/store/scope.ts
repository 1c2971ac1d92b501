// What a manager may see, enforced in one place: every dashboard query builds its WHERE clause with
// a `Where` made from the session's scope, so a branch manager's queries always carry
// `branch = <their branch>` whatever ids or filters the request names. A branch filter from the
// request narrows further (and, for a branch manager naming another branch, finds nothing).
import type { ManagerView } from '../../shared/hub-dashboard-contract';
import type { SqlRunner } from '../db/adapter';

export type Scope = { readonly kind: 'all' } | { readonly kind: 'branch'; readonly branch: string };

export const scopeOf = (m: Pick<ManagerView, 'role' | 'branch'>): Scope =>
  m.role === 'head-office' ? { kind: 'all' } : { kind: 'branch', branch: m.branch ?? '\u0000no branch' };

export class Where {
  readonly params: unknown[];
  private readonly parts: string[] = [];

  /** `branchColumn` is the branch column of the main table (e.g. `o.branch`); `firstParam` the number of parameters already used. */
  constructor(scope: Scope, branchColumn: string, branchFilter?: string | null, params: unknown[] = []) {
    this.params = [...params];
    if (scope.kind === 'branch') this.and(`${branchColumn} = ${this.p(scope.branch)}`);
    if (branchFilter) this.and(`${branchColumn} = ${this.p(branchFilter)}`);
  }

  /** Adds a parameter; returns its placeholder. */
  p(v: unknown): string {
    this.params.push(v);
    return `$${this.params.length}`;
  }

  and(cond: string): this {
    this.parts.push(`(${cond})`);
    return this;
  }

  sql(): string {
    return this.parts.length ? `where ${this.parts.join(' and ')}` : '';
  }
}

/** The same rule as `Where` for one row already read (the live feed reads once for every stream, then filters per stream). */
export const inScope = (scope: Scope, branchFilter: string | null | undefined, rowBranch: string): boolean =>
  (scope.kind === 'all' || rowBranch === scope.branch) && (!branchFilter || rowBranch === branchFilter);

/** A counter of the session's scope, by id (null: none, or another branch's). */
export async function counterInScope(
  q: SqlRunner,
  scope: Scope,
  id: string,
): Promise<{ id: string; branch: string } | null> {
  const w = new Where(scope, 'c.branch');
  w.and(`c.id = ${w.p(id)}`);
  const r = (
    await q.query<{ id: unknown; branch: unknown }>(`select c.id, c.branch from counters c ${w.sql()}`, w.params)
  )[0];
  return r ? { id: String(r.id), branch: String(r.branch) } : null;
}
