// The catalogue module's public face: what the root, other modules and the shells may import.
export { createCatalogueModule, catalogueFormat, type CatalogueReads } from './catalogue-module';
export { CATALOGUE_MIGRATIONS } from './catalogue-migrations';
export type { PaidBasketsRead } from './stock-tally';
