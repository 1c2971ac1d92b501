// The topups module's public face: what other modules may import.
export { createTopupsModule } from './topups-module';
export { TopupJournalReads, type OpenTopup, type TopupStateTotals } from './topup-journal-reads';
