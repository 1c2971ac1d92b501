// The Demo profile's fixed identity: the same on every install (only its keys are generated). The
// sandbox plays this merchant; the counter's journal recognises Demo orders by it.
export const DEMO_TERMINAL_SN = 'DEMO-POS-0001';
/** A second Demo terminal that approves every order by itself after a short delay. */
export const DEMO_AUTO_TERMINAL_SN = 'DEMO-POS-0002';
/** The Demo merchant's business id. */
export const DEMO_HEAD_MERCHANT_ID = '256621000000101';
