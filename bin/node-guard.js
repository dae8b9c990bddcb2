// Plain JavaScript that any Node parses: bin/conform.js runs it before it loads the TypeScript sources.

/** The oldest Node that runs conform: it strips TypeScript types itself (there is no build step). */
export const minimumNode = [22, 19];

/** One line saying which Node conform needs and how to run it, or undefined when `version` will do. */
export function nodeVersionProblem(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  if (major > minimumNode[0] || (major === minimumNode[0] && minor >= minimumNode[1])) return undefined;
  return (
    `conform needs Node ${minimumNode.join(".")} or newer (this is Node ${version.replace(/^v/, "")}): ` +
    "run it with `npm run conform -- <command>` in its checkout or `npx conform <command>`, which use the Node 24 its `npm ci` installs"
  );
}

/**
 * Under `npm run`, the working folder is the checkout, not where the command was typed (npm keeps that in
 * INIT_CWD): going back there makes every relative path (`--suite-path`, `--ca`, `--report-dir`, ...) mean what
 * the person typing it meant.
 */
export function callerFolder(env) {
  return env.npm_lifecycle_event && env.INIT_CWD ? env.INIT_CWD : undefined;
}
