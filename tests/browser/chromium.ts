/**
 * Debian's Chromium, launched the way this machine allows: headless, no sandbox (root), and no
 * background networking (the closed network refuses it). Shared by the browser tests.
 */
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** `extraArgs` are added to the command line; `env`, when given, is added to the environment. */
export function launchChromium(extraArgs: string[] = [], env?: Record<string, string>): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    ...(env === undefined ? {} : { env: { ...process.env, ...env } as Record<string, string> }),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      ...extraArgs,
    ],
  });
}
