// The compiler enforces the rooms' runtimes, as lint does (tsconfig.base.json lists the configs): the
// browser side (renderer/, hub/dashboard/src/) has the DOM and no Node, the Node side (core/, protocol/,
// sandbox/, hub/, browser-shell/, electron/) has Node and no DOM, shared/ has neither, and the tests'
// config sees everything. Each area's real program (its own files, so also any types its packages
// pull in) is compiled with one more file that uses one global per line; the lines that fail to
// compile name the globals the area refuses.
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');

// DOM only: what a browser has and Node does not.
const DOM = ['window', 'document', 'location', 'requestAnimationFrame', 'HTMLElement'] as const;
// Web globals Node 22 has too (its types declare them): the browser and Node sides have them, shared/
// may not use them (lint rule 3), and its config refuses them.
const WEB = ['navigator', 'localStorage'] as const;
const NODE = ['process', 'Buffer', '__dirname', 'require', 'NodeJS.Timeout'] as const;
// What every runtime has: shared/ may use these (shared/runtime-globals.d.ts).
const BOTH = ['console', 'URL'] as const;
const USES: Record<(typeof DOM | typeof WEB | typeof NODE | typeof BOTH)[number], string> = {
  window: 'export const a0 = window.location.href;',
  document: 'export const a1 = document.title;',
  location: 'export const a2 = location.pathname;',
  requestAnimationFrame: 'export const a3 = requestAnimationFrame;',
  HTMLElement: 'export type A4 = HTMLElement;',
  navigator: 'export const a5 = navigator.language;',
  localStorage: 'export const a6 = localStorage.length;',
  process: 'export const a7 = process.env;',
  Buffer: "export const a8 = Buffer.from('x');",
  __dirname: 'export const a9 = __dirname;',
  require: "export const a10 = require('x');",
  'NodeJS.Timeout': 'export type A11 = NodeJS.Timeout;',
  console: "export const a12 = () => console.error('x');",
  URL: "export const a13 = new URL('https://hub.example.ng').hostname;",
};
const NAMES = [...DOM, ...WEB, ...NODE, ...BOTH];

function parse(config: string): ts.ParsedCommandLine {
  const cmd = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, config),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!cmd) throw new Error(`${config} did not parse`);
  expect(cmd.errors).toEqual([]);
  expect(cmd.fileNames.length).toBeGreaterThan(0);
  return cmd;
}

/** The globals among NAMES that fail to compile in the area of `config`, its sources in the program (unless told not). */
function refused(config: string, folder: string, withSources = true): string[] {
  const cmd = parse(config);
  const fixture = resolve(ROOT, folder, '__globals_fixture__.ts');
  const text = NAMES.map((n) => USES[n]).join('\n') + '\n';
  const options = { ...cmd.options, incremental: false, tsBuildInfoFile: undefined };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, lang, ...rest) =>
    fileName === fixture ? ts.createSourceFile(fileName, text, lang) : getSourceFile(fileName, lang, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => f === fixture || fileExists(f);
  const program = ts.createProgram({ rootNames: withSources ? [...cmd.fileNames, fixture] : [fixture], options, host });
  const sf = program.getSourceFile(fixture)!;
  const failing = new Set<string>();
  for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
    const { line } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
    failing.add(NAMES[line]!);
  }
  return NAMES.filter((n) => failing.has(n));
}

// Each program parses an area's sources: seconds, more on a loaded machine.
describe('tsconfig per area', { timeout: 120_000 }, () => {
  it('the browser side (renderer/, hub/dashboard/src/) refuses Node globals and has the DOM', () => {
    expect(refused('tsconfig.browser.json', 'renderer/src')).toEqual([...NODE]);
  });

  it('the Node side (core/, protocol/, sandbox/, hub/, browser-shell/, electron/) refuses DOM globals and has Node', () => {
    expect(refused('tsconfig.node.json', 'core')).toEqual([...DOM]);
  });

  it('shared/ refuses both and has only what both have (console, URL)', () => {
    expect(refused('tsconfig.shared.json', 'shared')).toEqual([...DOM, ...WEB, ...NODE]);
  });

  it("the tests' config sees everything", () => {
    // Its lib and types alone say so (it holds every file of the repository: seconds more to parse).
    expect(refused('tsconfig.json', 'test/unit', false)).toEqual([]);
  });

  it('every source file is in exactly one area, the one its folder runs in', () => {
    const areas: Record<string, string[]> = {
      'tsconfig.browser.json': ['renderer/', 'hub/dashboard/src/'],
      'tsconfig.node.json': ['core/', 'protocol/', 'sandbox/', 'hub/', 'browser-shell/', 'electron/'],
      'tsconfig.shared.json': ['shared/'],
    };
    const areaOf = (file: string) => {
      // The longest matching folder wins: hub/dashboard/src/ is the browser's, the rest of hub/ the server's.
      const hits = Object.entries(areas).flatMap(([c, folders]) =>
        folders.filter((f) => file.startsWith(f)).map((f) => [c, f] as const),
      );
      return hits.sort((a, b) => b[1].length - a[1].length)[0]?.[0];
    };
    const inArea = new Map<string, string[]>();
    for (const config of Object.keys(areas)) {
      for (const f of parse(config).fileNames) {
        const rel = relative(ROOT, f).split(sep).join('/');
        inArea.set(rel, [...(inArea.get(rel) ?? []), config]);
      }
    }
    const wrong: string[] = [];
    for (const f of parse('tsconfig.json').fileNames) {
      const rel = relative(ROOT, f).split(sep).join('/');
      const want = areaOf(rel);
      if (!want || rel.startsWith('hub/dashboard/vite.config')) continue; // tests, scripts, build configs
      if ((inArea.get(rel) ?? []).join() !== want)
        wrong.push(`${rel}: in ${(inArea.get(rel) ?? ['no area']).join(', ')}, not ${want}`);
    }
    expect(wrong).toEqual([]);
    expect(inArea.size).toBeGreaterThan(300);
  });

  it('npm run typecheck runs every config', () => {
    const script: string = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).scripts.typecheck;
    for (const c of ['tsconfig.shared.json', 'tsconfig.browser.json', 'tsconfig.node.json', 'tsconfig.json'])
      expect(script).toContain(`-p ${c}`);
  });
});
