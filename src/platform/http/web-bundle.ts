import { readFile } from "node:fs/promises";

export interface WebBundle {
  js: string;
  css: string;
}

/**
 * A page's client (`<dir>main.ts` bundled by esbuild, `<dir>style.css` as it is), built at the first request
 * and kept for the process (tens of ms, once). A failed build is not kept: the next request tries again.
 */
export function webBundle(dir: string): () => Promise<WebBundle> {
  let bundle: Promise<WebBundle> | undefined;
  async function build(): Promise<WebBundle> {
    const { build: esbuild } = await import("esbuild");
    const result = await esbuild({
      entryPoints: [`${dir}main.ts`],
      bundle: true,
      format: "iife",
      target: "es2020",
      minify: true,
      write: false,
      logLevel: "silent",
    });
    return { js: result.outputFiles[0]!.text, css: await readFile(`${dir}style.css`, "utf8") };
  }
  return () =>
    (bundle ??= build().catch((error: unknown) => {
      bundle = undefined;
      throw error;
    }));
}
