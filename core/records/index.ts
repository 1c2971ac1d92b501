// The records module's public face: receipts, printing and shifts. Everything outside records/
// imports from here; the rooms (printing/, receipts/, shifts/) are this module's own business.
export { createRecordsModule } from './records-module';
export { RECORDS_MIGRATIONS } from './records-migrations';
export { printerError } from './printing/network-printer';
export type { SystemPrinter, SystemPrintJob } from './printing/system-printer';
export { shiftCashierAt, shiftOpenAt } from './shifts/shift-cashier';
