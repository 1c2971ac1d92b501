// A password head office hands over (a new account's first one, or after a reset): shown once, with
// Copy and a button to hide it once passed on. Never stored: a reload shows it no more.
import { useState } from 'react';

export function OneTimePassword({ name, password, onHide }: { name: string; password: string; onHide: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="code-box otp" role="status" data-testid="one-time-password">
      <span>
        <strong>New password for {name}</strong> (shown only now):
      </span>
      <output className="code" aria-label={`New password for ${name}`}>
        {password}
      </output>
      <span className="hint">
        Give it to {name} in person or by phone, not by e-mail. They log in with it, then choose their own under the
        account menu → Change my password.
      </span>
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard?.writeText(password).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={onHide}>
          I have passed it on: hide it
        </button>
      </div>
    </div>
  );
}
