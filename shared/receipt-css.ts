// The receipt's paper layout, written once for every HTML output: the printed page (Electron, PDF)
// embeds it, and the renderer's build turns it into a style sheet (scripts/receipt-css-plugin.ts),
// because the window's content security policy allows no inline styles.
// Widths are the printable area: 48 mm of a 58 mm roll, 72 mm of an 80 mm roll.

export const RECEIPT_CSS = `.rp { box-sizing: border-box; background: #fff; color: #000; font-family: 'DejaVu Sans', Arial, Helvetica, sans-serif; font-size: 9pt; line-height: 1.3; padding: 2mm 0 4mm; margin: 0 auto; }
.rp[data-paper='80'] { width: 72mm; }
.rp[data-paper='58'] { width: 48mm; font-size: 7.5pt; }
.rp p { margin: 0; overflow-wrap: anywhere; }
.rp-title { text-align: center; font-weight: 800; font-size: 1.6em; line-height: 1.15; margin-bottom: 0.5mm !important; }
.rp-center { text-align: center; }
.rp-bold { font-weight: 800; }
.rp-banner { text-align: center; font-weight: 900; font-size: 2em; line-height: 1.1; letter-spacing: 0.03em; background: #000; color: #fff; border: 0.8mm solid #000; padding: 1mm 0.5mm; margin: 1.5mm 0 !important; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
.rp-mark { text-align: center; font-weight: 800; font-size: 1.25em; letter-spacing: 0.15em; background: #000; color: #fff; padding: 0.6mm 0; margin: 1.5mm 0 !important; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
.rp-rule { border: 0; border-top: 0.3mm dashed #000; margin: 1.5mm 0; }
.rp-rule.rp-double { border-top: 0.8mm double #000; }
.rp-pair { display: flex; justify-content: space-between; align-items: baseline; gap: 2mm; }
.rp-label { flex: 0 0 auto; max-width: 62%; }
.rp-value { flex: 1 1 0; min-width: 0; text-align: right; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }
.rp-total { font-weight: 800; font-size: 1.35em; margin: 1mm 0; }
.rp-total .rp-label { flex: 1 1 auto; max-width: none; }
.rp-total .rp-value { flex: 0 0 auto; white-space: nowrap; }
.rp-heading { font-weight: 800; margin-top: 1.5mm !important; }
.rp-qr { text-align: center; margin: 2mm 0 1mm; }
.rp-qr svg { width: 26mm; height: 26mm; display: block; margin: 0 auto; }
.rp[data-paper='58'] .rp-qr svg { width: 22mm; height: 22mm; }
.rp-caption { font-size: 0.9em; letter-spacing: 0.05em; }
.rp-small { text-align: center; font-size: 0.85em; margin-top: 1mm !important; }
.rp-big { font-weight: 900; font-size: 2em; line-height: 1.15; margin: 1mm 0 !important; }
.rp-sub { padding-left: 3mm; }
.rp-sub.rp-large { font-weight: 800; font-size: 1.4em; }
.rp + .rp { break-before: page; }`;
