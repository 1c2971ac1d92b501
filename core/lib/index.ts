// The home of the core's generic tools: nothing here knows about sales, top-ups or the provider,
// and nothing here imports other core code, so every process (the app, the browser shell, the
// sandbox) may use it. Import them from here, never from the files.
export { backoffWithJitter, DEFAULT_BACKOFF, doublingDelay, RetryTimer, type BackoffTuning } from './backoff';
export { csvCell, toCsv, type CsvValue } from './csv-cell';
export { systemTimers, type TimerHandle, type Timers } from './timers';
export { TokenBucket } from './token-bucket';
export { TypedEmitter, type EventMap, type TypedEmitterOptions } from './typed-emitter';
export { checkIn, sqlList } from './sql-list';
export { camelRow, type Row } from './rows';
