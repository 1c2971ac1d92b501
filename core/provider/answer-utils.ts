// Small helpers for reading provider answers safely: JSON without throwing, short printable
// snippets of error bodies, and schema issues described without echoing values.
import type { z } from 'zod';

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A short, printable piece of an error body for engineers (never a request or a secret). */
export function snippet(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** Paths and messages of schema issues, no values. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}
