// The programme through the whole stack in real Chromium, Demo profile (the embedded sandbox):
// import a CSV under Settings → Programme (a bad file first: errors by line and column, nothing
// kept), then sell the next show from the Sell screen with the keyboard only — Enter picks it, the
// seats are typed, Enter charges — and Paid on the demo terminal. The key presses from the Sell
// screen to Charge are counted for this and for the hand-typed form; screenshots light and dark.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { lagosDate, lagosHm } from '../../shared/time';
import { ARTIFACTS, expect, test } from './fixtures';

const MIN = 60_000;
const HEADER = 'film,title,rating,screen,date,time,ticketType,price,bookingFee';

/** A show `offsetMin` from now in Lagos (date and time follow the clock, across midnight too). */
function at(offsetMin: number): { date: string; time: string } {
  const t = Math.floor((Date.now() + offsetMin * MIN) / MIN) * MIN;
  return { date: lagosDate(t), time: lagosHm(t) };
}

function programmeCsv(): { csv: string; next: { date: string; time: string } } {
  const gone = at(-45); // past its start plus the 20-minute grace: not listed
  const next = at(25);
  const later = at(150);
  const rows = [
    HEADER,
    `Old Film,OLD FILM,PG,Screen 3,${gone.date},${gone.time},Adult,2000,100`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},Adult,4500,200`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},Child,3000.50,200`,
    `Inside Out 2,INSIDE OUT 2,PG,Screen 2,${later.date},${later.time},Adult,3500,`,
  ];
  return { csv: rows.join('\r\n'), next };
}

const BAD_CSV = [
  HEADER,
  'Dune 2,DUNE: PART TWO,12A,Screen 1,2025-02-30,19:30,Adult,4500,200',
  'Dune 2,DUNE: PART TWO,12A,Screen 1,2025-03-01,7pm,Adult,45.005,',
].join('\r\n');

/** The keyboard, counting every key press that is not a seat character. */
function countingKeys(page: Page) {
  let count = 0;
  return {
    press: async (key: string) => {
      count++;
      await page.keyboard.press(key);
    },
    /** Characters the cashier types that are counted (a film name, a time). */
    type: async (text: string) => {
      count += text.length;
      await page.keyboard.type(text);
    },
    /** Seat characters: typed, not counted. */
    seats: async (text: string) => {
      await page.keyboard.type(text);
    },
    get count() {
      return count;
    },
  };
}

async function importProgramme(page: Page, csv: string, scheme: string): Promise<void> {
  await page.keyboard.press('Alt+5');
  await page.getByLabel('New admin PIN (4 to 12 digits)').fill('2468');
  await page.getByLabel('Type the PIN again').fill('2468');
  await page.getByRole('button', { name: 'Save PIN and open Settings' }).click();
  const panel = page.locator('.programme-panel:not(.catalogue-panel)');
  await expect(panel.getByRole('heading', { name: 'Programme' })).toBeVisible();
  await expect(panel).toContainText('No programme on this counter yet');
  await panel.getByLabel('Imported by').fill('Ada (manager)');

  // A bad file: every problem named by line and column, and nothing kept.
  await page
    .getByLabel('Programme CSV file')
    .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(BAD_CSV) });
  await expect(page.getByTestId('programme-message')).toContainText(
    'bad.csv was not imported: fix the 3 problems below',
  );
  const rows = panel.locator('.programme-errors tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('2');
  await expect(rows.nth(0)).toContainText('date');
  await expect(rows.nth(1)).toContainText('time');
  await expect(rows.nth(2)).toContainText('price');
  await expect(panel).toContainText('No programme on this counter yet');
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: join(ARTIFACTS, `programme-import-errors-${scheme}.png`) });

  await page
    .getByLabel('Programme CSV file')
    .setInputFiles({ name: 'this-week.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('programme-message')).toContainText(
    'this-week.csv imported: 3 shows of 3 films on 3 screens',
  );
  await expect(page.getByTestId('programme-now')).toContainText('Imported from this-week.csv by Ada (manager)');
  await expect(panel.locator('.programme-errors')).toHaveCount(0);
  await panel.screenshot({ path: join(ARTIFACTS, `programme-import-${scheme}.png`) });
}

