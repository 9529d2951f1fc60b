// The repository files each JavaScript/TypeScript file imports, as the TypeScript compiler
// resolves its specifiers: an independent oracle for "which files import FILE?"
// (eval/importers_truth.py).
//   node eval/ts_imports.cjs TYPESCRIPT_MODULE_DIR ROOT < paths   (one JSON line each)
// Each line: {"path", "line", "specifier", "resolved"} for a specifier that resolves to a file
// of ROOT (outside node_modules); a package or an unresolved specifier gives none.
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require(process.argv[2]);
const root = path.resolve(process.argv[3]);

const options = {
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  module: ts.ModuleKind.ESNext,
  allowJs: true,
  resolveJsonModule: false,
  allowImportingTsExtensions: true,
};
const host = ts.sys;

const input = fs.readFileSync(0, "utf8").split("\n").filter(Boolean);
for (const rel of input) {
  const file = path.join(root, rel);
  const text = fs.readFileSync(file, "utf8");
  const info = ts.preProcessFile(text, true, true);
  const lineOf = (pos) => text.slice(0, pos).split("\n").length;
  for (const ref of info.importedFiles) {
    const found = ts.resolveModuleName(ref.fileName, file, options, host).resolvedModule;
    if (!found) continue;
    const target = path.relative(root, path.resolve(found.resolvedFileName));
    if (target.startsWith("..") || target.includes("node_modules")) continue;
    process.stdout.write(
      JSON.stringify({ path: rel, line: lineOf(ref.pos), specifier: ref.fileName, resolved: target }) + "\n",
    );
  }
}
