// regate for Pi: every tool call goes through `regate serve` before it runs.
// allow lets it run; deny blocks it with regate's message; ask asks the user
// (approve once, approve for this session, deny) and blocks when there is
// no UI to ask with; "for this session" is recorded in regate serve, so the
// same call is allowed from then on. Any fault (regate not
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
  ui?: {
    confirm(title: string, message: string): Promise<boolean>;
    select?(title: string, options: string[]): Promise<string | undefined>;
  };
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
  surface: string;
  value: string;
  message: string;
}

// The choices of the ask dialog (the spec's y, s and n).
export const APPROVE_ONCE = "Approve once";
export const APPROVE_SESSION = "Approve for this session";
export const DENY = "Deny";

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): Options {
  const runtimeDir = env.XDG_RUNTIME_DIR;
  return {
    socket: env.REGATE_URL ? undefined : env.REGATE_SOCKET ?? (runtimeDir ? `${runtimeDir}/regate.sock` : "/tmp/regate.sock"),
    url: env.REGATE_URL,
    token: env.REGATE_TOKEN,
    timeoutMs: env.REGATE_TIMEOUT_MS ? Number(env.REGATE_TIMEOUT_MS) : 5000,
  };
}

// post sends one JSON request to regate serve and resolves with the status
// and the parsed body; it rejects on any transport fault or a body that is
// not JSON.
function post(path: string, payload: unknown, opts: Options): Promise<{ status: number; body: any }> {
  const body = JSON.stringify(payload);
  const target = opts.url ? new URL(path, opts.url) : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method: "POST",
        socketPath: target ? undefined : opts.socket,
        host: target ? target.hostname : "regate",
        port: target ? target.port : undefined,
        path,
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
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
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

// A call as regate serve takes it: regate's tool name and input.
export interface Call {
  tool: string;
  input: Record<string, unknown>;
}

const same = (tool: string) => (input: Record<string, unknown>): Call => ({ tool, input });

// TOOLS maps each Pi tool regate knows to regate's call, the one table of
// this mapping. Pi's built-ins (1.6.0 and 0.73.1, dist/core/tools/*.js)
// already carry regate's names and keys: bash {command}, read/write/edit
// {path}, grep {pattern, path?, glob?} (its file filter is the grep call's
// "glob", gated as a path), find {pattern, path?}, ls {path?}; powershell
// gets the shell rules. Pi 1.6's own MCP names a server's tools
// mcp__SERVER__TOOL (toCall, below); its resource tools read or list what
// one server serves, so they are calls of that server (mcp
// "SERVER:resources/read" with the uri; a file: uri meets the path rules),
// and keep their own name when they name no server (they list every
// server's). codemode runs a script in a QuickJS sandbox that reaches
// nothing but Pi's tools (each call it makes comes back through tool_call
// and is decided on its own) and the session's model; it goes to regate
// under its own name, which the bundled default policy allows. tool_search
// ranks the tools Pi knows and activates them. pi-mcp-adapter's proxy tool
// "mcp" ({tool, server?, args} for a call, or search/describe/connect) has
// its args (an object or a JSON string) become "arguments". Any other name
// goes to regate under its own name, so a policy key of that name decides
// it.
export const TOOLS: Record<string, (input: Record<string, unknown>) => Call> = {
  bash: same("bash"),
  read: same("read"),
  write: same("write"),
  edit: same("edit"),
  grep: same("grep"),
  find: same("find"),
  ls: same("ls"),
  powershell: same("bash"),
  codemode: same("codemode"),
  tool_search: same("tool_search"),
  read_mcp_resource: resource("read_mcp_resource", "resources/read"),
  list_mcp_resources: resource("list_mcp_resources", "resources/list"),
  list_mcp_resource_templates: resource("list_mcp_resource_templates", "resources/templates/list"),
  mcp: (input) => ({ tool: "mcp", input: withArguments(input) }),
};

// resource maps an MCP resource tool of Pi's ({server?, uri?, cursor?}) to
// the call of its server's method, the rest of its input the arguments.
function resource(name: string, method: string): (input: Record<string, unknown>) => Call {
  return (input) => {
    const { server, ...args } = input;
    if (typeof server !== "string" || server === "") return { tool: name, input };
    return { tool: "mcp", input: { server, tool: method, arguments: args } };
  };
}

// withArguments renames an MCP proxy call's "args" to regate's "arguments",
// parsing a JSON string; args that do not parse are kept as the string, so a
// path inside them is not read as one, and the call is decided on its target.
function withArguments(input: Record<string, unknown>): Record<string, unknown> {
  const { args, ...rest } = input;
  if (args === undefined || "arguments" in rest) return input;
  let parsed: unknown = args;
  if (typeof args === "string") {
    try {
      parsed = JSON.parse(args);
    } catch {
      parsed = args;
    }
  }
  return { ...rest, arguments: parsed };
}

// toCall maps one Pi tool call to regate's. Beside TOOLS, names that start
// with "mcp__" are MCP tools: mcp__SERVER__TOOL (Claude Code's spelling, used
// by MCP extensions that register each tool) is that tool on that server;
// pi-mcp-adapter's per-server proxy mcp__SERVER takes {tool, args}; its
// toolPrefix "mcp" names a tool mcp__SERVER_TOOL, where server and tool
// cannot be told apart, so that name is the target, on no server.
export function toCall(toolName: string, input: Record<string, unknown>): Call {
  const mapped = TOOLS[toolName];
  if (mapped) return mapped(input);
  const rest = toolName.startsWith("mcp__") ? toolName.slice("mcp__".length) : "";
  if (!rest) return { tool: toolName, input };
  const at = rest.indexOf("__");
  if (at > 0 && at + 2 < rest.length) {
    return { tool: "mcp", input: { server: rest.slice(0, at), tool: rest.slice(at + 2), arguments: input } };
  }
  if (at < 0 && typeof input.tool === "string") {
    return { tool: "mcp", input: { ...withArguments(input), server: rest } };
  }
  return { tool: "mcp", input: { tool: rest, arguments: input } };
}

// decide asks regate serve for the decision on one call; it rejects on any
// fault, which the caller turns into a block.
export async function decide(call: { tool: string; input: Record<string, unknown>; session?: string; cwd?: string }, opts: Options): Promise<Decision> {
  const { status, body } = await post("/v1/data/regate/decision", { input: call }, opts);
  const d = body?.result;
  if (status !== 200 || !d || !["allow", "ask", "deny"].includes(d.action)) {
    throw new Error(body?.message ?? `regate answered ${status}`);
  }
  return d as Decision;
}

// approve records a session approval of exactly the value the user was
// asked about. A value with "*" or "?" is not recorded: the pattern
// language reads them as wildcards, so the approval would admit more than
// the user saw (regate serve refuses it too, unless started with
// --allow-wide-approvals).
export async function approve(session: string, d: Decision, opts: Options): Promise<boolean> {
  if (!d.surface || !d.value || /[*?]/.test(d.value)) return false;
  const { status } = await post(`/v1/sessions/${encodeURIComponent(session)}/approvals`, { surface: d.surface, pattern: d.value }, opts);
  return status === 204;
}

// ask shows the dialog: select with the three choices where Pi offers it,
// else a yes/no confirm. Anything but an approval, including a dialog that
// fails, is a no.
async function ask(ctx: ExtensionContext, d: Decision): Promise<"once" | "session" | "no"> {
  try {
    if (ctx.ui?.select) {
      const choice = await ctx.ui.select(`regate: ${d.message}`, [APPROVE_ONCE, APPROVE_SESSION, DENY]);
      return choice === APPROVE_ONCE ? "once" : choice === APPROVE_SESSION ? "session" : "no";
    }
    return (await ctx.ui?.confirm("regate", d.message)) ? "once" : "no";
  } catch {
    return "no";
  }
}

// gate turns a decision into Pi's answer.
export async function gate(event: ToolCallEvent, ctx: ExtensionContext, opts: Options): Promise<ToolCallResult> {
  let d: Decision;
  const session = ctx.sessionManager?.getSessionFile();
  try {
    d = await decide({ ...toCall(event.toolName, event.input ?? {}), session, cwd: ctx.cwd }, opts);
  } catch (err) {
    return { block: true, reason: `[regate] blocked: ${(err as Error).message}` };
  }
  switch (d.action) {
    case "allow":
      return undefined;
    case "ask":
      if (ctx.hasUI && ctx.ui) {
        const answer = await ask(ctx, d);
        if (answer === "session" && session) {
          // The call runs either way; a failed recording only asks again later.
          await approve(session, d, opts).catch(() => false);
        }
        if (answer !== "no") return undefined;
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
