// Offers text to the cashier as a file download: a Blob behind a temporary <a download>. The
// page, not main, saves it (in the browser shell main cannot reach the cashier's folders).

type DownloadType = 'text/csv' | 'application/json';

export function downloadText(fileName: string, text: string, type: DownloadType): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has its own copy of the bytes once it started; the URL is only freed later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
