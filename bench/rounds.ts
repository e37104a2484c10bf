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

interface Verdict {
  section: string;
  goal: string;
  met: boolean;
  figure: string;
}

/** Every verdict of this run, in order, for the closing summary. */
const verdicts: Verdict[] = [];
let section = "";

/** Names the section the next verdicts belong to in the closing summary. */
export function goalSection(name: string): void {
  section = name;
}

export function printGoal(goal: string, met: boolean, figure: string): void {
  verdicts.push({ section, goal, met, figure });
  console.log(`  goal ${goal}: ${met ? "pass" : "falls short"} (${figure})`);
}

/** One line per goal checked in this run, so the run ends with its verdicts in one place. */
export function printGoalSummary(): void {
  if (verdicts.length === 0) return;
  const met = verdicts.filter((v) => v.met).length;
  console.log(`\ngoals of this run: ${met} pass, ${verdicts.length - met} fall short`);
  for (const v of verdicts) console.log(`  ${v.met ? "pass       " : "falls short"}  ${v.section ? `[${v.section}] ` : ""}${v.goal} (${v.figure})`);
}
