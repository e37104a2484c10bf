import { createRequire } from "node:module";
import type * as TronWebModule from "tronweb";

const require = createRequire(import.meta.url);
let loaded: typeof TronWebModule | undefined;

/**
 * tronweb, loaded on the first address check or transaction read rather than
 * at start: its import costs about 0.3 s and 50 MB, which the start (and a
 * process that never meets an address) need not pay. Its CommonJS build,
 * because the helpers that use it are synchronous.
 */
export function tronweb(): typeof TronWebModule {
  loaded ??= require("tronweb") as typeof TronWebModule;
  return loaded;
}
