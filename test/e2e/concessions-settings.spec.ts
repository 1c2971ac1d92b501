// Settings → Concessions in real Chromium at 1024×768, Demo profile: the Demo catalogue is there
// without an import; a bad file is refused with every problem by line and column and the catalogue
// in use kept; a good JSON file, picked from the keyboard, replaces it and is listed by category
// with prices, stock left and sold out; an item marked sold out and back with the keyboard.
// Screenshots light and dark.
import { join } from 'node:path';
import { ARTIFACTS, expect, test } from './fixtures';

const BAD_CSV = [
  'code,name,category,price,soldOut,stock,component,options',
  'SHAWA,Shawarma,Snacks,35.001,,10,,',
  'ZOBO,,Drinks,800,,,,',
  'CMB9,Shawarma and zobo,Combos,4000,,,Drink,FANTA',
].join('\r\n');

const GOOD_JSON = JSON.stringify(
  {
    items: [
      { code: 'POPS', name: 'Popcorn small', category: 'Popcorn', price: '1500' },
      { code: 'POPL', name: 'Popcorn large', category: 'Popcorn', price: '2500' },
      { code: 'ZOBO', name: 'Zobo 50cl', category: 'Drinks', price: '800', stock: 24 },
      { code: 'WATER', name: 'Water 75cl', category: 'Drinks', price: '400', stock: 0 },
      { code: 'SHAWA', name: 'Shawarma', category: 'Snacks', price: '3,500.50', soldOut: true },
    ],
    combos: [
      {
        code: 'CMB1',
        name: 'Popcorn combo',
        category: 'Combos',
        price: 3000,
        components: [
          { name: 'Popcorn', options: ['POPL'] },
          { name: 'Drink', options: ['ZOBO', 'WATER'] },
        ],
      },
    ],
  },
  null,
  2,
);

/** Scrolls the screen (its own scroll box, not the window) so that the panel's top is at the top. */
function toTop(el: Element): void {
  let box = el.parentElement;
  while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
  if (box) box.scrollTop += el.getBoundingClientRect().top - box.getBoundingClientRect().top - 8;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`Settings → Concessions: a bad file's errors, a good file's list, sold out and back (${scheme})`, async ({
    page,
    shell,
  }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();
    await page.keyboard.press('Alt+5');
    await page.getByLabel('New admin PIN (4 to 12 digits)').fill('2468');
    await page.getByLabel('Type the PIN again').fill('2468');
    await page.getByRole('button', { name: 'Save PIN and open Settings' }).click();

    const panel = page.locator('.catalogue-panel');
    await expect(panel.getByRole('heading', { name: 'Concessions' })).toBeVisible();
    // The Demo profile's catalogue, without any import.
    await expect(page.getByTestId('catalogue-now')).toContainText('6 items and 1 combo');
    await expect(page.getByTestId('catalogue-now')).toContainText('The Demo catalogue');
    await expect(page.getByTestId('catalogue-row-WATER')).toContainText('48 of 48');

    // A bad file: every problem by line and column, and the catalogue in use kept.
    await page
      .getByLabel('Catalogue file')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(BAD_CSV) });
    await expect(page.getByTestId('catalogue-message')).toContainText(
      'bad.csv was not imported: fix the 3 problems below',
    );
    const errors = panel.locator('.catalogue-errors tbody tr');
    await expect(errors).toHaveCount(3);
    await expect(errors.nth(0)).toContainText('2price');
    await expect(errors.nth(1)).toContainText('3name');
    await expect(errors.nth(2)).toContainText('4options');
    await expect(page.getByTestId('catalogue-now')).toContainText('The Demo catalogue');
    await panel.evaluate(toTop);
    await page.screenshot({ path: join(ARTIFACTS, `concessions-errors-${scheme}.png`) });

    // A good JSON file, picked from the keyboard (the button opens the file chooser).
    const pick = panel.getByRole('button', { name: 'Import catalogue (CSV or JSON)…' });
    await pick.focus();
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'menu.json', mimeType: 'application/json', buffer: Buffer.from(GOOD_JSON) });
    await expect(page.getByTestId('catalogue-message')).toContainText('menu.json imported: 5 items and 1 combo.');
    await expect(panel.locator('.catalogue-errors')).toHaveCount(0);
    await expect(page.getByTestId('catalogue-now')).toContainText('Imported from menu.json');
    const categories = panel.locator('.catalogue-category');
    await expect(categories).toHaveText(['Popcorn', 'Drinks', 'Snacks', 'Combos']);
    await expect(page.getByTestId('catalogue-row-ZOBO')).toContainText('₦800.00');
    await expect(page.getByTestId('catalogue-row-ZOBO')).toContainText('24 of 24');
    await expect(page.getByTestId('catalogue-row-POPS')).toContainText('Not counted');
    await expect(page.getByTestId('catalogue-row-WATER')).toContainText('None left');
    await expect(page.getByTestId('catalogue-row-SHAWA')).toContainText('₦3,500.50');
    await expect(page.getByTestId('catalogue-row-SHAWA')).toContainText('Sold out');
    await expect(page.getByTestId('catalogue-row-CMB1')).toContainText('Drink: ZOBO / WATER');
    await expect(page.getByTestId('catalogue-row-CMB1')).toContainText('On sale');

    // Popcorn large sold out from the keyboard: the combo that always holds it cannot be sold either.
    await panel.getByRole('button', { name: 'Mark sold out for Popcorn large' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('catalogue-row-POPL')).toContainText('Sold out');
    await expect(page.getByTestId('catalogue-row-CMB1')).toContainText('An item is sold out');
    await expect(panel.getByRole('button', { name: 'Back on sale for Popcorn large' })).toBeVisible();
    // The whole panel in the window: its top just under the navigation.
    await panel.evaluate(toTop);
    await page.screenshot({ path: join(ARTIFACTS, `concessions-list-${scheme}.png`) });
    await panel.screenshot({ path: join(ARTIFACTS, `concessions-panel-${scheme}.png`) });
    // Nothing of the panel runs past the 1024-pixel window.
    const box = await panel.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(1024);

    await panel.getByRole('button', { name: 'Back on sale for Popcorn large' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('catalogue-row-POPL')).toContainText('On sale');
    await expect(page.getByTestId('catalogue-row-CMB1')).toContainText('On sale');
  });
}
