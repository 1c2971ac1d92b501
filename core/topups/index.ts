// The topups module's public face: what other modules may import.
export { createTopupsModule } from './topups-module';
export { TOPUP_MIGRATIONS } from './topup-migrations';
export { TopupJournalReads } from './topup-journal-reads';
