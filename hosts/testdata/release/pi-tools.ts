// Lists the tools Pi registers, for regate's release watch
// (hosts/releasewatch_pi_internal_test.go, TestPiReleaseWatch): one line per tool, its name and
// the top-level fields of its parameters, written to REGATE_PI_TOOLS once
// the session starts; then Pi exits, before any model call.
import { writeFileSync } from "node:fs";

export default function (pi: any) {
  pi.on("session_start", async () => {
    const lines = pi.getAllTools().map((t: any) =>
      [t.name, ...Object.keys(t.parameters?.properties ?? {}).sort()].join(" "));
    writeFileSync(process.env.REGATE_PI_TOOLS as string, lines.sort().join("\n") + "\n");
    process.exit(0);
  });
}
