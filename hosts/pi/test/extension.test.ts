// The extension against a real `regate serve`: REGATE_BIN names the regate
// binary (.ci/run builds it); the test starts it on a temporary socket.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

import regate, { gate, toCall, TOOLS, APPROVE_ONCE, APPROVE_SESSION, DENY, type ExtensionAPI, type ToolCallEvent, type ExtensionContext, type ToolCallResult } from "../src/index.js";

const bin = process.env.REGATE_BIN ?? "regate";
const dir = mkdtempSync(join(tmpdir(), "regate-pi-"));
const socket = join(dir, "regate.sock");
let server: ChildProcess;

before(async () => {
  const policy = join(dir, "policy.jsonc");
  writeFileSync(policy, JSON.stringify({ permission: {
    "*": "ask",
    bash: { "*": "ask", "git status": "allow", "rm -rf *": "deny" },
    mcp: { "*": "ask", "docs:search": "allow", "files:*": "deny" },
  } }));
  server = spawn(bin, ["serve", "--policy", policy, "--socket", socket, "--cwd", dir], { stdio: "inherit" });
  for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(existsSync(socket), "regate serve did not start");
});

after(() => {
  server?.kill("SIGTERM");
});

function handler(): (e: ToolCallEvent, c: ExtensionContext) => Promise<ToolCallResult> {
  let h: ((e: ToolCallEvent, c: ExtensionContext) => Promise<ToolCallResult>) | undefined;
  const pi: ExtensionAPI = { on: (_name, fn) => { h = fn; } };
  regate(pi, { socket });
  assert.ok(h, "the extension registers a tool_call handler");
  return h!;
}

const bash = (command: string): ToolCallEvent => ({ toolName: "bash", input: { command } });

test("allow lets the call run", async () => {
  assert.equal(await handler()(bash("git status"), {}), undefined);
});

test("deny blocks with regate's message", async () => {
  const r = await handler()(bash("git status && rm -rf build"), {});
  assert.equal(r?.block, true);
  assert.match(r!.reason, /rm -rf build/);
});

test("ask asks the user, and blocks on no or without a UI", async () => {
  let asked = "";
  const yes: ExtensionContext = { hasUI: true, ui: { confirm: async (_t, m) => { asked = m; return true; } } };
  assert.equal(await handler()(bash("make deploy"), yes), undefined);
  assert.match(asked, /make deploy/);
  const no: ExtensionContext = { hasUI: true, ui: { confirm: async () => false } };
  assert.equal((await handler()(bash("make deploy"), no))?.block, true);
  assert.equal((await handler()(bash("make deploy"), {}))?.block, true);
});

test("approve for this session is recorded: the same call no longer asks", async () => {
  const session = "/sessions/pi-1.jsonl";
  const sessionManager = { getSessionFile: () => session };
  let dialogs = 0;
  const choose = (choice: string): ExtensionContext => ({
    hasUI: true, sessionManager,
    ui: { confirm: async () => false, select: async (_t, options) => { dialogs++; assert.deepEqual(options, [APPROVE_ONCE, APPROVE_SESSION, DENY]); return choice; } },
  });
  assert.equal(await handler()(bash("make release"), choose(APPROVE_ONCE)), undefined);
  assert.equal(dialogs, 1);
  assert.equal(await handler()(bash("make release"), choose(APPROVE_SESSION)), undefined);
  assert.equal(dialogs, 2, "approve once is not remembered");
  assert.equal(await handler()(bash("make release"), choose(DENY)), undefined);
  assert.equal(dialogs, 2, "the session approval answers without a dialog");
  assert.equal((await handler()(bash("make release"), { ...choose(DENY), sessionManager: { getSessionFile: () => "/sessions/other.jsonl" } }))?.block, true, "another session still asks");
  assert.equal((await handler()(bash("make release --force"), choose(DENY)))?.block, true, "only the exact command was approved");
  assert.equal((await handler()(bash("make"), choose("")))?.block, true, "a dismissed dialog is a no");
});

test("a value with * or ? is approved once, never for the session: as a pattern it would admit more", async () => {
  const sessionManager = { getSessionFile: () => "/sessions/pi-wild.jsonl" };
  const choose = (choice: string): ExtensionContext => ({ hasUI: true, sessionManager, ui: { confirm: async () => false, select: async () => choice } });
  for (const command of ["make build/?.o", "make build/*.o"]) {
    assert.equal(await handler()(bash(command), choose(APPROVE_SESSION)), undefined, `${command} runs once`);
    assert.equal((await handler()(bash(command), choose(DENY)))?.block, true, `${command} asks again`);
  }
});

test("a regate that is not there blocks the call", async () => {
  const r = await gate(bash("git status"), {}, { socket: join(dir, "nobody.sock"), timeoutMs: 500 });
  assert.equal(r?.block, true);
  assert.match(r!.reason, /^\[regate\] blocked/);
});

// The package root, two levels above dist/test/.
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