const KEYS = { programme: -1, hand: -1 };

for (const scheme of ['light', 'dark'] as const) {
  test(`import a programme, pick the next show with the keyboard, 2 seats, charge, Paid (${scheme})`, async ({
    page,
    shell,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();
    const { csv, next } = programmeCsv();
    await importProgramme(page, csv, scheme);

    // The Sell screen opens on the next shows, soonest first; the one long started is not listed.
    await page.keyboard.press('Alt+1');
    await expect(page.getByTestId('terminal-sn')).toContainText('DEMO-POS-0001');
    const options = page.getByRole('option');
    await expect(options).toHaveCount(2);
    await expect(options.nth(0)).toContainText('DUNE: PART TWO');
    await expect(options.nth(0)).toContainText(next.time);
    await expect(options.nth(1)).toContainText('INSIDE OUT 2');
    await expect(page.getByRole('option', { name: /OLD FILM/ })).toHaveCount(0);
    const find = page.getByRole('combobox');
    await expect(find).toBeFocused();
    await page.screenshot({ path: join(ARTIFACTS, `sell-programme-list-${scheme}.png`) });

    // Filtered as the cashier types; arrows move; Esc clears the filter.
    await page.keyboard.type('inside');
    await expect(options).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(options).toHaveCount(2);
    await page.keyboard.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowUp');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');

    // From here on every key is counted: the sale of the next show, 2 seats.
    const keys = countingKeys(page);
    await keys.press('Enter');
    await expect(page.getByRole('heading', { name: 'DUNE: PART TWO' })).toBeVisible();
    await expect(page.getByRole('radio', { name: /Adult/ })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByLabel('Seats', { exact: true })).toBeFocused();
    await keys.seats('f7');
    await keys.press(',');
    await keys.seats('f8');
    await expect(page.getByTestId('total-amount')).toHaveText('₦9,400.00');
    await expect(page.getByTestId('sale-total')).toContainText(
      '2 Adult tickets × ₦4,500.00 = ₦9,000.00 · booking fee 2 × ₦200.00 = ₦400.00',
    );
    await page.screenshot({ path: join(ARTIFACTS, `sell-programme-picked-${scheme}.png`) });
    await keys.press('Enter');
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
    await expect(page.getByTestId('payment-amount')).toHaveText('₦9,400.00');
    KEYS.programme = keys.count;
    expect(keys.count).toBeLessThanOrEqual(8);

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('Paid');
    const receipt = page.getByTestId('receipt-preview');
    await expect(receipt).toContainText('DUNE: PART TWO');
    await expect(receipt).toContainText('F7, F8');

    // The same show through today's hand-typed form (F2), counted the same way. The film was just
    // sold, so its title, price and fee fill in by themselves: the form's best case.
    await page.getByRole('button', { name: 'New sale' }).click();
    await expect(find).toBeFocused();
    await page.keyboard.press('F2');
    await expect(page.getByLabel('Film name', { exact: true })).toBeFocused();
    const hand = countingKeys(page);
    await hand.type('Dune 2');
    await expect(page.getByLabel('Price per ticket (₦)')).toHaveValue('4500');
    await hand.press('Tab'); // title (filled)
    await hand.press('Tab'); // date (today's, filled)
    if (next.date !== (await page.getByLabel('Show date').inputValue())) {
      await hand.press('Control+A');
      await hand.type(next.date);
    }
    await hand.press('Tab'); // time
    await hand.press('Control+A');
    await hand.type(next.time.replace(':', ''));
    await hand.press('Tab'); // seats
    await hand.seats('f7');
    await hand.press(',');
    await hand.seats('f8');
    await expect(page.getByTestId('total-amount')).toHaveText('₦9,400.00');
    await hand.press('Enter');
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
    KEYS.hand = hand.count;
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('Cancelled on the terminal');

    const line = `key presses for a 2-seat sale of the next show, besides the seat characters: programme ${KEYS.programme}, hand-typed form ${KEYS.hand}\n`;
    writeFileSync(join(ARTIFACTS, `programme-key-presses-${scheme}.txt`), line);
    console.log(line.trim());
    void shell;
  });
}
