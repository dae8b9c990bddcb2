// Plain JavaScript that any Node parses: bin/conform.js runs it before it loads conform's modules.

/** The oldest Node that runs conform (package.json `engines`): the checkout's sources need its type stripping. */
export const minimumNode = [22, 19];

/** One line saying which Node conform needs and how to run it, or undefined when `version` will do. */
export function nodeVersionProblem(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  if (major > minimumNode[0] || (major === minimumNode[0] && minor >= minimumNode[1])) return undefined;
  return (
    `conform needs Node ${minimumNode.join(".")} or newer (this is Node ${version.replace(/^v/, "")}): ` +
    "in conform's checkout, `npm run conform -- <command>` runs it on the Node 24 that `npm ci` installs there; " +
    "where conform is installed as a package, `npx conform` needs a newer Node on the PATH"
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