test("package.json tells Pi where the extension is, so cp -r into ~/.pi/agent/extensions/ loads it", () => {
  // Pi 0.73.1 (dist/core/extensions/loader.js, resolveExtensionEntries) loads
  // a folder only through package.json "pi.extensions" or an index.ts/js at
  // its top; without either the folder is skipped without a word.
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const entries: string[] = manifest.pi?.extensions ?? [];
  assert.ok(entries.length > 0, "package.json has pi.extensions");
  for (const e of entries) {
    assert.ok(existsSync(join(root, e)), `${e} exists`);
    assert.match(readFileSync(join(root, e), "utf8"), /export default function regate\(/, `${e} exports the factory`);
  }
});

test("the tool table maps Pi's calls to regate's", () => {
  for (const name of ["bash", "read", "write", "edit", "grep", "find", "ls"]) {
    assert.deepEqual(toCall(name, { path: "a" }), { tool: name, input: { path: "a" } }, name);
  }
  assert.deepEqual(toCall("grep", { pattern: "KEY", path: ".", glob: "*.env" }), { tool: "grep", input: { pattern: "KEY", path: ".", glob: "*.env" } }, "grep's file filter is the glob key");
  assert.deepEqual(toCall("powershell", { command: "Remove-Item -Recurse build" }), { tool: "bash", input: { command: "Remove-Item -Recurse build" } });
  assert.deepEqual(toCall("read_mcp_resource", { server: "dev-radius", uri: "file:///home/u/.ssh/id_rsa" }),
    { tool: "mcp", input: { server: "dev-radius", tool: "resources/read", arguments: { uri: "file:///home/u/.ssh/id_rsa" } } });
  assert.deepEqual(toCall("list_mcp_resources", { server: "docs", cursor: "2" }), { tool: "mcp", input: { server: "docs", tool: "resources/list", arguments: { cursor: "2" } } });
  assert.deepEqual(toCall("list_mcp_resources", {}), { tool: "list_mcp_resources", input: {} }, "every server's: its own name");
  assert.deepEqual(toCall("list_mcp_resource_templates", { server: "docs" }), { tool: "mcp", input: { server: "docs", tool: "resources/templates/list", arguments: {} } });
  assert.deepEqual(toCall("codemode", { code: "await tools.read({path: 'a'})" }), { tool: "codemode", input: { code: "await tools.read({path: 'a'})" } });
  assert.deepEqual(toCall("mcp__files__delete", { path: "/x" }), { tool: "mcp", input: { server: "files", tool: "delete", arguments: { path: "/x" } } });
  assert.deepEqual(toCall("mcp__my_srv__a__b", {}), { tool: "mcp", input: { server: "my_srv", tool: "a__b", arguments: {} } }, "the first __ after the server ends it");
  assert.deepEqual(toCall("mcp", { tool: "take_screenshot", server: "chrome", args: '{"format":"png"}' }),
    { tool: "mcp", input: { tool: "take_screenshot", server: "chrome", arguments: { format: "png" } } }, "pi-mcp-adapter's proxy: args is JSON text");
  assert.deepEqual(toCall("mcp", { tool: "t", args: "{not json" }), { tool: "mcp", input: { tool: "t", arguments: "{not json" } });
  assert.deepEqual(toCall("mcp", { search: "shot" }), { tool: "mcp", input: { search: "shot" } });
  assert.deepEqual(toCall("mcp__chrome", { tool: "take_screenshot", args: { format: "png" } }),
    { tool: "mcp", input: { tool: "take_screenshot", server: "chrome", arguments: { format: "png" } } }, "pi-mcp-adapter's per-server proxy");
  assert.deepEqual(toCall("mcp__chrome_take_screenshot", { format: "png" }),
    { tool: "mcp", input: { tool: "chrome_take_screenshot", arguments: { format: "png" } } }, "a name whose server cannot be told apart is the target itself");
  assert.deepEqual(toCall("todo", { action: "add" }), { tool: "todo", input: { action: "add" } }, "another extension's tool keeps its name");
  assert.ok(Object.keys(TOOLS).includes("powershell"));
});

test("an MCP tool is decided by the mcp rules of its server and tool", async () => {
  assert.equal(await handler()({ toolName: "mcp__docs__search", input: { q: "x" } }, {}), undefined);
  const r = await handler()({ toolName: "mcp__files__delete_all", input: {} }, {});
  assert.equal(r?.block, true);
  assert.match(r!.reason, /files/);
  assert.equal(await handler()({ toolName: "mcp", input: { server: "docs", tool: "search", args: "{}" } }, {}), undefined, "the proxy tool too");
  assert.equal((await handler()({ toolName: "mcp", input: { server: "files", tool: "delete_all" } }, {}))?.block, true);
});

test("a PowerShell tool gets the shell rules", async () => {
  assert.equal(await handler()({ toolName: "powershell", input: { command: "git status" } }, {}), undefined);
  const r = await handler()({ toolName: "powershell", input: { command: "git status; rm -rf build" } }, {});
  assert.equal(r?.block, true);
  assert.match(r!.reason, /rm -rf build/);
});
