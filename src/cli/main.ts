#!/usr/bin/env bun
/**
 * `nettools`: the command-line adapter of the Network Tools API.
 *
 * Each command lives in src/cli/commands/ and runs operations of the wire contract through
 * `runOperation` (src/cli/run-operation.ts): in this process by default, or with `--server URL`
 * (or NETTOOLS_SERVER) through the typed client. Either way the result is the API's result:
 * `--json` prints it exactly as the API returns it.
 *
 * Exit codes: 0 ok · 1 the certificate chain is broken (a finding of severity error, or an
 * intermediate most likely missing) · 2 invalid input or usage · 3 network or server failure.
 * A closed stdout (`| head`) ends the output quietly and keeps the command's own exit code; a
 * stdout that cannot be written (a full disk) is one line on stderr and exit 3.
 */
import packageJson from "../../package.json" with { type: "json" };
import { INPUT_LIMITS } from "../local/input-limits.ts";
import { COMMAND_CATALOG } from "./commands/catalog.ts";
import { helpFooter } from "./common-help.ts";
import { composeCli, processStdout } from "./composition-root.ts";
import { EXIT, InputTooLarge, type Io, UsageError } from "./io.ts";
import { chooseStyle } from "./style.ts";

export { EXIT } from "./io.ts";

function mainHelp(): string {
  const width = Math.max(...COMMAND_CATALOG.map((command) => command.name.length)) + 2;
  const lines = COMMAND_CATALOG.map((command) => `  ${command.name.padEnd(width)} ${command.summary}`);
  return `nettools — exact CIDR arithmetic, certificate-bundle diagnostics and "what is my IP"

Usage: nettools <command> [options] [arguments]

Commands:
${lines.join("\n")}

Run "nettools <command> --help" for a command's options and its exit codes;
"nettools --version" prints the version.
${helpFooter('0 ok; 1 the command\'s own "no" (no match, a broken chain, lists that differ, …: see its help)')}`;
}

/** Runs one command line; returns the exit code, or "running" when a server was started. */
export async function main(io: Io): Promise<number | "running"> {
  const [name, ...rest] = io.argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    if (name === undefined) {
      io.stderr(`${mainHelp()}\n`);
      return EXIT.invalidInput;
    }
    const topic = name === "help" ? COMMAND_CATALOG.find((command) => command.name === rest[0]) : undefined;
    io.stdout(`${topic === undefined ? mainHelp() : (await topic.load()).help}\n`);
    return EXIT.ok;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    io.stdout(`nettools ${packageJson.version}\n`);
    return EXIT.ok;
  }
  const entry = COMMAND_CATALOG.find((candidate) => candidate.name === name);
  const style = chooseStyle(io.stderrIsTty, io.env);
  if (entry === undefined) {
    io.stderr(`${style.red("error")}: unknown command "${name}"; run "nettools --help" for the list\n`);
    return EXIT.invalidInput;
  }
  try {
    const command = await entry.load();
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof InputTooLarge) {
      io.stderr(`${style.red("error")}: ${error.message}\n`);
      return EXIT.invalidInput;
    }
    if (error instanceof UsageError) {
      io.stderr(`${style.red("error")}: ${error.message}\nRun "nettools ${name} --help" for usage.\n`);
      return EXIT.invalidInput;
    }
    const description = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    io.stderr(`${style.red("error")} INTERNAL_ERROR: ${description}\n`);
    return EXIT.failure;
  }
}

/**
 * Runs `nettools` as this process: its arguments, environment, stdin and stdout; sets the exit
 * code. Node's own APIs only (stdin, files; Bun's file mapping when it is there), so the same code
 * runs under Bun (`src/cli/main.ts`, the compiled executable) and under plain Node (the npm
 * package, src/cli/node-bin.ts).
 */
export async function runAsProcess(): Promise<void> {
  // Worker copies started by the server's supervisor (WORKERS > 1) re-run this program without
  // arguments: they are servers.
  const argv = process.env.NETWORK_TOOLS_API_WORKER === "1" ? ["serve"] : process.argv.slice(2);
  const stdout = processStdout();
  const ports = composeCli();
  const decoder = new TextDecoder();
  const code = await main({
    argv,
    env: process.env,
    stdout: stdout.write,
    stderr: (text) => process.stderr.write(text),
    stdoutIsTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    readStdin: async (limit = INPUT_LIMITS.list) => decoder.decode(await ports.files.readStdin(limit)),
    readFile: async (path, limit = INPUT_LIMITS.list) =>
      decoder.decode(await ports.files.read(path, limit, { mapped: true })),
    bytes: {
      readStdin: (limit = INPUT_LIMITS.list) => ports.files.readStdin(limit),
      readFile: (path, limit = INPUT_LIMITS.list) =>
        ports.files.read(path, limit, {
          mapped: true,
          capRegularFiles: limit !== INPUT_LIMITS.searchedStream,
        }),
      stdout: stdout.writeBytes,
    },
    ports,
  });
  if (code !== "running" && ports.publicKeys.derivationLeftRunning()) {
    // A key derivation stopped at the deadline still runs on a worker thread: do not wait for it.
    process.exit(stdout.failure() === null ? code : EXIT.failure);
  }
  if (code !== "running") {
    process.exitCode = code;
    // A write error is reported asynchronously: decide the exit code once stdout has flushed.
    process.on("beforeExit", () => {
      if (stdout.failure() !== null) process.exitCode = EXIT.failure;
    });
  }
}

if (import.meta.main) await runAsProcess();
