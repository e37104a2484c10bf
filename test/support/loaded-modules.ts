/**
 * What a fresh Node process loads: `script` (an ES module body) runs in a
 * child `node` with a resolve hook that records every module URL, and the
 * CommonJS cache is added at its end. No timing: the list only.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function loadedModules(script: string, options: { cwd: string; env?: Record<string, string> }): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "loaded-modules-"));
  const trace = join(dir, "modules.txt");
  const hooks = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(trace)}, resolved.url + "\\n");
  return resolved;
}`;
  const program = `import { createRequire, register } from "node:module";
import { appendFileSync } from "node:fs";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});
${script}
appendFileSync(${JSON.stringify(trace)}, Object.keys(createRequire(import.meta.url).cache).join("\\n") + "\\n");
process.exit(0);`;
  try {
    await run(process.execPath, ["--input-type=module", "-e", program], { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: 60_000 });
    return readFileSync(trace, "utf8")
      .split("\n")
      .filter((line) => line !== "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
