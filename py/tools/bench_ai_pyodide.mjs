#!/usr/bin/env node
// Time the computer opponent inside Pyodide (the Python the browser runs), under Node.
//
//   node py/tools/bench_ai_pyodide.mjs [games]      (default 20 games of expert vs greedy)
//
// Loads the npm `pyodide` from node_modules, mounts the repository at /repo and runs duplicate
// games with cribbage.ai.simulate, then prints the expert's decision times (median, p95) for
// discards and plays, to compare with `python py/tools/bench_ai.py` in CPython.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pyodideDir = join(repo, "node_modules", "pyodide");
if (!existsSync(join(pyodideDir, "pyodide.mjs"))) {
  console.error("bench_ai_pyodide: node_modules/pyodide is missing: run `npm ci`");
  process.exit(4);
}
const games = Number(process.argv[2] || 20);
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
const write = (stream) => ({ write: (bytes) => { stream.write(bytes); return bytes.length; } });
pyodide.setStdout(write(process.stdout));
pyodide.setStderr(write(process.stderr));
pyodide.FS.mkdirTree("/repo");
pyodide.mountNodeFS("/repo", repo);
pyodide.globals.set("GAMES", games);
await pyodide.runPythonAsync(`
import sys, platform, time
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo/py")
from cribbage.ai.simulate import simulate
t0 = time.perf_counter()
r = simulate("expert", "greedy", games=GAMES, seed=2024)
print(f"Pyodide: Python {platform.python_version()}, {r.games} games expert vs greedy in {time.perf_counter() - t0:.0f} s")
print(r.summary())
`);
