// A file picked in the dashboard and sent to the Hub as text (the programme CSV, a screen's layout):
// the file read (refused when too large, with the screen's own words), the send with its answer kept
// beside the file's name, the picker cleared when the Hub took the file, and the focus moved to the
// answer so a screen reader reads it.
import { useRef, useState } from 'react';
import { errorText } from '../api';

export interface PickedFile {
  name: string;
  text: string;
}

export function useFileSend<R>(o: {
  /** The most a file may weigh as text; read only when under four times that in bytes. */
  maxChars: number;
  tooLarge: (name: string) => string;
  send: (file: PickedFile) => Promise<R>;
  /** The Hub took the file (the picker is cleared); false: its answer says what to fix. */
  taken: (r: R) => boolean;
}) {
  const [file, setFile] = useState<PickedFile | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ r: R; fileName: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const out = useRef<HTMLDivElement>(null);
  const picker = useRef<HTMLInputElement>(null);

  const choose = async (f: File | undefined) => {
    setResult(null);
    setProblem(null);
    setFile(null);
    if (!f) return;
    if (f.size > o.maxChars * 4) {
      setProblem(o.tooLarge(f.name));
      return;
    }
    try {
      setFile({ name: f.name, text: await f.text() });
    } catch (e) {
      setProblem(`${f.name} could not be read: ${errorText(e)}`);
    }
  };
  const send = async () => {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const r = await o.send(file);
      setResult({ r, fileName: file.name });
      if (o.taken(r)) {
        setFile(null);
        if (picker.current) picker.current.value = '';
      }
    } catch (e) {
      setProblem(errorText(e));
    } finally {
      setBusy(false);
      requestAnimationFrame(() => out.current?.focus());
    }
  };
  return { file, busy, result, problem, choose, send, out, picker };
}
