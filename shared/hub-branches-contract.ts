// Branch names: head office gives each branch (the merchant id its counters joined with) a name
// people read, shown on the dashboard instead of the raw id. A branch manager reads their own only.
import { z } from 'zod';

export const DASH_BRANCHES_PATH = '/api/v1/dashboard/branches';

/** A name as people read it: 1 to 60 characters, no control characters, trimmed. Stored and shown as text. */
export const BranchNameSchema = z
  .string()
  .trim()
  .min(1, 'type a name for the branch')
  .max(60, 'at most 60 characters')
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'no line breaks or control characters');

export const BranchIdParamSchema = z.object({ branch: z.string().min(1).max(100) }).strict();
export const PutBranchNameRequestSchema = z.object({ name: BranchNameSchema }).strict();

const BranchViewSchema = z.object({ branch: z.string(), name: z.string().nullable() });
export const BranchesViewSchema = z.object({ branches: z.array(BranchViewSchema) });
export type BranchView = z.infer<typeof BranchViewSchema>;
export type BranchesView = z.infer<typeof BranchesViewSchema>;

/** What people read for a branch: its name, or "Branch <id>" until head office names it. */
export function branchLabel(branch: string, names: ReadonlyMap<string, string>): string {
  return names.get(branch) ?? `Branch ${branch}`;
}
