import fc from "fast-check";
import { Composer as GrammyComposer, type Context, type MiddlewareFn } from "grammy";
import { describe, expect, it } from "vitest";
import { Composer } from "../../src/bot/composer.js";
import { fuzz, scaledRuns } from "../support/fuzz.js";

/** What a leaf middleware does: pass on, stop, pass on and note the way back, pass on twice, or fail (at once or later). */
type Leaf = "next" | "stop" | "around" | "twice" | "throw" | "reject";
/** A predicate's answer, given at once or as a promise. */
type Answer = { value: boolean; async: boolean };
type Step =
  | { kind: "use"; leaf: Leaf }
  | { kind: "filter"; answer: Answer; body: Step[] }
  | { kind: "branch"; answer: Answer; yes: Step[]; no: Step[] }
  | { kind: "drop"; answer: Answer; body: Step[] }
  | { kind: "boundary"; body: Step[] };

interface Traced {
  trace: string[];
}
type AnyComposer = GrammyComposer<Context>;

/** Builds `steps` into `composer`; the body of a filter is added to the composer it returns afterwards (late), as features do. */
function build(composer: AnyComposer, steps: Step[], make: () => AnyComposer, path: string): void {
  steps.forEach((step, i) => {
    const id = `${path}${i}`;
    const ask = (ctx: Context): boolean | Promise<boolean> => {
      (ctx as unknown as Traced).trace.push(`${id}?`);
      return step.kind === "use" || step.kind === "boundary" ? true : step.answer.async ? Promise.resolve(step.answer.value) : step.answer.value;
    };
    switch (step.kind) {
      case "use":
        composer.use(leaf(id, step.leaf));
        break;
      case "filter":
        build(composer.filter(ask), step.body, make, `${id}.`);
        break;
      case "drop":
        build(composer.drop(ask), step.body, make, `${id}.`);
        break;
      case "branch": {
        const yes = make();
        const no = make();
        composer.branch(ask, yes, no);
        build(yes, step.yes, make, `${id}y.`);
        build(no, step.no, make, `${id}n.`);
        break;
      }
      case "boundary":
        build(
          composer.errorBoundary((err) => {
            (err.ctx as unknown as Traced).trace.push(`${id} caught ${(err.error as Error).message}`);
          }),
          step.body,
          make,
          `${id}.`,
        );
        break;
    }
  });
}

function leaf(id: string, kind: Leaf): MiddlewareFn {
  return async (ctx, next) => {
    const trace = (ctx as unknown as Traced).trace;
    trace.push(id);
    if (kind === "stop") return;
    if (kind === "throw") throw new Error(`thrown by ${id}`);
    if (kind === "reject") {
      await Promise.resolve();
      throw new Error(`rejected by ${id}`);
    }
    await next();
    if (kind === "twice") await next();
    if (kind === "around") trace.push(`${id} back`);
  };
}

/** Runs the update through a composer built from `steps`; the trace, and how it ended. */
async function run(make: () => AnyComposer, steps: Step[]): Promise<string[]> {
  const composer = make();
  build(composer, steps, make, "");
  const ctx = { trace: [] as string[] };
  const ran = composer.middleware()(ctx as unknown as Context, () => {
    ctx.trace.push("end");
    return Promise.resolve();
  });
  const outcome = await Promise.resolve(ran).then(
    () => "resolved",
    (error: unknown) => `rejected: ${(error as Error).message}`,
  );
  return [...ctx.trace, outcome];
}

/** The middleware under test reads nothing of the context. */
const anUpdate = () => ({}) as unknown as Context;

const answer = fc.record({ value: fc.boolean(), async: fc.boolean() });
const leafKind = fc.constantFrom<Leaf>("next", "next", "next", "stop", "around", "twice", "throw", "reject");
const { steps } = fc.letrec<{ steps: Step[]; step: Step }>((tie) => ({
  steps: fc.array(tie("step"), { maxLength: 4 }),
  step: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ kind: fc.constant("use" as const), leaf: leafKind }),
    fc.record({ kind: fc.constant("filter" as const), answer, body: tie("steps") }),
    fc.record({ kind: fc.constant("drop" as const), answer, body: tie("steps") }),
    fc.record({ kind: fc.constant("branch" as const), answer, yes: tie("steps"), no: tie("steps") }),
    fc.record({ kind: fc.constant("boundary" as const), body: tie("steps") }),
  ),
}));

describe("Composer (grammY's, cheaper per update)", () => {
  it("runs any tree of use, filter, drop, branch and error boundaries exactly as grammY's Composer does", async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (program) => {
        const ours = await run(() => new Composer<Context>(), program);
        const grammys = await run(() => new GrammyComposer<Context>(), program);
        expect(ours).toEqual(grammys);
      }),
      fuzz("composer matches grammY", scaledRuns(2_000)),
    );
  });

  it("runs middleware added to a filter's composer after the filter was made", async () => {
    const composer = new Composer<Context>();
    const seen: string[] = [];
    const privateOnly = composer.filter(() => true);
    composer.use(() => {
      seen.push("after the filter");
    });
    privateOnly.use((_ctx, next) => {
      seen.push("added later");
      return next();
    });
    await composer.middleware()(anUpdate(), () => Promise.resolve());
    expect(seen).toEqual(["added later", "after the filter"]);
  });

  it("fails a middleware that throws before returning a promise as a rejection its caller can catch", async () => {
    const composer = new Composer<Context>();
    const caught: unknown[] = [];
    composer.use((_ctx, next) => next().catch((error: unknown) => void caught.push(error)));
    composer.use(() => {
      throw new Error("sync");
    });
    await composer.middleware()(anUpdate(), () => Promise.resolve());
    expect(caught).toEqual([new Error("sync")]);
  });

  it("refuses a second call of next to the middleware after it, as grammY does", async () => {
    const composer = new Composer<Context>();
    composer.use(async (_ctx, next) => {
      await next();
      await next();
    });
    composer.use((_ctx, next) => next());
    await expect(composer.middleware()(anUpdate(), () => Promise.resolve())).rejects.toThrow("`next` already called before!");
  });
});
