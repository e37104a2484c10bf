/**
 * Builds dist/ once per test run (only when its sources changed): the suites that spawn the real entry
 * (`npm start`, kill -9 runs) start `node dist/main.js` as a user's
 * deployment does, and must not race each other building it. The build script itself, not through
 * `npm run build`: the same script and flag, without an npm process on the path to the first test.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export default function setup(): void {
  const root = join(import.meta.dirname, "..");
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs"), "--if-stale"], { cwd: root, stdio: "pipe" });
}
