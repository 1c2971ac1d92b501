// The HTML output of a print document: a fragment for the preview and the browser's print, and a
// whole page (with its style sheet) for Electron's system printing and PDF.
import type { PaperWidth } from '../../../shared/records';
import type { Block, PrintDoc } from './print-doc';
import { qrSvg } from './qr-svg';
import { RECEIPT_CSS } from '../../../shared/receipt-css';

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function block(b: Block): string {
  const e = escapeHtml;
  switch (b.t) {
    case 'title':
      return `<p class="rp-title">${e(b.text)}</p>`;
    case 'center':
      return `<p class="rp-center${b.bold ? ' rp-bold' : ''}">${e(b.text)}</p>`;
    case 'mark':
      return `<p class="rp-mark">${e(b.text)}</p>`;
    case 'banner':
      return `<p class="rp-banner" role="alert">${e(b.text)}</p>`;
    case 'rule':
      return `<hr class="rp-rule${b.double ? ' rp-double' : ''}">`;
    case 'pair':
      return `<div class="rp-pair${b.bold ? ' rp-bold' : ''}"><span class="rp-label">${e(b.label)}</span><span class="rp-value">${e(b.value)}</span></div>`;
    case 'total':
      return `<div class="rp-pair rp-total"><span class="rp-label">${e(b.label)}</span><span class="rp-value">${e(b.value)}</span></div>`;
    case 'heading':
      return `<p class="rp-heading">${e(b.text)}</p>`;
    case 'text':
      return `<p class="rp-text${b.bold ? ' rp-bold' : ''}">${e(b.text)}</p>`;
    case 'qr':
      return `<div class="rp-qr" role="img" aria-label="QR code of ${e(b.data)}">${qrSvg(b.data)}${b.caption ? `<p class="rp-caption">${e(b.caption)}</p>` : ''}</div>`;
    case 'small':
      return `<p class="rp-small">${e(b.text)}</p>`;
    case 'big':
      return `<p class="rp-big${b.center ? ' rp-center' : ''}">${e(b.text)}</p>`;
    case 'sub':
      return `<p class="rp-sub${b.large ? ' rp-large' : ''}">${e(b.text)}</p>`;
  }
}

/** The document's body: class names only, every text escaped, no scripts and no inline styles. */
export function htmlFragmentOf(doc: PrintDoc, paper: PaperWidth): string {
  return `<div class="rp" data-paper="${paper}">${doc.blocks.map(block).join('')}</div>`;
}

/** A whole page to print or save as PDF: the fragment, its style sheet, the paper size. */
export function htmlDocumentOf(doc: PrintDoc, paper: PaperWidth): string {
  return [
    '<!doctype html><html lang="en-NG"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${RECEIPT_CSS}\n@page { size: ${paper}mm 297mm; margin: 0; }\nhtml, body { margin: 0; background: #fff; }</style>`,
    `</head><body>${htmlFragmentOf(doc, paper)}</body></html>`,
  ].join('');
}
