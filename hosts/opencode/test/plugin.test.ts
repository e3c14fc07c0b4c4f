// The plugin through its one export, as OpenCode calls it: against a stub
// regate (test/stub-regate.mjs) for every answer and fault, and against the
// real `regate hook opencode` when REGATE_BIN names a regate that has it.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

import RegatePlugin, * as exported from "../regate.js";

const here = dirname(fileURLToPath(import.meta.url));
// The stub sits beside this file's source, two levels above dist/test/.
const stub = join(here, "..", "..", "test", "stub-regate.mjs");
const dir = mkdtempSync(join(tmpdir(), "regate-opencode-"));
const log = join(dir, "stub.log");
const realBin = process.env.REGATE_BIN;

type Hook = (input: { tool: string; sessionID: string; callID: string }, output: { args: unknown }) => Promise<void>;

const noClient = { mcp: { status: async () => { throw new Error("the MCP servers were listed for a tool of OpenCode's own"); } } };

async function hook(mode: string, opts: { client?: unknown; options?: Record<string, unknown>; env?: Record<string, string> } = {}): Promise<Hook> {
  for (const k of ["REGATE_BIN", "REGATE_POLICY", "REGATE_TIMEOUT_MS"]) delete process.env[k];
  process.env.REGATE_BIN = stub;
  process.env.STUB_MODE = mode;
  process.env.STUB_LOG = log;
  Object.assign(process.env, opts.env ?? {});
  const hooks = await RegatePlugin({ directory: dir, worktree: dir, client: opts.client ?? noClient }, opts.options as never);
  const h = hooks["tool.execute.before"];
  assert.equal(typeof h, "function", "the plugin returns a tool.execute.before hook");
  return h;
}

const bash = (command: string) => [{ tool: "bash", sessionID: "ses_1", callID: "call_1" }, { args: { command, description: "d" } }] as const;

function calls(): { argv: string[]; cwd: string; stdin: Record<string, unknown> }[] {
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
}

beforeEach(() => writeFileSync(log, ""));

test("the file exports one function only: OpenCode calls every export as a plugin", () => {
  const values = new Set(Object.values(exported));
  assert.equal(values.size, 1);
  assert.equal(typeof [...values][0], "function");
});

test("allow lets the call run; regate gets the call on stdin", async () => {
  const h = await hook("allow");
  await h(...bash("git status"));
  const [c] = calls();
  assert.deepEqual(c.argv, ["hook", "opencode"]);
  assert.equal(c.cwd, dir);
  assert.deepEqual(c.stdin, {
    hook_event_name: "tool.execute.before", tool: "bash", sessionID: "ses_1", callID: "call_1",
    args: { command: "git status", description: "d" }, cwd: dir,
  });
});

test("the policy and extra flags reach regate: environment first, then the plugin's options", async () => {
  await (await hook("allow", { options: { policy: "/opt/p.jsonc", args: ["--deadline", "5s"] } }))(...bash("ls"));
  await (await hook("allow", { options: { policy: "/opt/p.jsonc" }, env: { REGATE_POLICY: "/home/u/my policy.jsonc" } }))(...bash("ls"));
  assert.deepEqual(calls().map((c) => c.argv), [
    ["hook", "opencode", "--policy", "/opt/p.jsonc", "--deadline", "5s"],
    ["hook", "opencode", "--policy", "/home/u/my policy.jsonc"],
  ]);
});

test("deny blocks with regate's reason", async () => {
  await assert.rejects((await hook("deny"))(...bash("rm -rf build")), { message: "[regate] no rm -rf here" });
});

