// Top-ups (airtime and betting, single and batches): this part of the one contract.
// Merged into `calls`/`events` in contract.ts; edit here, not there.
import { z } from 'zod';
import { Empty, IdArgs, type CallsSpec, type EventsSpec } from './contract-kit';
import {
  BATCH_ITEM_FILTERS,
  BatchImportSchema,
  BatchViewSchema,
  CsvFileSchema,
  MAX_CHUNK_SIZE,
  MAX_CSV_CHARS,
  ProvidersViewSchema,
  RowErrorSchema,
  TOPUP_INVALID,
  TopupInputSchema,
  TopupViewSchema,
  ValidatedCustomerSchema,
} from './topups';

const ChunkSize = z
  .number()
  .int('The chunk size is a whole number')
  .min(1, 'At least 1 item per request')
  .max(MAX_CHUNK_SIZE, `At most ${MAX_CHUNK_SIZE} items per request`);
const Page = {
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(500).default(100),
};

export const topupCalls = {
  // Betting providers: the cached list (shown offline), refreshed from the provider on demand.
  'topups.providers': { args: z.object({ refresh: z.boolean().default(false) }).strict(), result: ProvidersViewSchema },
  'topups.checkCustomer': {
    args: z.object({ provider: z.string().max(64), customerId: z.string().max(128) }).strict(),
    result: ValidatedCustomerSchema,
  },

  // One top-up: the form as typed (main checks it), then its life.
  'topups.submit': { args: TopupInputSchema, result: TopupViewSchema, invalid: TOPUP_INVALID },
  'topups.get': { args: IdArgs, result: TopupViewSchema },
  'topups.checkNow': { args: IdArgs, result: TopupViewSchema },
  'topups.recent': { args: Empty, result: z.array(TopupViewSchema) },

  // Batches: a CSV as text in, checked by main; sent in chunks; followed; exported as CSV text.
  'topups.batchTemplate': { args: Empty, result: CsvFileSchema },
  'topups.batchImport': {
    args: z
      .object({
        csv: z
          .string()
          .max(
            MAX_CSV_CHARS,
            `The file is too large: at most ${Math.floor(MAX_CSV_CHARS / 1000)} kB (10,000 rows). Split it into several files.`,
          ),
        fileName: z.string().max(200).default('batch.csv'),
      })
      .strict(),
    result: BatchImportSchema,
  },
  'topups.batchErrors': {
    args: z.object({ id: z.number().int().positive(), ...Page }).strict(),
    result: z.object({ total: z.number().int(), errors: z.array(RowErrorSchema) }),
  },
  'topups.batchCheckCustomers': { args: IdArgs, result: BatchViewSchema },
  'topups.batchStart': {
    args: z.object({ id: z.number().int().positive(), chunkSize: ChunkSize }).strict(),
    result: BatchViewSchema,
  },
  'topups.batchResume': {
    args: z.object({ id: z.number().int().positive(), chunkSize: ChunkSize.optional() }).strict(),
    result: BatchViewSchema,
  },
  /** A draft is discarded; a running batch stops sending (items not sent yet are cancelled). */
  'topups.batchCancel': { args: IdArgs, result: BatchViewSchema },
  'topups.batchGet': { args: IdArgs, result: BatchViewSchema },
  'topups.batchList': { args: Empty, result: z.array(BatchViewSchema) },
  'topups.batchItems': {
    args: z
      .object({ id: z.number().int().positive(), filter: z.enum(BATCH_ITEM_FILTERS).default('all'), ...Page })
      .strict(),
    result: z.object({ total: z.number().int(), items: z.array(TopupViewSchema) }),
  },
  'topups.batchExport': { args: IdArgs, result: CsvFileSchema },
} satisfies CallsSpec;

export const topupEvents = {
  /** A single top-up changed. */
  'topups.changed': TopupViewSchema,
  /** A batch's counts or state changed (at most a few times a second). */
  'topups.batchChanged': BatchViewSchema,
  /** Items of a batch that changed since the last such event. */
  'topups.batchItems': z.object({ batchId: z.number().int(), items: z.array(TopupViewSchema) }),
  'topups.providersChanged': ProvidersViewSchema,
} satisfies EventsSpec;
