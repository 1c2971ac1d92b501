// The complaint desk's public face ("I was debited", docs/refunds.md): the module and its migrations.
export { createCasesModule } from './cases-module';
export { CASE_MIGRATIONS } from './case-migrations';
export { caseCounts } from './case-store';
