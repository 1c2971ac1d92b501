// Time is a dependency, so schedules and expiry can be tested without waiting.
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };
