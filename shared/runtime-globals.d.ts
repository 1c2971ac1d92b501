// The globals every process provides, the renderer's browser and Node alike: all that shared/ may use
// beyond the language itself. Only tsconfig.shared.json reads this file (the other configs get the
// same names, fuller, from the DOM or Node types), so a DOM or Node global in shared/ fails to compile.

interface Console {
  log(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
}
declare const console: Console;

/** The WHATWG URL, as both the browser and Node have it. */
interface URL {
  hash: string;
  host: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  username: string;
  toString(): string;
}
declare const URL: {
  prototype: URL;
  new (url: string | URL, base?: string | URL): URL;
};
