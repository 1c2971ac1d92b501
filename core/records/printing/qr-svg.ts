// The QR code of a receipt as an SVG (for HTML, PDF and the preview): black modules on white,
// drawn as one path so it scales to any size without blurring.
import QRCode from 'qrcode';

/** Quiet zone around the code, in modules; receipt paper is white around it anyway. */
const MARGIN = 2;

export function qrSvg(text: string): string {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const size = n + MARGIN * 2;
  let d = '';
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!modules.get(y, x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && modules.get(y, x)) x++;
      d += `M${start + MARGIN} ${y + MARGIN}h${x - start}v1h-${x - start}z`;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges" aria-hidden="true"><rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`;
}
