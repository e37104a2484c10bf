/** /statement: the month as one photo card (chart, summary, CSV, months ◀ ▶); the month, rows and CSV are shared domain in `shared/statements`. */
export { createStatementFeature } from "./statement-feature.js";
