// The screen layout the seat map e2e specs share.

/** 13 rows (A at the front) of 26 seats in three blocks; row A has wheelchair places, K–L are VIP. */
export function layoutJson(): string {
  const rows = 'ABCDEFGHIJKLM'.split('').map((row) => {
    let seats = '1-6 _ 7-20 _ 21-26';
    if (row === 'A') seats = '1w 2c 3-6 _ 7-20 _ 21-24 25c 26w';
    if (row === 'K' || row === 'L') seats = '1-6 _ 7-20:vip _ 21-26';
    if (row === 'M') seats = '1-6 _ 7-12 13x 14x 15-20 _ 21-26';
    return { row, seats };
  });
  return JSON.stringify({
    format: 'counterpay-seat-layout/1',
    screen: 'Screen 1',
    zones: [{ id: 'vip', name: 'VIP', ticketType: 'VIP' }],
    rows,
  });
}
