#!/usr/bin/env node
// Time the daily discard puzzle inside Pyodide (the Python the browser runs), under Node:
//
//   node py/tools/bench_puzzle_pyodide.mjs [days]      (default 30)
//
// Runs py/tools/bench_puzzle.py's figures in Pyodide, to compare with CPython.

import { loadRepoPyodide } from "./node_pyodide.mjs";

const days = Number(process.argv[2] || 30);
const pyodide = await loadRepoPyodide("bench_puzzle_pyodide");
pyodide.globals.set("DAYS", days);
await pyodide.runPythonAsync(`
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/repo/py/tools")
sys.path.insert(0, "/repo/py")
import bench_puzzle
bench_puzzle.run(DAYS)
`);
