/**
 * Builds dist/ once per test run (only when its sources changed): the suites that spawn the real entry
 * (`npm start`, kill -9 runs) start `node dist/main.js` as a user's
 * deployment does, and must not race each other building it.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export default function setup(): void {
  execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build", "--silent", "--", "--if-stale"], {
    cwd: join(import.meta.dirname, ".."),
    stdio: "pipe",
  });
}
