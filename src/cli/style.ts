/**
 * Colour for the command-line tool: ANSI styling or none, and the rule that picks one. Kept apart
 * from render.ts so that starting a command that prints no table (match) loads nothing more.
 */

/** ANSI styling, or none. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  green(text: string): string;
}

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export const COLOUR: Style = {
  bold: ansi(1, 22),
  dim: ansi(2, 22),
  red: ansi(31, 39),
  yellow: ansi(33, 39),
  cyan: ansi(36, 39),
  green: ansi(32, 39),
};

const same = (text: string) => text;
export const PLAIN: Style = { bold: same, dim: same, red: same, yellow: same, cyan: same, green: same };

/**
 * Colour only on a terminal, and never when NO_COLOR is set to anything non-empty
 * (https://no-color.org). FORCE_COLOR (non-empty, not `0`) asks for colour off a terminal.
 */
export function chooseStyle(isTty: boolean, env: Record<string, string | undefined>): Style {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return PLAIN;
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0";
  return isTty || forced ? COLOUR : PLAIN;
}
