// Batch files for the top-up tests: a 1,000-row file mixing good rows, rows the provider will
// FAIL, and rows that must be refused before sending.

export const HEADER = 'type,provider,customerId,amount,reference';
export const phone = (i: number) => `0803${String(1_000_000 + i).slice(-7)}`;

/** 1,000 data rows: good airtime and betting, rows that will FAIL at the provider, and bad rows. */
export function bigFile(): { csv: string; badLines: number[]; failLines: number[] } {
  const lines = [HEADER];
  const badLines: number[] = [];
  const failLines: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const line = i + 2;
    const naira = 100 + (i % 50);
    if (i % 23 === 5) {
      badLines.push(line);
      const bad = [
        `betting,BET9JA,20001,50,`, // below BET9JA's minimum
        `airtime,MTN,0803 123 45,${naira},`, // too short
        `airtime,VODAFONE,${phone(i)},${naira},`,
        `lottery,MTN,${phone(i)},${naira},`,
        `airtime,GLO,${phone(i)},50001,`, // above the airtime limit
      ];
      lines.push(bad[i % bad.length]!);
    } else if (i % 97 === 3) {
      failLines.push(line);
      lines.push(i % 2 ? `betting,NAIRABET,nb-40404,${naira},` : `airtime,ETI,+2348000000404,${naira},`);
    } else if (i % 3 === 0) {
      lines.push(
        `betting,${['BET9JA', 'SPORTYBET', 'NAIRABET'][i % 9 === 0 ? 0 : i % 9 === 3 ? 1 : 2]},${i % 9 === 0 ? '20001' : i % 9 === 3 ? '8030000001' : 'nb-30002'},${naira},`,
      );
    } else {
      lines.push(`airtime,${['MTN', 'AIR', 'GLO', 'ETI'][i % 4]},${phone(i)},${naira},`);
    }
  }
  return { csv: lines.join('\r\n') + '\r\n', badLines, failLines };
}
