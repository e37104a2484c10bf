/** Figures measured over several rounds: median and spread, and the verdict against a goal. */

export interface RoundSummary {
  median: number;
  min: number;
  max: number;
  /** "median (min–max)", whole numbers, or two decimals for values below 10. */
  text: string;
}

export function summarize(values: readonly number[]): RoundSummary {
  if (values.length === 0) throw new Error("summarize: no rounds");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  const min = sorted[0]!;
  const max = sorted.at(-1)!;
  const show = (v: number) => (Math.abs(median) < 10 ? v.toFixed(2) : Math.round(v).toLocaleString("en"));
  return { median, min, max, text: `${show(median)} (${show(min)}–${show(max)})` };
}

/** The bare reference (a bare verifier, a bare grammY bot) measured against the same absolute bar in the same run. */
export interface BareReference {
  met: boolean;
  figure: string;
}

interface Verdict {
  section: string;
  goal: string;
  met: boolean;
  figure: string;
  /** The bare reference fell short of the same bar: this machine, not only the bot, is below it. */
  bareFallsShort: boolean;
}

/** Every verdict of this run, in order, for the closing summary. */
const verdicts: Verdict[] = [];
let section = "";

/** Names the section the next verdicts belong to in the closing summary. */
export function goalSection(name: string): void {
  section = name;
}

/**
 * An absolute goal (a rate, a latency) was set on a machine of a given speed; `bare` says whether the bare
 * reference meets it here, so a verdict on a slower machine tells the bot's shortfall from the machine's.
 */
export function printGoal(goal: string, met: boolean, figure: string, bare?: BareReference): void {
  const verdict = { section, goal, met, figure: bare ? `${figure}; bare: ${bare.figure}` : figure, bareFallsShort: bare !== undefined && !bare.met };
  verdicts.push(verdict);
  console.log(`  goal ${goal}: ${verdictText(verdict)} (${verdict.figure})`);
}

function verdictText(v: Verdict): string {
  if (v.met) return "pass";
  return v.bareFallsShort ? "falls short, as the bare reference does" : "falls short";
}

/** One line per goal checked in this run, so the run ends with its verdicts in one place. */
export function printGoalSummary(): void {
  if (verdicts.length === 0) return;
  const met = verdicts.filter((v) => v.met).length;
  const machine = verdicts.filter((v) => !v.met && v.bareFallsShort).length;
  console.log(
    `\ngoals of this run: ${met} pass, ${verdicts.length - met} fall short${machine > 0 ? ` (${machine} of them as the bare reference does: this machine is below the bar)` : ""}`,
  );
  for (const v of verdicts)
    console.log(`  ${v.met ? "pass       " : v.bareFallsShort ? "short, bare" : "falls short"}  ${v.section ? `[${v.section}] ` : ""}${v.goal} (${v.figure})`);
}
