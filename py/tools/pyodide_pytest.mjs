#!/usr/bin/env node
// Run the engine test suite inside Pyodide (the Python the browser runs), under Node.
//
//   node py/tools/pyodide_pytest.mjs [pytest args...]
//
// Loads the npm `pyodide` from node_modules, unpacks the pure-Python wheels found in
// .cache/wheels (pytest, hypothesis, ...; see py/tools/pyodide-test-wheels.txt), mounts the
// repository at /repo with the Node file system, and calls pytest.main. Exits with pytest's
// status. Without arguments it runs `tests/engine -m "not slow"`; always adds
// `-p no:cacheprovider` and never writes bytecode into the repository. A test that fails only
// because it starts a subprocess (impossible in Pyodide) is reported as skipped, with that reason.
// (pytest-pyodide does not work here: it crashes with pytest 9, and with pytest 8 it wants
// package files from a CDN.)

import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { loadRepoPyodide, repo, requirePyodide } from "./node_pyodide.mjs";

const wheelDir = join(repo, ".cache", "wheels");

requirePyodide("pyodide_pytest");
const wheels = existsSync(wheelDir) ? readdirSync(wheelDir).filter((f) => f.endsWith(".whl")).sort() : [];
if (!wheels.some((f) => f.startsWith("pytest-"))) {
  console.error("pyodide_pytest: no pytest wheel in .cache/wheels: run `make wheels`");
  process.exit(4);
}

const args = process.argv.slice(2);
const pytestArgs = ["-p", "no:cacheprovider", ...(args.length ? args : ["tests/engine", "-m", "not slow"])];

const started = Date.now();
const pyodide = await loadRepoPyodide("pyodide_pytest", (pyodide) => {
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const wheel of wheels) {
    // unpackArchive needs a Uint8Array view, not a Node Buffer
    const buffer = readFileSync(join(wheelDir, wheel));
    pyodide.unpackArchive(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), "wheel", {
      extractDir: sitePackages,
    });
  }
});
console.log(`pyodide_pytest: Pyodide ${pyodide.version} ready in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
  `with ${wheels.length} wheels; pytest ${pytestArgs.join(" ")}`);

pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(pytestArgs));
let status;
try {
  status = await pyodide.runPythonAsync(`
import os, sys
sys.dont_write_bytecode = True  # the repository is mounted read-write: leave no __pycache__
os.chdir("/repo")
import pytest

class NoProcessesInPyodide:
    """A test that starts a subprocess cannot run in Pyodide (the browser has no processes):
    report it as skipped with that reason instead of failed. It still runs under CPython."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        error = call.excinfo
        if error is not None and error.errisinstance(OSError) and "does not support processes" in str(error.value):
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1], "Skipped: starts a subprocess, which Pyodide cannot do")
        return report

int(pytest.main(list(PYTEST_ARGS), plugins=[NoProcessesInPyodide()]))
`);
} catch (error) {
  console.error(`pyodide_pytest: ${error}`);
  status = 3;
}
process.exit(status);
