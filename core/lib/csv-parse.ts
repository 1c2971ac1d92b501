// The CSV reader lives in shared/ (the Hub checks programme files with it too); lib keeps its name.
export { parseCsv, type CsvParseResult, type CsvRecord, type CsvSyntaxError } from '../../shared/csv-parse';
