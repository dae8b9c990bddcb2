/**
 * Reading a request body: capped in size, parsed by content type, hostile input turned into clear 400s.
 * JSON is parsed without `__proto__` keys (they could reach an object's prototype when records are built).
 * Forms (the OAuth token endpoint) are parsed by the platform's own `Response.formData()` (urlencoded and multipart).
 * @module
 */
import type { IncomingMessage } from "node:http";

export type BodyRead =
  | { readonly kind: "empty" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "form"; readonly value: Record<string, string> }
  | { readonly kind: "malformed"; readonly reason: string }
  | { readonly kind: "unsupported"; readonly contentType: string };

/** Reads the whole body, or stops at `limit` bytes (the rest is drained so the connection stays usable). */
export async function readRaw(request: IncomingMessage, limit: number): Promise<Buffer | "too-large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) tooLarge = true;
    else chunks.push(buffer);
  }
  return tooLarge ? "too-large" : Buffer.concat(chunks);
}

const noProto = (key: string, value: unknown): unknown => (key === "__proto__" ? undefined : value);

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Parses `raw` per its content type; `accepted` are the media types the operation takes. */
export async function parseBody(
  raw: Buffer,
  contentType: string | undefined,
  accepted: readonly string[],
): Promise<BodyRead> {
  if (raw.length === 0) return { kind: "empty" };
  const type = mediaType(contentType);
  if (!accepted.includes(type)) return { kind: "unsupported", contentType: type || "(none)" };
  if (type === "application/json") {
    try {
      return { kind: "json", value: JSON.parse(raw.toString("utf8"), noProto) };
    } catch (error) {
      const reason =
        error instanceof RangeError ? "Request body nests too deeply" : "Request body is not valid JSON";
      return { kind: "malformed", reason };
    }
  }
  try {
    const form = await new Response(new Uint8Array(raw), {
      headers: { "content-type": contentType ?? type },
    }).formData();
    const value: Record<string, string> = Object.create(null);
    for (const [key, entry] of form) if (typeof entry === "string") value[key] = entry;
    return { kind: "form", value };
  } catch {
    return { kind: "malformed", reason: `Request body is not valid ${type}` };
  }
}