test("ask blocks and says how to approve", async () => {
  const err = await (await hook("ask"))(...bash("make deploy")).then(() => undefined, (e: Error) => e);
  assert.ok(err, "ask blocks");
  assert.match(err.message, /^\[regate\] make deploy needs approval/);
  assert.match(err.message, /a rule to the policy/);
  assert.match(err.message, /regate approve --session ses_1 /);
  await assert.rejects((await hook("ask-with-value"))(...bash("x")), { message: /regate approve --session ses_1 bash 'it'\\''s'$/ });
  await assert.rejects((await hook("ask-with-value", { env: { REGATE_POLICY: "/home/u/my policy.jsonc" } }))(...bash("x")),
    { message: /regate approve --session ses_1 --policy '\/home\/u\/my policy.jsonc' bash 'it'\\''s'$/ }, "approve needs the hook's policy");
});

test("anything but a well-formed allow blocks", async () => {
  for (const mode of ["not-json", "no-decision", "other-decision"]) {
    await assert.rejects((await hook(mode))(...bash("git status")), { message: /^\[regate\] blocked: regate's answer is not/ }, mode);
  }
  await assert.rejects((await hook("fault"))(...bash("git status")), { message: /^\[regate\] blocked: regate: policy.jsonc:3: unexpected token$/ },
    "a non-zero exit blocks even with an allow on stdout");
  await assert.rejects((await hook("allow", { env: { REGATE_BIN: join(dir, "no-such-regate") } }))(...bash("ls")), { message: /^\[regate\] blocked: cannot run/ });
});

test("a regate that does not answer in time blocks, at the plugin's own timeout", async () => {
  const h = await hook("slow", { env: { REGATE_TIMEOUT_MS: "300" } });
  const start = Date.now();
  await assert.rejects(h(...bash("git status")), { message: /did not answer within 300 ms/ });
  assert.ok(Date.now() - start < 3000, "blocked at the timeout, not when regate finished");
});

test("an MCP tool carries its server and tool, told apart by OpenCode's server list", async () => {
  const client = { mcp: { status: async () => ({ data: { "my files": { status: "connected" }, a: { status: "connected" }, a_b: { status: "failed" } } }) } };
  const h = await hook("allow", { client });
  await h({ tool: "my_files_delete", sessionID: "s", callID: "c" }, { args: { path: "/x" } });
  await h({ tool: "a_b_c", sessionID: "s", callID: "c" }, { args: {} });
  await h({ tool: "custom_tool", sessionID: "s", callID: "c" }, { args: {} });
  const [files, ab, custom] = calls().map((c) => c.stdin);
  assert.deepEqual(files.mcp, { server: "my files", tool: "delete" });
  assert.deepEqual(files.args, { path: "/x" });
  assert.deepEqual(ab.mcp, { server: "a_b", tool: "c" }, "the longest server name wins");
  assert.equal(custom.mcp, undefined, "a tool of no MCP server has no mcp key");
});

test("a tool that may be an MCP tool is blocked when OpenCode cannot list its servers", async () => {
  for (const client of [{ mcp: { status: async () => ({ error: { message: "boom" } }) } }, {}, { mcp: { status: () => new Promise(() => {}) } }]) {
    await assert.rejects((await hook("allow", { client }))({ tool: "files_delete", sessionID: "s", callID: "c" }, { args: {} }),
      { message: /^\[regate\] blocked: cannot tell whether files_delete is an MCP tool/ });
  }
  assert.equal(calls().length, 0, "regate was not asked");
});

// The real codec, once `regate hook opencode` exists.
function realHasOpencode(): boolean {
  if (!realBin) return false;
  // `regate hook --help` succeeds for any host name: ask for a decision.
  const r = spawnSync(realBin, ["hook", "opencode"], { encoding: "utf8", input: "{}" });
  return !r.error && !/unknown host/i.test(r.stdout + r.stderr);
}

test("against the real regate hook opencode", { skip: !realHasOpencode() && "REGATE_BIN has no `regate hook opencode` yet" }, async () => {
  const policy = join(dir, "policy.jsonc");
  writeFileSync(policy, JSON.stringify({ permission: { "*": "ask", bash: { "*": "ask", "git status": "allow", "rm -rf *": "deny" } } }));
  const real = async () => hook("", { env: { REGATE_BIN: realBin!, REGATE_POLICY: policy } });
  await (await real())(...bash("git status"));
  await assert.rejects((await real())(...bash("git status && rm -rf build")), { message: /rm -rf build/ });
  await assert.rejects((await real())(...bash("make deploy")), { message: /regate approve --session ses_1/ });
});
