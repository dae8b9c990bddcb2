/**
 * `conform verify FILE...`: recorded traffic judged as a run judges its own (`session.ts`): HAR 1.2 files and
 * go-vcr cassettes, each a suite of one case, its exchanges in the file's order (so the sequence judgements, rate
 * limits and page walks, see them as they happened). A file that is neither is a usage error (exit 2).
 * @module
 */
import { basename } from "node:path";
import type { RecordingGaps } from "../checks/types.ts";
import { callerOf } from "../core/caller.ts";
import { ConfigError } from "../core/errors.ts";
import type { RunFinished } from "../core/events.ts";
import { InputFileRefused, inputLimits, readInputFile } from "../core/input-file.ts";
import type { RunConfig } from "../runner/config.ts";
import { EventBus } from "../runner/event-bus.ts";
import { type RunOptions, selectChecks } from "../runner/run.ts";
import { loadSpec } from "../spec/load.ts";
import { readCassette } from "./cassette.ts";
import { isHar, readHar } from "./har.ts";
import { ExchangeRecorder, type ObservedExchange } from "./record.ts";
import { TrafficSession } from "./session.ts";

/** A method as HTTP writes it (a token), short. */
const methodShape = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,31}$/;

/**
 * What is wrong with one exchange of a recording, or undefined: every request names a method and its absolute
 * http(s) URL (a relative or missing one cannot be matched to an operation nor judged), a status is one of HTTP's.
 */
function entryProblem(exchange: ObservedExchange): string | undefined {
  if (!methodShape.test(exchange.method))
    return `has no HTTP method (${JSON.stringify(exchange.method.slice(0, 40))})`;
  const url = URL.parse(exchange.url);
  if (!url || !/^https?:$/.test(url.protocol))
    return `has no absolute http(s) URL (${JSON.stringify(exchange.url.slice(0, 80))})`;
  const status = exchange.response?.status;
  if (status !== undefined && !(Number.isInteger(status) && status >= 100 && status <= 599))
    return `has no HTTP status (${String(status).slice(0, 20)})`;
  const error = exchange.error;
  if (error && (typeof error.code !== "string" || typeof error.message !== "string"))
    return "has an error that is not a code and a message";
  return undefined;
}

/** The exchanges a recording holds, whichever of the two formats it is in; every one checked ({@link entryProblem}). */
export function readRecording(text: string, file: string): ObservedExchange[] {
  const exchanges = parseRecording(text, file);
  exchanges.forEach((exchange, index) => {
    const problem = entryProblem(exchange);
    if (problem)
      throw new ConfigError(`${file}: exchange ${index + 1} ${problem}: not a recording conform can judge`);
  });
  return exchanges;
}

function parseRecording(text: string, file: string): ObservedExchange[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(
        `${file}: not JSON (${(error as Error).message}): give a HAR 1.2 file or a go-vcr cassette`,
      );
    }
    if (isHar(value)) {
      try {
        return readHar(value);
      } catch (error) {
        throw new ConfigError(`${file}: not a HAR file conform can judge: ${(error as Error).message}`);
      }
    }
    throw new ConfigError(`${file}: JSON without log.entries: not a HAR file`);
  }
  try {
    return readCassette(text);
  } catch (error) {
    throw new ConfigError(
      `${file}: neither a HAR file nor a go-vcr cassette (${(error as Error).message.split("\n")[0]})`,
    );
  }
}

/** Suite ids of the files: their base names, made unique. */
function sourceIds(files: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return files.map((file) => {
    const name = `verify:${basename(file)}`;
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count > 1 ? `${name}#${count}` : name;
  });
}

/**
 * What one file's recording may lack: what its reader found (a cassette's kept headers; a HAR keeps every answer
 * header), and whether it kept the requests' Authorization header (shown on any of them: then a request without
 * one was sent without one).
 */
function gapsOf(exchanges: readonly ObservedExchange[]): (observed: ObservedExchange) => RecordingGaps {
  const authorizationKept = exchanges.some((exchange) => exchange.requestHeaders.authorization !== undefined);
  const whole: RecordingGaps = Object.freeze({ authorizationKept });
  const byReader = new Map<RecordingGaps, RecordingGaps>();
  return (observed) => {
    if (!observed.recording) return whole;
    const known = byReader.get(observed.recording);
    if (known) return known;
    const gaps = { ...observed.recording, authorizationKept };
    byReader.set(observed.recording, gaps);
    return gaps;
  };
}

/** The files judged, for the header: the first few and how many more (each file's suite names it in full). */
function filesText(files: readonly string[]): string {
  const shown = 3;
  if (files.length <= shown + 1) return files.join(", ");
  return `${files.slice(0, shown).join(", ")} and ${files.length - shown} more`;
}

export interface VerifyOptions extends RunOptions {
  readonly files: readonly string[];
  /** The API's base URL in the recordings, when the path after `/v<N>` does not find the operation. */
  readonly baseUrl?: string;
}

export async function verifyRecordings(config: RunConfig, options: VerifyOptions): Promise<RunFinished> {
  if (options.files.length === 0) throw new ConfigError("conform verify needs at least one FILE");
  const checks = selectChecks(config.checks, config.excludeChecks);
  const spec = await loadSpec(config.specPath);
  // Read and parse every file before the first event: a bad file is a usage error, not half a report.
  const recordings = await Promise.all(
    options.files.map(async (file) => {
      let text: string;
      try {
        text = readInputFile(file, inputLimits.recording);
      } catch (error) {
        if (!(error instanceof InputFileRefused)) throw error;
        throw new ConfigError(`${file}: ${error.message}`);
      }
      return readRecording(text, file);
    }),
  );
  const ids = sourceIds(options.files);
  const bus = new EventBus();
  for (const listener of options.listeners) bus.subscribe(listener);
  const session = new TrafficSession(
    {
      runId: options.runId,
      spec,
      checks,
      bus,
      target: filesText(options.files),
      toolVersion: options.toolVersion,
      keptBodyBytes: config.keptBodyBytes,
      keptReportBytes: config.keptReportBytes,
    },
    ids.map((id, index) => ({ id, title: `recorded traffic in ${options.files[index]}` })),
  );
  // One recorder for all files: ids stay unique over the run, and a secret one file reveals is scrubbed in all.
  const recorder = new ExchangeRecorder(spec, options.baseUrl);
  // Every file is read before the first is recorded: a secret learnt late (a token a later answer names, an
  // Authorization value) is scrubbed from the exchanges before it too, where it appeared in free text.
  for (const exchanges of recordings) for (const observed of exchanges) recorder.learn(observed);
  for (const [index, exchanges] of recordings.entries()) {
    const id = ids[index]!;
    const gaps = gapsOf(exchanges);
    for (const observed of exchanges) {
      if (options.signal.aborted) break;
      const caller = callerOf(observed.requestHeaders);
      session.add(id, recorder.record(observed), caller, gaps(observed));
    }
    session.finishSource(id);
  }
  const finished = session.finish(options.signal);
  await bus.flush();
  return finished;
}
