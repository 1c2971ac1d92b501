// What every cancel and exchange asks for (docs/refunds.md): the reason from the short list and a
// note, the supervisor's approval (the admin PIN, or a manager's one-time approval code from the
// Hub) and the cashier's name. Each engine message shows at its field.
import { UNDO_REASONS, UNDO_REASON_LABELS, type Approval, type UndoReason } from '../../../../shared/refunds';
import { Field } from '../../components/Field';
import type { UndoField } from '../../stores/refunds-store';

export interface UndoFieldsValue {
  reason: UndoReason | '';
  note: string;
  approvalHow: 'pin' | 'code';
  approval: string;
  cashier: string;
}

export function emptyUndoFields(cashier: string): UndoFieldsValue {
  return { reason: '', note: '', approvalHow: 'pin', approval: '', cashier };
}

/** The request's shared part, as typed: the engine checks it and names each mistake at its field. */
export function undoRequestPart(v: UndoFieldsValue) {
  const approval: Approval = v.approvalHow === 'pin' ? { pin: v.approval } : { code: v.approval };
  return {
    // Left empty, the engine names it at its field ("Choose a reason from the list").
    reason: v.reason as UndoReason,
    note: v.note,
    approval,
    cashier: v.cashier,
  };
}

export function UndoFields({
  value,
  onChange,
  errors,
  idPrefix,
}: {
  value: UndoFieldsValue;
  onChange: (patch: Partial<UndoFieldsValue>, field: UndoField) => void;
  errors: Partial<Record<UndoField, string>>;
  idPrefix: string;
}) {
  return (
    <div className="undo-fields">
      <Field label="Reason" error={errors.reason}>
        {(id, d) => (
          <select
            id={id}
            aria-describedby={d}
            aria-invalid={!!errors.reason}
            value={value.reason}
            data-testid={`${idPrefix}-reason`}
            onChange={(e) => onChange({ reason: e.target.value as UndoReason }, 'reason')}
          >
            <option value="">Choose…</option>
            {UNDO_REASONS.map((r) => (
              <option key={r} value={r}>
                {UNDO_REASON_LABELS[r]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={value.reason === 'other' ? 'Note (say what)' : 'Note (optional)'} error={errors.note}>
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={!!errors.note}
            maxLength={200}
            value={value.note}
            data-testid={`${idPrefix}-note`}
            onChange={(e) => onChange({ note: e.target.value }, 'note')}
          />
        )}
      </Field>
      <fieldset className="undo-approval" aria-invalid={!!errors.approval}>
        <legend>Supervisor’s approval</legend>
        <label>
          <input
            type="radio"
            name={`${idPrefix}-approval-how`}
            checked={value.approvalHow === 'pin'}
            onChange={() => onChange({ approvalHow: 'pin', approval: '' }, 'approval')}
          />{' '}
          Admin PIN
        </label>
        <label>
          <input
            type="radio"
            name={`${idPrefix}-approval-how`}
            checked={value.approvalHow === 'code'}
            onChange={() => onChange({ approvalHow: 'code', approval: '' }, 'approval')}
          />{' '}
          Code from the Hub
        </label>
        <Field
          label={value.approvalHow === 'pin' ? 'Admin PIN' : 'Approval code (like ABCD-2345)'}
          error={errors.approval}
        >
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              aria-invalid={!!errors.approval}
              type={value.approvalHow === 'pin' ? 'password' : 'text'}
              inputMode={value.approvalHow === 'pin' ? 'numeric' : 'text'}
              autoComplete="off"
              maxLength={64}
              value={value.approval}
              data-testid={`${idPrefix}-approval`}
              onChange={(e) => onChange({ approval: e.target.value }, 'approval')}
            />
          )}
        </Field>
      </fieldset>
      <Field label="Your name" error={errors.cashier}>
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={!!errors.cashier}
            maxLength={80}
            value={value.cashier}
            data-testid={`${idPrefix}-cashier`}
            onChange={(e) => onChange({ cashier: e.target.value }, 'cashier')}
          />
        )}
      </Field>
    </div>
  );
}
