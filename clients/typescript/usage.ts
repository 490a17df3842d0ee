// How an app uses the generated types (schema.d.ts, from the server's OpenAPI document).
// CI regenerates schema.d.ts and type-checks this file: a contract change that breaks apps
// breaks the build here first.
import type { components, paths } from "./schema";

type Schemas = components["schemas"];
export type ScanCreate = Schemas["ScanCreate"];
export type SolutionResponse = Schemas["SolutionResponse"];
export type ScanAccepted = Schemas["ScanAccepted"];
export type ScanOut = Schemas["ScanOut"];
export type ScanPage = Schemas["ScanPage"];
export type ScanState = Schemas["ScanState"];
export type ErrorResponse = Schemas["ErrorResponse"];
export type ErrorCode = ErrorResponse["error"]["code"];
export type FailedEvent = Schemas["FailedEvent"];
export type SettledEvent = Schemas["SettledEvent"];

// Request and response types taken from the operations themselves, not hand-written.
type CreateScan = paths["/v1/scans"]["post"];
type CreateScanBody = CreateScan["requestBody"]["content"]["application/json"];
type CreateScanSolved = CreateScan["responses"][201]["content"]["application/json"];
type CreateScanQueued = CreateScan["responses"][202]["content"]["application/json"];
type GetScanOk = paths["/v1/scans/{scan_id}"]["get"]["responses"][200]["content"]["application/json"];
type ListScansQuery = NonNullable<paths["/v1/scans"]["get"]["parameters"]["query"]>;
type ListScansOk = paths["/v1/scans"]["get"]["responses"][200]["content"]["application/json"];
type NotFound = paths["/v1/scans/{scan_id}"]["get"]["responses"][404]["content"]["application/json"];

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorResponse,
  ) {
    super(`${body.error.code}: ${body.error.message}`);
  }
}

async function call<T>(base: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(base + path, {
    ...init,
    headers: { "content-type": "application/json", ...init.headers },
  });
  if (!response.ok) {
    throw new ApiFailure(response.status, (await response.json()) as ErrorResponse);
  }
  return (await response.json()) as T;
}

/** POST /v1/scans: 201 with the solution, or 202 when queued (`Prefer: respond-async`). */
export async function createScan(
  base: string,
  body: CreateScanBody,
  options: { async?: boolean; idempotencyKey?: string } = {},
): Promise<CreateScanSolved | CreateScanQueued> {
  const headers: Record<string, string> = {};
  if (options.async) headers["Prefer"] = "respond-async";
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  return call(base, "/v1/scans", { method: "POST", body: JSON.stringify(body), headers });
}

export function isQueued(reply: CreateScanSolved | CreateScanQueued): reply is CreateScanQueued {
  return "state" in reply && !("solution_id" in reply);
}

/** GET /v1/scans/{id}. */
export function getScan(base: string, scanId: string): Promise<GetScanOk> {
  return call(base, `/v1/scans/${encodeURIComponent(scanId)}`);
}

/** What an app shows for each state; the switch must cover every state the API can send. */
export function describe(scan: ScanOut): string {
  const state: ScanState = scan.state;
  switch (state) {
    case "queued":
    case "running":
      return "Working on it…";
    case "done":
      return scan.solution?.final_answer ?? "No answer";
    case "failed":
      return `Failed: ${scan.failure_code ?? "unknown"}`;
    default: {
      const unreachable: never = state;
      return unreachable;
    }
  }
}

/** Poll until the scan is done or failed. */
export async function waitForScan(base: string, scanId: string): Promise<ScanOut> {
  for (;;) {
    const scan = await getScan(base, scanId);
    if (scan.state === "done" || scan.state === "failed") return scan;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** GET /v1/scans: every page of one user's history, newest first (keyset cursor). */
export async function* listScans(base: string, userId: string): AsyncGenerator<ScanOut> {
  let cursor: string | null = null;
  do {
    const query: ListScansQuery = { user_id: userId, limit: 50, ...(cursor ? { cursor } : {}) };
    const search = new URLSearchParams(
      Object.entries(query).map(([key, value]) => [key, String(value)]),
    );
    const page: ListScansOk = await call<ScanPage>(base, `/v1/scans?${search}`);
    yield* page.items;
    cursor = page.next_cursor;
  } while (cursor);
}

/** The error envelope: one shape for every 4xx/5xx. */
export function explain(error: NotFound): string {
  const details = error.error.details ?? [];
  return [error.error.code, ...details.map((d) => `${d.field}: ${d.problem}`)].join("; ");
}

// Requests as an app writes them: only `text` is required, and a misspelled or unknown
// field fails to compile.
export const minimal: CreateScanBody = { text: "3/4 + 5/6 = ?" };
export const example: CreateScanBody = {
  text: "Solve 2x + 3 = 11",
  subject: "math",
  grade: "7",
  user_id: "user_8c1f2a",
};

/** A scan's event stream (browsers: `?access_token=`): the typed `data` of `failed` and
 * `settled`, the two events after which the app closes the EventSource. */
export function followScan(
  url: string,
  onSettled: (data: SettledEvent) => void,
  onFailed: (data: FailedEvent) => void,
): EventSource {
  const source = new EventSource(url);
  source.addEventListener("settled", (event) => {
    source.close();
    onSettled(JSON.parse((event as MessageEvent<string>).data) as SettledEvent);
  });
  source.addEventListener("failed", (event) => {
    source.close();
    onFailed(JSON.parse((event as MessageEvent<string>).data) as FailedEvent);
  });
  return source;
}

/** Error codes are an enum: a misspelled code fails to compile. */
export function shouldRetake(code: ErrorCode): boolean {
  return code === "retake_photo" || code === "corrupt_image";
}
