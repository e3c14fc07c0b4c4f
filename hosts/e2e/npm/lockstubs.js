// Adds to package-lock.json an entry for every optional platform package a
// locked package names that the lock lacks: a registry mirror that serves
// only this machine's platform (npm/cli#9846) leaves them out when the lock
// is written, and `npm ci` then refuses the lock. An entry states the
// package's os, cpu and libc (read from its name, as opencode-ai names
// them: opencode-<os>-<cpu>[-baseline][-musl]), so `npm ci` skips it on any
// other platform without fetching it; a name it cannot read is left alone.
//
//   node hosts/e2e/npm/lockstubs.js hosts/e2e/npm/package-lock.json
"use strict";
const fs = require("fs");
const file = process.argv[2];
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const oses = { darwin: "darwin", linux: "linux", windows: "win32", win32: "win32", freebsd: "freebsd" };
const cpus = new Set(["x64", "arm64", "ia32", "arm"]);
let added = 0;
for (const [, pkg] of Object.entries(lock.packages)) {
	for (const [name, version] of Object.entries(pkg.optionalDependencies || {})) {
		const key = "node_modules/" + name;
		if (lock.packages[key]) continue;
		const parts = name.split("-");
		const os = parts.map((p) => oses[p]).find(Boolean);
		const cpu = parts.find((p) => cpus.has(p));
		if (!os || !cpu) continue;
		const entry = { version, optional: true, os: [os], cpu: [cpu] };
		if (parts.includes("musl")) entry.libc = ["musl"];
		lock.packages[key] = entry;
		added++;
	}
}
const sorted = Object.keys(lock.packages).sort((a, b) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0));
lock.packages = Object.fromEntries(sorted.map((k) => [k, lock.packages[k]]));
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(`lockstubs: ${added} platform packages stated`);
