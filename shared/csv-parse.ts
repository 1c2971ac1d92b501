// CSV as RFC 4180 writes it (quotes with "" inside, CRLF or LF, a UTF-8 BOM from spreadsheets),
// read into records that remember the line they start on, and written back for exports.

export interface CsvRecord {
  /** 1-based line of the file where the record starts. */
  line: number;
  fields: string[];
}

interface CsvSyntaxError {
  line: number;
  message: string;
}

interface CsvParseResult {
  records: CsvRecord[];
  /** Records with a quoting problem are left out and reported here. */
  errors: CsvSyntaxError[];
  /** The file could not be read past a point (an unclosed quote): nothing after it is trusted. */
  fatal: boolean;
}

/** Parses the whole text. Blank lines are skipped. `maxRecords` stops early (the rest is counted, not kept). */
export function parseCsv(text: string, opts: { maxRecords?: number } = {}): CsvParseResult & { recordCount: number } {
  const records: CsvRecord[] = [];
  const errors: CsvSyntaxError[] = [];
  const max = opts.maxRecords ?? Infinity;
  let recordCount = 0;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  let line = 1;

  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    let bad: string | null = null;
    // One record.
    for (;;) {
      let value = '';
      if (text[i] === '"') {
        i++;
        let closed = false;
        while (i < n) {
          const c = text[i];
          if (c === '"') {
            if (text[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (c === '\n') line++;
          else if (c === '\r' && text[i + 1] !== '\n') line++;
          // Copy a run of ordinary characters at once (large files).
          let j = i + 1;
          while (j < n && text[j] !== '"' && text[j] !== '\n' && text[j] !== '\r') j++;
          value += text.slice(i, j);
          i = j;
        }
        if (!closed) {
          errors.push({
            line: startLine,
            message: 'A quoted value is not closed: a " is missing, so the rest of the file cannot be read',
          });
          return { records, errors, fatal: true, recordCount };
        }
        if (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') {
          bad ??=
            'A closing quote must be followed by a comma or the end of the line (write "" for a quote inside a value)';
          while (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') i++;
        }
      } else {
        let j = i;
        while (j < n && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
        value = text.slice(i, j);
        if (value.includes('"'))
          bad ??=
            'A quote appears inside a value that is not quoted: put the whole value in quotes and write "" for the quote';
        i = j;
      }
      fields.push(value);
      if (i < n && text[i] === ',') {
        i++;
        continue;
      }
      // End of record: CRLF, LF, a lone CR, or the end of the text.
      if (i < n && text[i] === '\r') i += text[i + 1] === '\n' ? 2 : 1;
      else if (i < n && text[i] === '\n') i++;
      line++;
      break;
    }
    const blank = fields.length === 1 && fields[0] === '';
    if (blank) continue;
    recordCount++;
    if (bad) {
      errors.push({ line: startLine, message: bad });
      continue;
    }
    if (records.length < max) records.push({ line: startLine, fields });
  }
  return { records, errors, fatal: false, recordCount };
}
