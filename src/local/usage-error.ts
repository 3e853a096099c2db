/**
 * A request put the wrong way (an option's value, a set's name): the CLI prints it with a pointer
 * to the help and exits 2; the page shows it beside the form. Lives here so that the code both
 * share (src/local/list-render.ts) can throw it without importing the CLI.
 */
export class UsageError extends Error {}
