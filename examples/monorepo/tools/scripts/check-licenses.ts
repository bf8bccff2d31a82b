// Fails when a production dependency uses a licence outside the allow-list.
import { readFileSync } from "node:fs";

const allowed = new Set(["MIT", "ISC", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause"]);
const report = JSON.parse(readFileSync(process.argv[2] ?? "licenses.json", "utf8")) as Record<string, string>;
const bad = Object.entries(report).filter(([, licence]) => !allowed.has(licence));
if (bad.length > 0) {
  console.error(bad.map(([name, licence]) => `${name}: ${licence}`).join("\n"));
  process.exit(1);
}
