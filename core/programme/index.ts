// The programme module's public face: what other modules, the root and the shells may import.
export {
  createProgrammeModule,
  type ProgrammeModule,
  type ProgrammeModuleDeps,
  type ReplaceOutcome,
} from './programme-module';
export { PROGRAMME_MIGRATIONS } from './programme-migrations';
export { runSeatCheck, SEAT_CHECK_DEADLINE_MS, type SeatCheck, type SeatQuery } from './seat-check';
export { createSeatMapModule } from './seat-map-module';
