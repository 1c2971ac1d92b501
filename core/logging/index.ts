// The logging module's public face: what other modules may import.
export { type LogFiles, type LogRecord, openFileLogger } from './log-files';
