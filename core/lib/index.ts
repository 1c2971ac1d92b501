// The home of the core's generic tools: nothing here knows about sales, top-ups or the provider,
// and nothing here imports other core code, so any module of the engine may use it. Import them
// from here, never from the files. (What the sandbox and the Hub share with the engine is in
// protocol/ and shared/.)
export { backoffWithJitter, DEFAULT_BACKOFF, doublingDelay, RetryTimer, type BackoffTuning } from './backoff';
export { systemTimers, type TimerHandle, type Timers } from './timers';
export { TypedEmitter } from './typed-emitter';
export { checkIn, sqlList } from './sql-list';
export { camelRow, type Row } from './rows';
