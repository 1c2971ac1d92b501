// The programme module's public face: what other modules, the root and the shells may import.
export { createProgrammeModule } from './programme-module';
export { PROGRAMME_MIGRATIONS } from './programme-migrations';
export { runSeatCheck, type SeatCheck } from './seat-check';
export { createSeatMapModule } from './seat-map-module';
export { programmeBasketShows, programmeSeatPlanner } from './seat-rules';
