// What the CSV imports (Settings → Programme, Top-ups → Batch) share: the pick-a-file and
// template buttons over a hidden file input, and the table of problems by line and column.
import { useRef, type ReactNode } from 'react';
import type { RowError } from '../../../shared/topups';

export function CsvPicker(props: {
  pickLabel: string;
  /** The hidden input's accessible name. */
  fileLabel: string;
  primary: boolean;
  importing: boolean;
  onFile(f: File): void;
  onTemplate(): void;
  templateDisabled?: boolean;
  /** The file types offered (default CSV). */
  accept?: string;
  /** After the buttons, in the same row. */
  children?: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <div className="actions">
        <button
          type="button"
          className={props.primary ? 'primary' : undefined}
          onClick={() => input.current?.click()}
          disabled={props.importing}
        >
          {props.importing ? 'Checking the file…' : props.pickLabel}
        </button>
        <button type="button" onClick={props.onTemplate} disabled={props.templateDisabled}>
          Download the template
        </button>
        {props.children}
      </div>
      <input
        ref={input}
        type="file"
        accept={props.accept ?? '.csv,text/csv'}
        className="tu-file"
        aria-label={props.fileLabel}
        tabIndex={-1}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) props.onFile(f);
        }}
      />
    </>
  );
}

export function CsvErrorTable(props: { errors: RowError[]; className?: string; caption?: string }) {
  return (
    <table className={props.className ?? 'tu-table'}>
      {props.caption && <caption className="sr-only">{props.caption}</caption>}
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Column</th>
          <th scope="col">Problem</th>
        </tr>
      </thead>
      <tbody>
        {props.errors.map((e, i) => (
          <tr key={`${e.line}-${e.column}-${i}`}>
            <td className="tu-num">{e.line || '—'}</td>
            <td>{e.column || 'whole line'}</td>
            <td>{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
