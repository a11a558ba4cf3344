#!/usr/bin/env node
// Time the computer opponent inside Pyodide (the Python the browser runs), under Node.
//
//   node py/tools/bench_ai_pyodide.mjs [games]      (default 20 games of expert vs greedy)
//
// Loads the npm `pyodide` from node_modules, mounts the repository at /repo and runs duplicate
// games with cribbage.ai.simulate, then prints the expert's decision times (median, p95) for
// discards and plays, to compare with `python py/tools/bench_ai.py` in CPython.

import { loadRepoPyodide } from "./node_pyodide.mjs";

const games = Number(process.argv[2] || 20);
const pyodide = await loadRepoPyodide("bench_ai_pyodide");
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
