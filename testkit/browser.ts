/**
 * A real headless Chromium for page tests (playwright-core driving the system's Chromium; no
 * browser download). It reaches only loopback: every other host name fails to resolve, so a page
 * that tries another origin fails visibly instead of waiting on the network.
 */
import { accessSync, constants } from "node:fs";
import { chromium, type Browser } from "playwright-core";

function chromiumPath(): string {
  return process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
}

const CHROMIUM_ARGS = [
  // Containers run as root without user namespaces, where the sandbox cannot start.
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  // Without these Chromium keeps calling Google's hosts (component updates, sync, variations).
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
];

/** Whether Chromium is installed (`apt-get install chromium`, or CHROMIUM_PATH), for `describe.skipIf`. */
export function chromiumAvailable(): boolean {
  try {
    accessSync(chromiumPath(), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Playwright gives each launch a fresh temporary profile and removes it on `close()`. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}
