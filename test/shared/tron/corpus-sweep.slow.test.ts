import { loadCorpus } from "../../support/tron-corpus.js";
import { describeMutationSweep } from "./corpus-sweep.js";

/**
 * Every byte position of every real transaction in the corpus (test/fixtures/tron-corpus) flipped: no
 * mutant may be accepted. `npm test` runs a sample of it (corpus.test.ts).
 */
describeMutationSweep(loadCorpus(), 1);
