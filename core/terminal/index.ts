// The terminal link's public face: the link itself and the serial-number line parser.
export { createTerminalLink } from './terminal-link';
export type { TerminalLink, TerminalLinkDeps } from './terminal-link';
export type { SerialPortClass, SerialPortLike, PortInfo } from './serial-port';
export { parseSnLine, classifySnLine, compileSnPattern, MAX_LINE_LENGTH } from './sn-parser';
export { createProfileTerminals } from './profile-terminals';
export { createTerminalModule } from './terminal-module';
