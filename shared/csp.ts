// The renderer's Content Security Policy, one string for the page's meta tag, the browser shell's
// header and the Electron window's header. Images come only from the app (and data: URLs, which
// the receipt's QR code uses): an https: source would let injected markup call out to any site.
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
