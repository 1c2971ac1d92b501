// Which page may call main over IPC: only a file inside the built renderer folder. The prefix must
// end with "/": "file:///…/out/renderer" alone would also accept "file:///…/out/renderer-evil/".
import { pathToFileURL } from 'node:url';

/** The file: URL of the renderer folder, always with its trailing slash. */
export function rendererUrlPrefix(rendererDir: string): string {
  const href = pathToFileURL(rendererDir).href;
  return href.endsWith('/') ? href : `${href}/`;
}

export function isRendererUrl(url: string, prefix: string): boolean {
  if (!prefix.endsWith('/')) throw new Error('the renderer URL prefix must end with / (a folder, not a name prefix)');
  return url.startsWith(prefix);
}
