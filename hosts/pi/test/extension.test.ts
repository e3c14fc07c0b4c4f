// The extension against a real `regate serve`: REGATE_BIN names the regate
// binary (.ci/run builds it); the test starts it on a temporary socket.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import regate, { gate, APPROVE_ONCE, APPROVE_SESSION, DENY, type ExtensionAPI, type ToolCallEvent, type ExtensionContext, type ToolCallResult } from "../src/index.js";

const bin = process.env.REGATE_BIN ?? "regate";
const dir = mkdtempSync(join(tmpdir(), "regate-pi-"));
const socket = join(dir, "regate.sock");
let server: ChildProcess;

before(async () => {
  const policy = join(dir, "policy.jsonc");
  writeFileSync(policy, JSON.stringify({ permission: { "*": "ask", bash: { "*": "ask", "git status": "allow", "rm -rf *": "deny" } } }));
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

test("a regate that is not there blocks the call", async () => {
  const r = await gate(bash("git status"), {}, { socket: join(dir, "nobody.sock"), timeoutMs: 500 });
  assert.equal(r?.block, true);
  assert.match(r!.reason, /^\[regate\] blocked/);
});
