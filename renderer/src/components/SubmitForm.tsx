// A form that validates in our code, not the browser's (noValidate), and hands Enter/submit to one
// action: so field errors are ours, in our words, next to the field.
import type { FormHTMLAttributes } from 'react';

type Props = Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'noValidate'> & { onSubmit: () => void };

export function SubmitForm({ onSubmit, children, ...rest }: Props) {
  return (
    <form
      {...rest}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
