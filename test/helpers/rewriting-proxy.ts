/**
 * A proxy of our own in front of a server (node:http on 127.0.0.1), forwarding every request as it came and every
 * answer's body as it comes, with the answer's headers handed to `rewrite` first (to break one header on every
 * answer, or relabel JSON) along with the whole body once it has gone by (to see what the target handed out).
 */
import { createServer, type IncomingHttpHeaders, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface RewritingProxy {
  /** `http://127.0.0.1:<port>`: the upstream's paths are kept. */
  readonly origin: string;
  close(): Promise<void>;
}

export async function startRewritingProxy(
  upstreamOrigin: string,
  rewrite: (headers: IncomingHttpHeaders, body: Promise<Buffer>) => void,
  /** Sees each request's headers as they came (what the client sent). */
  seeRequest: (headers: IncomingHttpHeaders) => void = () => {},
): Promise<RewritingProxy> {
  const upstream = new URL(upstreamOrigin);
  const proxy = createServer((incoming, outgoing) => {
    seeRequest(incoming.headers);
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        const headers = { ...answer.headers };
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        rewrite(headers, new Promise((resolve) => answer.on("end", () => resolve(Buffer.concat(chunks)))));
        outgoing.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(outgoing);
      },
    );
    forward.on("error", () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
