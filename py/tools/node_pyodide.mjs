// The npm `pyodide` under Node with this repository mounted at /repo: what the Pyodide runners share
// (pyodide_pytest.mjs, bench_ai_pyodide.mjs, bench_deal_pyodide.mjs).
//
//   import { repo, loadRepoPyodide } from "./node_pyodide.mjs";
//   const pyodide = await loadRepoPyodide("my_script", (pyodide) => { ...before /repo is mounted... });
//
// Exits with status 4 and a message naming the caller when node_modules/pyodide is missing.
// Python's stdout and stderr go to Node's.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pyodideDir = join(repo, "node_modules", "pyodide");

export function requirePyodide(name) {
  if (!existsSync(join(pyodideDir, "pyodide.mjs"))) {
    console.error(`${name}: node_modules/pyodide is missing: run \`npm ci\``);
    process.exit(4);
  }
}

export async function loadRepoPyodide(name, beforeMount = () => {}) {
  requirePyodide(name);
  const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
  const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
  const write = (stream) => ({ write: (bytes) => { stream.write(bytes); return bytes.length; } });
  pyodide.setStdout(write(process.stdout));
  pyodide.setStderr(write(process.stderr));
  beforeMount(pyodide);
  pyodide.FS.mkdirTree("/repo");
  pyodide.mountNodeFS("/repo", repo);
  return pyodide;
}
