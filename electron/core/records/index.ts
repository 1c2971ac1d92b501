// The records module's public face (receipts, printing, shifts, search): what other modules may import.
export { printerError } from './network-printer';
export { createRecordsModule } from './records-module';
export { type SystemPrintJob, type SystemPrinter } from './system-printer';
