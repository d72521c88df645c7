// Runs the firmware logic checks under real MicroPython (the WebAssembly port).
//
//   node run_micropython.mjs <file.py>... -- <python statement>
//
// Each file is copied into MicroPython's in-memory filesystem root; then the
// statement runs. Exit code 0 only if it ran without an exception and printed
// no "FAIL" line. Prints MicroPython's version first so logs say what ran.
import fs from "fs";
import path from "path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const argv = process.argv.slice(2);
const sep = argv.indexOf("--");
if (sep < 0 || sep === argv.length - 1) {
  console.error("usage: node run_micropython.mjs <file.py>... -- <python statement>");
  process.exit(2);
}
const files = argv.slice(0, sep);
const statement = argv.slice(sep + 1).join(" ");

let failed = false;
const mp = await loadMicroPython({
  stdout: (line) => {
    if (line.startsWith("FAIL")) failed = true;
    console.log(line);
  },
  stderr: (line) => console.error(line),
});
for (const file of files) {
  mp.FS.writeFile("/" + path.basename(file), fs.readFileSync(file));
}
try {
  mp.runPython("import sys; print('MicroPython', sys.implementation.name, sys.version)");
  mp.runPython("import sys; sys.path.insert(0, '/')");
  mp.runPython(statement);
} catch (err) {
  console.error("EXCEPTION", err.message ?? err);
  process.exit(1);
}
process.exit(failed ? 1 : 0);
