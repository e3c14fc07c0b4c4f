#!/usr/bin/env node
// A stand-in for `regate hook opencode`: it records its arguments, working
// directory and stdin in $STUB_LOG and answers as $STUB_MODE says.
import { appendFileSync, readFileSync } from "node:fs";
const stdin = readFileSync(0, "utf8");
appendFileSync(process.env.STUB_LOG, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), stdin: JSON.parse(stdin) }) + "\n");
const mode = process.env.STUB_MODE ?? "allow";
const out = (o) => process.stdout.write(typeof o === "string" ? o : JSON.stringify(o));
switch (mode) {
  case "allow": out({ decision: "allow" }); break;
  case "deny": out({ decision: "deny", reason: "[regate] no rm -rf here" }); break;
  case "ask": out({ decision: "ask", reason: "[regate] make deploy needs approval" }); break;
  case "ask-with-value": out({ decision: "ask", reason: "[regate] asks", surface: "bash", value: "it's" }); break;
  case "not-json": out("allow"); break;
  case "no-decision": out({ reason: "?" }); break;
  case "other-decision": out({ decision: "defer" }); break;
  case "fault": process.stderr.write("regate: policy.jsonc:3: unexpected token\n"); out({ decision: "allow" }); process.exitCode = 2; break;
  case "slow": setTimeout(() => out({ decision: "allow" }), 5000); break;
}
