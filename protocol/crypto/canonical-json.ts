// Canonical JSON as the provider signs it: keys sorted (recursively by default, objects inside
// arrays too), arrays in order, compact. The signed bytes are exactly the bytes sent.

type JsonEscaping = 'plain' | 'escape-slash-and-non-ascii';

interface CanonicalOptions {
  recursive?: boolean;
  escaping?: JsonEscaping;
}

function sortValue(value: unknown, recursive: boolean, depth: number): unknown {
  if (Array.isArray(value))
    return recursive || depth === 0 ? value.map((v) => sortValue(v, recursive, depth + 1)) : value;
  if (value !== null && typeof value === 'object') {
    if (!recursive && depth > 0) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      out[key] = sortValue(v, recursive, depth + 1);
    }
    return out;
  }
  return value;
}

export function canonicalJson(value: unknown, options: CanonicalOptions = {}): string {
  const text = JSON.stringify(sortValue(value, options.recursive ?? true, 0));
  if (options.escaping === 'escape-slash-and-non-ascii') {
    return text
      .replace(/\//g, '\\/')
      .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  return text;
}
