// regate for Pi: every tool call goes through `regate serve` before it runs.
// allow lets it run; deny blocks it with regate's message; ask asks the user
// (and blocks when there is no UI to ask with). Any fault (regate not
// running, a timeout, an answer that is not a decision) blocks the call:
// this extension fails closed.
//
// Configure with the environment: REGATE_SOCKET (a Unix socket, default
// $XDG_RUNTIME_DIR/regate.sock, else /tmp/regate.sock), or REGATE_URL (an
// http://127.0.0.1:PORT base), REGATE_TOKEN, REGATE_TIMEOUT_MS (default 5000).

import { request } from "node:http";

// The part of Pi's extension API this extension uses.
export interface ToolCallEvent {
  toolName: string;
  input: Record<string, unknown>;
}

export interface ExtensionContext {
  hasUI?: boolean;
  cwd?: string;
  ui?: { confirm(title: string, message: string): Promise<boolean> };
  sessionManager?: { getSessionFile(): string | undefined };
}

export type ToolCallResult = { block: true; reason: string } | undefined;

export interface ExtensionAPI {
  on(event: "tool_call", handler: (event: ToolCallEvent, ctx: ExtensionContext) => Promise<ToolCallResult>): void;
}

export interface Options {
  socket?: string;
  url?: string;
  token?: string;
  timeoutMs?: number;
}

export interface Decision {
  action: "allow" | "ask" | "deny";
  matched: string;
  layer: string;
  message: string;
}

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): Options {
  const runtimeDir = env.XDG_RUNTIME_DIR;
  return {
    socket: env.REGATE_URL ? undefined : env.REGATE_SOCKET ?? (runtimeDir ? `${runtimeDir}/regate.sock` : "/tmp/regate.sock"),
    url: env.REGATE_URL,
    token: env.REGATE_TOKEN,
    timeoutMs: env.REGATE_TIMEOUT_MS ? Number(env.REGATE_TIMEOUT_MS) : 5000,
  };
}

// decide asks regate serve for the decision on one call; it rejects on any
// fault, which the caller turns into a block.
export function decide(call: { tool: string; input: Record<string, unknown>; session?: string; cwd?: string }, opts: Options): Promise<Decision> {
  const body = JSON.stringify({ input: call });
  const target = opts.url ? new URL("/v1/data/regate/decision", opts.url) : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method: "POST",
        socketPath: target ? undefined : opts.socket,
        host: target ? target.hostname : "regate",
        port: target ? target.port : undefined,
        path: "/v1/data/regate/decision",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
        timeout: opts.timeoutMs ?? 5000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            const d = parsed?.result;
            if (res.statusCode !== 200 || !d || !["allow", "ask", "deny"].includes(d.action)) {
              reject(new Error(parsed?.message ?? `regate answered ${res.statusCode}`));
              return;
            }
            resolve(d as Decision);
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("regate did not answer in time")));
    req.on("error", reject);
    req.end(body);
  });
}

// gate turns a decision into Pi's answer.
export async function gate(event: ToolCallEvent, ctx: ExtensionContext, opts: Options): Promise<ToolCallResult> {
  let d: Decision;
  try {
    d = await decide({ tool: event.toolName, input: event.input ?? {}, session: ctx.sessionManager?.getSessionFile(), cwd: ctx.cwd }, opts);
  } catch (err) {
    return { block: true, reason: `[regate] blocked: ${(err as Error).message}` };
  }
  switch (d.action) {
    case "allow":
      return undefined;
    case "ask":
      if (ctx.hasUI && ctx.ui) {
        try {
          if (await ctx.ui.confirm("regate", d.message)) return undefined;
        } catch {
          // a dialog that fails is a no
        }
        return { block: true, reason: `${d.message} The user declined.` };
      }
      return { block: true, reason: `${d.message} There is no one to ask, so it is blocked.` };
    default:
      return { block: true, reason: d.message };
  }
}

export default function regate(pi: ExtensionAPI, opts: Options = optionsFromEnv()): void {
  pi.on("tool_call", (event, ctx) => gate(event, ctx, opts));
}
