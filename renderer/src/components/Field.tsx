// A labelled form field with its error right next to it (and announced).
import { useId, type ReactNode } from 'react';

export function Field(props: {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const errId = `${id}-err`;
  const hintId = `${id}-hint`;
  const describedBy = [props.error ? errId : null, props.hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field" data-invalid={props.error ? 'true' : undefined}>
      <label htmlFor={id}>{props.label}</label>
      {props.children(id, describedBy)}
      {props.hint && (
        <div className="hint" id={hintId}>
          {props.hint}
        </div>
      )}
      {props.error && (
        <div className="field-error" id={errId} role="alert">
          {props.error}
        </div>
      )}
    </div>
  );
}
