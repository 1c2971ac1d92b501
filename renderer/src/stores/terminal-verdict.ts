// The terminal in one state, one colour and one next step, wherever it is shown (the Terminal box
// on the Sell screen, the status bar): a port that is open but gave no serial number is not a
// "connected" terminal — nothing can be charged on it.
type TerminalTone = 'good' | 'warn' | 'bad' | 'info';

interface TerminalFacts {
  /** connected / connecting / disconnected / manual (the status bar says not-connected). */
  status: string;
  sn: string | null;
  portPath?: string | null;
}

interface TerminalVerdict {
  text: string;
  tone: TerminalTone;
  /** What to do now; null when the terminal is ready. */
  next: string | null;
}

export function terminalVerdict(t: TerminalFacts): TerminalVerdict {
  const notFound = t.portPath
    ? `Terminal not found on ${t.portPath}: check the cable, or type the SN from its label.`
    : 'No terminal yet: choose its serial port, or type the SN from its label.';
  if (t.sn && t.status === 'manual') return { text: 'SN typed by hand', tone: 'good', next: null };
  if (t.sn && t.status === 'connected') return { text: 'Connected', tone: 'good', next: null };
  if (t.status === 'connecting') return { text: 'Connecting…', tone: 'info', next: null };
  return { text: 'No terminal', tone: 'bad', next: notFound };
}
