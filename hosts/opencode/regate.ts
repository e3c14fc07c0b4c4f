// regate for OpenCode: before every tool call, OpenCode's "tool.execute.before"
// hook runs `regate hook opencode`, and the call runs only on a well-formed
// allow. A deny blocks it with regate's reason; an ask blocks it too (a
// plugin cannot show OpenCode's dialog) and says how to approve; any fault
// (regate missing, a non-zero exit, an answer that is not a decision, a
// timeout) blocks it: this plugin fails closed. OpenCode 1.18.33 turns the
// thrown Error into the tool's error result, which the model sees.
//
// Install: copy this file to .opencode/plugin/ (one project) or
// ~/.config/opencode/plugin/ (every project). One file, no dependency:
// OpenCode loads it as TypeScript. Settings, from the environment or the
// plugin's options in opencode.json ("plugin": [["file:///…/regate.ts",
// {"policy": "…"}]]), the environment first: REGATE_BIN / bin (default
// `regate` on PATH), REGATE_POLICY / policy (the --policy rule file; else
// regate's default), REGATE_TIMEOUT_MS / timeoutMs (default 12000, above
// regate's own 10 s hook deadline), and options.args (more flags, a list).
//
// OpenCode calls every export of a plugin file as a plugin, so this file
// exports one function only.

import { spawn } from "node:child_process";

// OpenCode 1.18.33's own tools. Any other name is an MCP tool (named
// SERVER_TOOL, both parts with every character outside [A-Za-z0-9_-] made
// "_") or a tool added by a plugin or .opencode/tool/.
const OPENCODE_TOOLS = new Set([
  "bash", "read", "write", "edit", "multiedit", "patch", "apply_patch", "glob", "grep", "list", "task",
  "webfetch", "websearch", "codesearch", "todowrite", "todoread", "question", "skill", "lsp", "batch",
  "plan_enter", "plan_exit", "invalid", "execute", "list_mcp_resources", "list_mcp_resource_templates",
  "read_mcp_resource",
]);

type Options = { bin?: string; policy?: string; args?: string[]; timeoutMs?: number };
type Answer = { decision: string; reason?: string; surface?: string; value?: string };
type Settings = { bin: string; policy?: string; args: string[]; timeoutMs: number };

function settings(options: Options): Settings {
  const env = process.env;
  const policy = env.REGATE_POLICY || options.policy;
  const args = ["hook", "opencode", ...(policy ? ["--policy", policy] : []), ...(options.args ?? [])];
  const raw = env.REGATE_TIMEOUT_MS ?? options.timeoutMs;
  const timeoutMs = Number(raw ?? 12000);
  return { bin: env.REGATE_BIN || options.bin || "regate", policy, args, timeoutMs: timeoutMs > 0 ? timeoutMs : 12000 };
}

// runRegate runs regate once: the request on stdin, the answer on stdout. It
// rejects on every fault, with the reason the model will read.
function runRegate(s: Settings, request: unknown, cwd: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const child = spawn(s.bin, s.args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`regate did not answer within ${s.timeoutMs} ms`));
    }, s.timeoutMs);
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (err += c));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${s.bin}: ${e.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(err.trim() || `regate exited with ${signal ?? code}`));
        return;
      }
      let a: unknown;
      try {
        a = JSON.parse(out);
      } catch {
        reject(new Error(`regate's answer is not JSON: ${JSON.stringify(out.slice(0, 200))}`));
        return;
      }
      const d = (a as Answer | null)?.decision;
      if (!a || typeof a !== "object" || !["allow", "ask", "deny"].includes(d as string)) {
        reject(new Error(`regate's answer is not a decision: ${JSON.stringify(out.slice(0, 200))}`));
        return;
      }
      resolve(a as Answer);
    });
    // A regate that exits before reading stdin closes the pipe: that is its
    // exit status's business, not an uncaught EPIPE.
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(request));
  });
}

// How long OpenCode may take to list its MCP servers (an in-process call).
const MCP_LIST_TIMEOUT_MS = 3000;

const sanitize = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, "_");

// mcpServer finds the MCP server a tool name belongs to, the longest
// configured server name whose OpenCode spelling prefixes it; undefined when
// none does. It throws when OpenCode cannot list its servers, so that a
// call that may be an MCP call is not decided as something else.
async function mcpServer(client: any, tool: string): Promise<{ server: string; tool: string } | undefined> {
  const res = await client.mcp.status();
  const servers = res?.data;
  if (!servers || typeof servers !== "object") throw new Error("OpenCode did not list its MCP servers");
  let best: string | undefined;
  for (const name of Object.keys(servers)) {
    const prefix = sanitize(name) + "_";
    if (tool.startsWith(prefix) && tool.length > prefix.length && (!best || sanitize(best).length < sanitize(name).length)) {
      best = name;
    }
  }
  return best === undefined ? undefined : { server: best, tool: tool.slice(sanitize(best).length + 1) };
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export const RegatePlugin = async (ctx: { directory?: string; worktree?: string; client?: any } = {}, options: Options = {}) => {
  const s = settings(options ?? {});
  const cwd = ctx.directory || ctx.worktree || process.cwd();
  return {
    "tool.execute.before": async (input: { tool: string; sessionID: string; callID: string }, output: { args: unknown }) => {
      const request: Record<string, unknown> = {
        hook_event_name: "tool.execute.before",
        tool: input.tool,
        sessionID: input.sessionID,
        callID: input.callID,
        args: output.args ?? {},
        cwd,
      };
      let answer: Answer;
      try {
        if (!OPENCODE_TOOLS.has(input.tool)) {
          const mcp = await withTimeout(mcpServer(ctx.client, input.tool), MCP_LIST_TIMEOUT_MS).catch((e: Error) => {
            throw new Error(`cannot tell whether ${input.tool} is an MCP tool: ${e.message}`);
          });
          if (mcp) request.mcp = mcp;
        }
        answer = await runRegate(s, request, cwd);
      } catch (e) {
        throw new Error(`[regate] blocked: ${(e as Error).message}`);
      }
      const reason = answer.reason || `[regate] ${answer.decision}`;
      if (answer.decision === "allow") return;
      if (answer.decision === "deny") throw new Error(reason);
      // regate approve records the approval under the policy the hook
      // compiles, so it needs the same --policy.
      const quote = (v: string) => (/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
      const policy = s.policy ? ` --policy ${quote(s.policy)}` : "";
      const what = answer.surface && answer.value ? `${answer.surface} ${quote(answer.value)}` : "SURFACE VALUE (as named above)";
      throw new Error(
        `${reason} This call needs approval, and a plugin cannot ask in OpenCode, so it is blocked. ` +
          `To allow it, add a rule to the policy, or approve it for this session: regate approve --session ${input.sessionID}${policy} ${what}`,
      );
    },
  };
};

export default RegatePlugin;
