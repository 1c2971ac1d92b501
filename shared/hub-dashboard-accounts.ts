// The manager's dashboard API of the Hub, its accounts and sessions: managers and their roles,
// login and setup, sessions, the audit log (the rest of the dashboard's API is
// hub-dashboard-contract.ts, which re-exports this file). Instants are epoch milliseconds.
import { z } from 'zod';
import { BranchId, Ms } from './hub-dashboard-fields';

const MANAGER_ROLES = ['branch', 'head-office'] as const;
const ManagerRoleSchema = z.enum(MANAGER_ROLES);
export type ManagerRole = z.infer<typeof ManagerRoleSchema>;

export const ManagerNameSchema = z
  .string()
  .trim()
  .min(2, 'a manager name has at least 2 characters')
  .max(60, 'at most 60 characters')
  .regex(/^[\p{L}\p{N} ._@-]+$/u, 'letters, digits, spaces and . _ @ - only');
export const PasswordSchema = z
  .string()
  .min(10, 'a password has at least 10 characters')
  .max(200, 'at most 200 characters');

export const ManagerViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: ManagerRoleSchema,
  /** The branch (the provider's merchantId) a branch manager sees; null for head office (every branch). */
  branch: z.string().nullable(),
  createdAt: Ms,
  /** A disabled manager cannot log in; head office enables them again. */
  disabled: z.boolean(),
});
export type ManagerView = z.infer<typeof ManagerViewSchema>;

export const LoginRequestSchema = z
  .object({ name: z.string().trim().min(1).max(60), password: z.string().min(1).max(200) })
  .strict();

/** First start: the one-time token printed by `npm run hub` (the part after `#setup=` of the setup link). */
export const SetupRequestSchema = z
  .object({
    token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'not a setup token'),
    name: ManagerNameSchema,
    password: PasswordSchema,
  })
  .strict();

/** Answer of login, setup and GET /session. The session id itself is only in the HttpOnly cookie. */
export const SessionViewSchema = z.object({
  manager: ManagerViewSchema,
  /** Send as the x-csrf-token header on every write. */
  csrfToken: z.string(),
  /** The session ends at the earlier of these: idle (renewed by use) and absolute. */
  idleExpiresAt: Ms,
  expiresAt: Ms,
});
export type SessionView = z.infer<typeof SessionViewSchema>;

export const CreateManagerRequestSchema = z
  .object({
    name: ManagerNameSchema,
    password: PasswordSchema,
    role: ManagerRoleSchema,
    branch: BranchId.nullable().default(null),
  })
  .strict()
  .refine((m) => (m.role === 'branch') === (m.branch !== null), {
    message: 'a branch manager needs a branch; head office has none',
    path: ['branch'],
  });
export type CreateManagerRequest = z.infer<typeof CreateManagerRequestSchema>;

/** Head office sets a new password for a manager (every session of theirs ends). */
export const ResetPasswordRequestSchema = z.object({ password: PasswordSchema }).strict();
/** A manager changes their own password: the current one is required; their other sessions end. */
export const ChangePasswordRequestSchema = z
  .object({ current: z.string().min(1).max(200), password: PasswordSchema })
  .strict();
export const ManagerIdParamSchema = z.object({ id: z.string().regex(/^mgr_[0-9a-f]{12}$/, 'not a manager id') });

/** One manager as head office's Managers screen lists them: their last login (time and address) and how many sessions they have open. */
const ManagerRosterEntrySchema = ManagerViewSchema.extend({
  lastLoginAt: Ms.nullable(),
  lastLoginAddress: z.string().nullable(),
  sessions: z.number().int().nonnegative(),
});
export type ManagerRosterEntry = z.infer<typeof ManagerRosterEntrySchema>;
export const ManagersListSchema = z.object({ managers: z.array(ManagerRosterEntrySchema) });

/** One open session of a manager. `ref` names it for ending it (a prefix of its stored hash: it opens nothing). */
const ManagerSessionSchema = z.object({
  ref: z.string(),
  createdAt: Ms,
  lastSeenAt: Ms,
  expiresAt: Ms,
  current: z.boolean(),
});
export type ManagerSession = z.infer<typeof ManagerSessionSchema>;
export const ManagerSessionsSchema = z.object({ sessions: z.array(ManagerSessionSchema) });
/** Ends one session (ref) or, without it, every session of the manager (the caller's own session is kept). */
export const EndSessionsRequestSchema = z
  .object({
    ref: z
      .string()
      .regex(/^[0-9a-f]{16}$/, 'not a session of this list')
      .optional(),
  })
  .strict();

/** @internal for tests */
export const AUDIT_ACTIONS = [
  'login',
  'login.failed',
  'setup',
  'manager.created',
  'manager.disabled',
  'manager.enabled',
  'manager.removed',
  'manager.password-reset',
  'manager.password-changed',
  'manager.sessions-ended',
  'counter.code-issued',
  'counter.revoked',
  'programme.imported',
  'programme.layout-uploaded',
  'programme.layout-removed',
  'programme.seats-released',
  'programme.catalogue-imported',
  'approval.code-issued',
  'approval.redeemed',
  'approval.refused',
] as const;
/** One manager action: who did what to which manager, counter or branch, from which address. */
export const AuditEntrySchema = z.object({
  id: z.number(),
  at: Ms,
  actorId: z.string().nullable(),
  actorName: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string().nullable(),
  address: z.string().nullable(),
  detail: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const LogoutResponseSchema = z.object({ sessionsEnded: z.number().int().nonnegative() });
