// The programme file's rules live in shared/ (the Hub's import uses the same ones); this is their door here.
export { checkProgrammeFile, programmeTemplate, PROGRAMME_COLUMNS, type ProgrammeColumn, type ProgrammeFileCheck } from '../../shared/programme-csv';
